//! Pruning of unknown fields (apiextensions
//! `pkg/apiserver/schema/pruning/algorithm.go`).
//!
//! Fields the schema does not specify are removed, except under
//! `x-kubernetes-preserve-unknown-fields`; the apiVersion, kind and
//! metadata of the resource root and of embedded resources are kept. The
//! paths of removed fields are returned sorted, as the server reports them
//! (`a.b[0].c`).
//!
//! The walk also does defaulting's `PruneNonNullableNullsWithoutDefaults`
//! (see [`crate::default`]), alone or fused with pruning: the server runs
//! the two one after the other over the whole object, and as each decides
//! on an object's keys from the schema and the key's value alone (pruning
//! never makes a value null, and a removed null has nothing below it to
//! prune), deciding both at each object before descending gives the same
//! object and the same pruned paths.

use serde_json::Value;

use crate::structural::Structural;
use crate::walk::View;

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
    run(obj, s.map(View::plain), is_resource_root, track, false)
}

/// [`prune`], then `PruneNonNullableNullsWithoutDefaults(obj, s)`, in one
/// walk.
pub fn prune_and_drop_nulls(
    obj: &mut Value,
    s: Option<View<'_>>,
    is_resource_root: bool,
    track: bool,
) -> Vec<String> {
    run(obj, s, is_resource_root, track, true)
}

/// `PruneNonNullableNullsWithoutDefaults(x, s)` (see
/// [`crate::default::prune_non_nullable_nulls_without_defaults`]).
pub(crate) fn drop_nulls(x: &mut Value, s: Option<View<'_>>) {
    let mut cx = Cx {
        track: false,
        unknown: Vec::new(),
    };
    walk(x, P::Off, s, &Seg::Root, &mut cx);
}

fn run(
    obj: &mut Value,
    s: Option<View<'_>>,
    is_resource_root: bool,
    track: bool,
    nulls: bool,
) -> Vec<String> {
    let mut cx = Cx {
        track,
        unknown: Vec::new(),
    };
    let empty = Structural::default();
    let p = if is_resource_root {
        P::Prune(Some(s.unwrap_or(View::plain(&empty))), true)
    } else {
        P::Prune(s, false)
    };
    let n = if nulls { s } else { None };
    walk(obj, p, n, &Seg::Root, &mut cx);
    cx.unknown.sort();
    cx.unknown
}

/// What pruning does at a value.
#[derive(Clone, Copy)]
enum P<'a> {
    /// Nothing (pruning does not descend here).
    Off,
    /// `prune(x, s, rootEmbedded)`: a nil schema prunes everything.
    Prune(Option<View<'a>>, bool),
    /// `skipPrune(x, s, rootEmbedded)` (under
    /// `x-kubernetes-preserve-unknown-fields`).
    Skip(View<'a>, bool),
}

struct Cx {
    track: bool,
    unknown: Vec<String>,
}

/// Where a value sits, rendered (`a.b[0].c`) only for a pruned field.
enum Seg<'p> {
    Root,
    Key(&'p Seg<'p>, &'p str),
    Index(&'p Seg<'p>, usize),
}

impl Seg<'_> {
    /// The server's `parent` path string: keys joined by `.` (none before
    /// the first non-empty part), indexes as `[i]`.
    fn render(&self) -> String {
        let mut chain: Vec<&Seg<'_>> = Vec::new();
        let mut cur = self;
        while let Seg::Key(p, _) | Seg::Index(p, _) = cur {
            chain.push(cur);
            cur = p;
        }
        let mut s = String::new();
        for seg in chain.iter().rev() {
            match seg {
                Seg::Root => {}
                Seg::Key(_, k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                Seg::Index(_, i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
            }
        }
        s
    }

    /// Whether the rendered path is empty.
    fn is_empty(&self) -> bool {
        let mut cur = self;
        loop {
            match cur {
                Seg::Root => return true,
                Seg::Key(p, "") => cur = p,
                Seg::Key(..) | Seg::Index(..) => return false,
            }
        }
    }
}

impl Cx {
    fn record(&mut self, at: &Seg<'_>, k: &str) {
        if self.track {
            let parent = at.render();
            if parent.is_empty() {
                self.unknown.push(k.to_string());
            } else {
                self.unknown.push(format!("{parent}.{k}"));
            }
        }
    }
}

/// Whether `PruneNonNullableNullsWithoutDefaults` removes a `null` whose
/// schema is `s`.
fn drops_null(s: Option<View<'_>>) -> bool {
    s.is_some_and(|p| {
        let g = &p.schema().generic;
        !g.nullable && g.default.is_none()
    })
}

/// The nulls walk's schema for the value of key `k` of an object with
/// schema `s`: the property, else `additionalProperties`' schema.
fn nulls_child<'a>(s: View<'a>, k: &str) -> Option<View<'a>> {
    s.prop(k).or_else(|| s.additional().flatten())
}

/// Prunes `x` as `p` says and drops its non-nullable nulls along `n`.
fn walk(x: &mut Value, p: P<'_>, n: Option<View<'_>>, at: &Seg<'_>, cx: &mut Cx) {
    let p = match p {
        P::Prune(Some(s), root_embedded) if s.schema().extensions.preserve_unknown_fields => {
            P::Skip(s, root_embedded)
        }
        p => p,
    };
    match x {
        Value::Object(map) => {
            // (schema, embedded, skipping)
            let ps = match p {
                P::Off => None,
                P::Prune(None, _) => {
                    for k in map.keys() {
                        cx.record(at, k);
                    }
                    map.clear();
                    return;
                }
                P::Prune(Some(s), re) => {
                    Some((s, re || s.schema().extensions.embedded_resource, false))
                }
                P::Skip(s, re) => Some((s, re || s.schema().extensions.embedded_resource, true)),
            };
            if ps.is_none() && n.is_none() {
                return;
            }
            map.retain(|k, v| {
                let mut pc = P::Off;
                // The property lookup, shared by both walks when they follow
                // the same schema node.
                let mut looked: Option<Option<View<'_>>> = None;
                if let Some((s, embedded, skipping)) = ps {
                    if embedded && is_meta(k) {
                        // Kept as is.
                    } else if let Some(prop) = s.prop(k) {
                        looked = Some(Some(prop));
                        pc = P::Prune(Some(prop), false);
                    } else if let Some(ap) = s.additional() {
                        looked = Some(None);
                        pc = P::Prune(ap, false);
                    } else if !skipping {
                        if !is_meta(k) || !at.is_empty() {
                            cx.record(at, k);
                        }
                        return false;
                    }
                }
                let nc = n.and_then(|ns| match (ps, looked) {
                    (Some((s, ..)), Some(Some(prop))) if s.same(ns) => Some(prop),
                    (Some((s, ..)), Some(None)) if s.same(ns) => ns.additional().flatten(),
                    _ => nulls_child(ns, k),
                });
                if v.is_null() {
                    // Nothing below a null to prune or drop.
                    return !drops_null(nc);
                }
                if !matches!(pc, P::Off) || nc.is_some() {
                    walk(v, pc, nc, &Seg::Key(at, k), cx);
                }
                true
            });
        }
        Value::Array(items) => {
            let pc = match p {
                P::Off => P::Off,
                P::Prune(s, _) => P::Prune(s.and_then(View::items), false),
                P::Skip(s, _) => s.items().map_or(P::Off, |i| P::Skip(i, false)),
            };
            let nc = n.and_then(View::items);
            if matches!(pc, P::Off) && nc.is_none() {
                return;
            }
            for (i, v) in items.iter_mut().enumerate() {
                walk(v, pc, nc, &Seg::Index(at, i), cx);
            }
        }
        _ => {}
    }
}
