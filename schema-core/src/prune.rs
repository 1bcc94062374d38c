//! Pruning of unknown fields (apiextensions
//! `pkg/apiserver/schema/pruning/algorithm.go`).
//!
//! Fields the schema does not specify are removed, except under
//! `x-kubernetes-preserve-unknown-fields`; the apiVersion, kind and
//! metadata of the resource root and of embedded resources are kept. The
//! paths of removed fields are returned sorted, as the server reports them
//! (`a.b[0].c`).

use serde_json::Value;

use crate::structural::Structural;

const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

fn is_meta(k: &str) -> bool {
    META_FIELDS.contains(&k)
}

/// `PruneWithOptions(obj, s, isResourceRoot, {TrackUnknownFieldPaths: track})`.
/// Returns the sorted paths of pruned fields (empty unless `track`).
pub fn prune(
    obj: &mut Value,
    s: Option<&Structural>,
    is_resource_root: bool,
    track: bool,
) -> Vec<String> {
    let mut cx = Cx {
        track,
        parent: String::new(),
        unknown: Vec::new(),
    };
    if is_resource_root {
        let empty = Structural::default();
        prune_value(obj, Some(s.unwrap_or(&empty)), true, &mut cx);
    } else {
        prune_value(obj, s, false, &mut cx);
    }
    cx.unknown.sort();
    cx.unknown
}

struct Cx {
    track: bool,
    parent: String,
    unknown: Vec<String>,
}

impl Cx {
    fn record(&mut self, k: &str) {
        if self.track {
            if self.parent.is_empty() {
                self.unknown.push(k.to_string());
            } else {
                self.unknown.push(format!("{}.{k}", self.parent));
            }
        }
    }

    fn push_key(&mut self, k: &str) -> usize {
        let len = self.parent.len();
        if self.track {
            if !self.parent.is_empty() {
                self.parent.push('.');
            }
            self.parent.push_str(k);
        }
        len
    }

    fn push_index(&mut self, i: usize) -> usize {
        let len = self.parent.len();
        if self.track {
            self.parent.push('[');
            self.parent.push_str(&i.to_string());
            self.parent.push(']');
        }
        len
    }

    fn pop(&mut self, len: usize) {
        self.parent.truncate(len);
    }
}

fn additional(s: &Structural) -> Option<Option<&Structural>> {
    s.generic
        .additional_properties
        .as_ref()
        .map(|a| a.structural.as_deref())
}

/// `root_embedded` treats `s` as an embedded resource (the resource root).
fn prune_value(x: &mut Value, s: Option<&Structural>, root_embedded: bool, cx: &mut Cx) {
    if let Some(s) = s.filter(|s| s.extensions.preserve_unknown_fields) {
        skip_prune(x, s, root_embedded, cx);
        return;
    }
    match x {
        Value::Object(map) => {
            let Some(s) = s else {
                let keys: Vec<String> = map.keys().cloned().collect();
                for k in keys {
                    cx.record(&k);
                }
                map.clear();
                return;
            };
            let top = cx.parent.is_empty();
            let embedded = root_embedded || s.extensions.embedded_resource;
            let mut remove = Vec::new();
            for (k, v) in map.iter_mut() {
                if embedded && is_meta(k) {
                    continue;
                }
                if let Some(prop) = s.properties.get(k) {
                    let len = cx.push_key(k);
                    prune_value(v, Some(prop), false, cx);
                    cx.pop(len);
                } else if let Some(ap) = additional(s) {
                    let len = cx.push_key(k);
                    prune_value(v, ap, false, cx);
                    cx.pop(len);
                } else {
                    if !is_meta(k) || !top {
                        cx.record(k);
                    }
                    remove.push(k.clone());
                }
            }
            for k in remove {
                crate::deep::drop_removed(map.shift_remove(&k));
            }
        }
        Value::Array(items) => {
            let item_schema = s.and_then(|s| s.items.as_deref());
            for (i, v) in items.iter_mut().enumerate() {
                let len = cx.push_index(i);
                prune_value(v, item_schema, false, cx);
                cx.pop(len);
            }
        }
        _ => {}
    }
}

fn skip_prune(x: &mut Value, s: &Structural, root_embedded: bool, cx: &mut Cx) {
    match x {
        Value::Object(map) => {
            let embedded = root_embedded || s.extensions.embedded_resource;
            for (k, v) in map.iter_mut() {
                if embedded && is_meta(k) {
                    continue;
                }
                if let Some(prop) = s.properties.get(k) {
                    let len = cx.push_key(k);
                    prune_value(v, Some(prop), false, cx);
                    cx.pop(len);
                } else if let Some(ap) = additional(s) {
                    let len = cx.push_key(k);
                    prune_value(v, ap, false, cx);
                    cx.pop(len);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = s.items.as_deref() {
                for (i, v) in items.iter_mut().enumerate() {
                    let len = cx.push_index(i);
                    skip_prune(v, item_schema, false, cx);
                    cx.pop(len);
                }
            }
        }
        _ => {}
    }
}
