//! `ValidateDefaults` (apiextensions `pkg/apiserver/schema/defaulting/validation.go`):
//! every `default` of a structural schema must be pruned (have no unknown
//! fields), give valid metadata where it touches an embedded resource's
//! apiVersion, kind or metadata, and validate against its own schema.
//!
//! CEL rules on defaults are evaluated by the CEL layer, not here.

use serde_json::{Map, Value};

use crate::field::{ErrorList, FieldError, Path};
use crate::objectmeta;
use crate::prune::prune;
use crate::structural::Structural;
use crate::value::SchemaValidator;

/// Builds the object surrounding a default that sits inside an embedded
/// resource's apiVersion, kind or metadata: the default wrapped in the
/// parents' keys, with `apiVersion: validation/v1` and `kind: Validation`
/// filled in where missing (`SurroundingObjectFunc`).
#[derive(Clone, Default)]
struct Surrounding {
    keys: Vec<String>,
}

impl Surrounding {
    fn child(&self, k: &str) -> Self {
        let mut keys = self.keys.clone();
        keys.push(k.to_string());
        Self { keys }
    }

    fn wrap(&self, x: Value) -> Option<Map<String, Value>> {
        let mut v = x;
        for k in self.keys.iter().rev() {
            let mut m = Map::new();
            m.insert(k.clone(), v);
            v = Value::Object(m);
        }
        let Value::Object(mut obj) = v else {
            return None;
        };
        obj.entry("kind")
            .or_insert_with(|| Value::String("Validation".into()));
        obj.entry("apiVersion")
            .or_insert_with(|| Value::String("validation/v1".into()));
        Some(obj)
    }
}

/// `ValidateDefaults(pth, s, isResourceRoot, requirePrunedDefaults)`.
pub fn validate_defaults(
    path: &Path,
    s: &Structural,
    is_resource_root: bool,
    require_pruned_defaults: bool,
) -> ErrorList {
    let mut errs = ErrorList::new();
    if is_resource_root && !s.extensions.embedded_resource {
        let mut root = s.clone();
        root.extensions.embedded_resource = true;
        walk(
            path,
            &root,
            &root,
            Some(Surrounding::default()),
            false,
            require_pruned_defaults,
            &mut errs,
        );
    } else {
        walk(
            path,
            s,
            s,
            Some(Surrounding::default()),
            false,
            require_pruned_defaults,
            &mut errs,
        );
    }
    errs
}

fn walk<'a>(
    p: &Path,
    s: &'a Structural,
    root: &'a Structural,
    f: Option<Surrounding>,
    inside_meta: bool,
    require_pruned: bool,
    errs: &mut ErrorList,
) {
    let (root, f, inside_meta) = if s.extensions.embedded_resource {
        (s, Some(Surrounding::default()), false)
    } else {
        (root, f, inside_meta)
    };
    if let Some(default) = &s.generic.default {
        let validator = SchemaValidator::new(&s.to_props());
        let dp = p.child("default");
        if inside_meta {
            if let Some(mut obj) = f.as_ref().and_then(|f| f.wrap(default.clone())) {
                let mut errs_meta = coerce(&Path::root(), &mut obj, Some(root), true);
                if let Some(e) = errs_meta.take() {
                    errs.push(FieldError::invalid(
                        &dp,
                        default.clone(),
                        format!("must result in valid metadata: {}", e),
                    ));
                } else {
                    let mut meta_errs = ErrorList::new();
                    validate_meta(
                        &Path::root(),
                        &Value::Object(obj),
                        Some(root),
                        true,
                        &mut meta_errs,
                    );
                    if !meta_errs.is_empty() {
                        errs.push(FieldError::invalid(
                            &dp,
                            default.clone(),
                            format!("must result in valid metadata: {}", aggregate(&meta_errs)),
                        ));
                    } else {
                        errs.extend(validator.validate(default, &dp));
                    }
                }
            }
        } else {
            if require_pruned {
                let mut pruned = default.clone();
                prune(&mut pruned, Some(s), s.extensions.embedded_resource, false);
                if pruned != *default {
                    errs.push(FieldError::invalid(
                        &dp,
                        default.clone(),
                        "must not have unknown fields",
                    ));
                }
            }
            let mut coerced = default.clone();
            let embedded = s.extensions.embedded_resource;
            if let Some(e) = coerce_value(&dp, &mut coerced, Some(s), embedded) {
                errs.push(e);
            } else {
                let mut meta_errs = ErrorList::new();
                validate_meta(&dp, &coerced, Some(s), embedded, &mut meta_errs);
                if !meta_errs.is_empty() {
                    errs.extend(meta_errs);
                } else {
                    errs.extend(validator.validate(&coerced, &dp));
                }
            }
        }
    }
    // additionalProperties are not followed: defaults are forbidden there.
    if let Some(items) = &s.items {
        // Inside metadata there are no arrays between the embedded root and
        // a meta field, so the surrounding object cannot be built there.
        walk(
            &p.child("items"),
            items,
            root,
            None,
            inside_meta,
            require_pruned,
            errs,
        );
    }
    for (k, sub) in &s.properties {
        let sub_inside = inside_meta
            || (s.extensions.embedded_resource
                && matches!(k.as_str(), "metadata" | "apiVersion" | "kind"));
        walk(
            &p.child("properties").key(k.as_str()),
            sub,
            root,
            f.as_ref().map(|f| f.child(k)),
            sub_inside,
            require_pruned,
            errs,
        );
    }
}

/// `ErrorList.ToAggregate().Error()`: one error prints alone, several as
/// `[a, b]`.
fn aggregate(errs: &ErrorList) -> String {
    let msgs: Vec<String> = errs.iter().map(ToString::to_string).collect();
    match msgs.as_slice() {
        [one] => one.clone(),
        _ => format!("[{}]", msgs.join(", ")),
    }
}

fn coerce(
    p: &Path,
    obj: &mut Map<String, Value>,
    s: Option<&Structural>,
    is_root: bool,
) -> Option<FieldError> {
    let mut v = Value::Object(std::mem::take(obj));
    let r = coerce_value(p, &mut v, s, is_root);
    if let Value::Object(m) = v {
        *obj = m;
    }
    r
}

/// `objectmeta.Coerce(pth, obj, s, isResourceRoot, dropInvalidFields=false)`:
/// the first metadata problem, with the metadata of embedded resources
/// rewritten as the server stores it.
pub fn coerce_value(
    p: &Path,
    x: &mut Value,
    s: Option<&Structural>,
    is_resource_root: bool,
) -> Option<FieldError> {
    let root;
    let s = if is_resource_root {
        let mut r = s.cloned().unwrap_or_default();
        r.extensions.embedded_resource = true;
        root = r;
        Some(&root)
    } else {
        s
    };
    coerce_walk(p, x, s)
}

fn coerce_walk(p: &Path, x: &mut Value, s: Option<&Structural>) -> Option<FieldError> {
    let s = s?;
    match x {
        Value::Object(map) => {
            if s.extensions.embedded_resource {
                for k in ["apiVersion", "kind"] {
                    if let Some(v) = map.get(k) {
                        if !v.is_string() {
                            return Some(FieldError::invalid(
                                &p.child(k),
                                v.clone(),
                                "must be a string",
                            ));
                        }
                    }
                }
                if let Some(v) = map.get("metadata").cloned() {
                    match objectmeta::coerce_metadata(&v, false) {
                        Err(e) => return Some(FieldError::invalid(&p.child("metadata"), v, e)),
                        Ok(cleaned) => {
                            map.insert("metadata".into(), cleaned);
                        }
                    }
                }
            }
            for (k, v) in map.iter_mut() {
                let e = if let Some(prop) = s.properties.get(k) {
                    coerce_walk(&p.child(k.as_str()), v, Some(prop))
                } else if let Some(ap) = &s.generic.additional_properties {
                    coerce_walk(&p.key(k.as_str()), v, ap.structural.as_deref())
                } else {
                    None
                };
                if e.is_some() {
                    return e;
                }
            }
            None
        }
        Value::Array(items) => {
            for (i, v) in items.iter_mut().enumerate() {
                if let Some(e) = coerce_walk(&p.index(i), v, s.items.as_deref()) {
                    return Some(e);
                }
            }
            None
        }
        _ => None,
    }
}

/// `objectmeta.Validate(pth, obj, s, isResourceRoot)`.
pub fn validate_meta(
    p: &Path,
    x: &Value,
    s: Option<&Structural>,
    is_resource_root: bool,
    errs: &mut ErrorList,
) {
    if is_resource_root {
        let mut r = s.cloned().unwrap_or_default();
        r.extensions.embedded_resource = true;
        validate_meta_walk(p, x, Some(&r), errs);
    } else {
        validate_meta_walk(p, x, s, errs);
    }
}

fn validate_meta_walk(p: &Path, x: &Value, s: Option<&Structural>, errs: &mut ErrorList) {
    let Some(s) = s else { return };
    match x {
        Value::Object(map) => {
            if s.extensions.embedded_resource {
                errs.extend(objectmeta::validate_embedded_resource(p, map));
            }
            for (k, v) in map {
                if let Some(prop) = s.properties.get(k) {
                    validate_meta_walk(&p.child(k.as_str()), v, Some(prop), errs);
                } else if let Some(ap) = &s.generic.additional_properties {
                    validate_meta_walk(&p.key(k.as_str()), v, ap.structural.as_deref(), errs);
                }
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                validate_meta_walk(&p.index(i), v, s.items.as_deref(), errs);
            }
        }
        _ => {}
    }
}
