//! `ValidateDefaults` (apiextensions `pkg/apiserver/schema/defaulting/validation.go`):
//! every `default` of a structural schema must be pruned (have no unknown
//! fields), give valid metadata where it touches an embedded resource's
//! apiVersion, kind or metadata, and validate against its own schema.
//!
//! CEL rules on defaults are evaluated by the CEL layer, not here.

use serde_json::{Map, Value};

use crate::model::field::{ErrorList, FieldError, Path};
use crate::model::structural::Structural;
use crate::model::wire::codec::Loc;
use crate::object::metadata;
use crate::object::prune::prune;
use crate::object::schema_view::View;
use crate::object::value_validation::SchemaValidator;

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
    let cx = Walk {
        require_pruned: require_pruned_defaults,
    };
    cx.walk(path, s, is_resource_root, s, None, false, &mut errs);
    errs
}

struct Walk {
    require_pruned: bool,
}

/// A node's embedded-resource flag, with the resource root counting as
/// embedded.
fn embedded(s: &Structural, forced: bool) -> bool {
    forced || s.extensions.embedded_resource
}

impl Walk {
    /// `validate(pth, s, rootSchema, f, insideMeta)`: `forced` marks `s` as
    /// the resource root (treated as embedded); `root` is the schema of the
    /// innermost embedded resource; `f` builds the surrounding object and is
    /// present inside an embedded resource's apiVersion, kind or metadata.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        p: &Path,
        s: &Structural,
        forced: bool,
        root: &Structural,
        f: Option<Surrounding>,
        inside_meta: bool,
        errs: &mut ErrorList,
    ) {
        let is_embedded = embedded(s, forced);
        let (root, f, inside_meta) = if is_embedded {
            (s, None, false)
        } else {
            (root, f, inside_meta)
        };
        if let Some(default) = &s.generic.default {
            self.check_default(
                p,
                s,
                is_embedded,
                root,
                f.as_ref(),
                inside_meta,
                default,
                errs,
            );
        }
        // additionalProperties are not followed: defaults are forbidden there.
        if let Some(items) = &s.items {
            // No arrays lie between an embedded resource and its meta
            // fields, so no surrounding object is carried into items.
            self.walk(
                &p.child("items"),
                items,
                false,
                root,
                None,
                inside_meta,
                errs,
            );
        }
        for (k, sub) in &s.properties {
            let enters_meta =
                is_embedded && matches!(k.as_str(), "metadata" | "apiVersion" | "kind");
            let sub_f = if enters_meta {
                Some(Surrounding::default().child(k))
            } else {
                f.as_ref().map(|f| f.child(k))
            };
            self.walk(
                &p.child("properties").key(k.as_str()),
                sub,
                false,
                root,
                sub_f,
                inside_meta || enters_meta,
                errs,
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_default(
        &self,
        p: &Path,
        s: &Structural,
        is_embedded: bool,
        root: &Structural,
        f: Option<&Surrounding>,
        inside_meta: bool,
        default: &Value,
        errs: &mut ErrorList,
    ) {
        let validator = SchemaValidator::new(&s.to_props());
        let dp = p.child("default");
        if inside_meta {
            let Some(obj) = f.and_then(|f| f.wrap(default.clone())) else {
                return;
            };
            let mut obj = Value::Object(obj);
            if let Some(e) = coerce_value(&Path::root(), &mut obj, Some(root), true) {
                errs.push(FieldError::invalid(
                    &dp,
                    default.clone(),
                    format!("must result in valid metadata: {e}"),
                ));
                return;
            }
            let mut meta_errs = ErrorList::new();
            validate_meta(&Path::root(), &obj, Some(root), true, &mut meta_errs);
            if !meta_errs.is_empty() {
                errs.push(FieldError::invalid(
                    &dp,
                    default.clone(),
                    format!("must result in valid metadata: {}", aggregate(&meta_errs)),
                ));
            } else {
                errs.extend(validator.validate(default, &dp));
            }
            return;
        }
        if self.require_pruned {
            let mut pruned = default.clone();
            prune(&mut pruned, Some(s), is_embedded, false);
            if pruned != *default {
                errs.push(FieldError::invalid(
                    &dp,
                    default.clone(),
                    "must not have unknown fields",
                ));
            }
        }
        let mut coerced = default.clone();
        if let Some(e) = coerce_value(&dp, &mut coerced, Some(s), is_embedded) {
            errs.push(e);
            return;
        }
        let mut meta_errs = ErrorList::new();
        validate_meta(&dp, &coerced, Some(s), is_embedded, &mut meta_errs);
        if !meta_errs.is_empty() {
            errs.extend(meta_errs);
        } else {
            errs.extend(validator.validate(&coerced, &dp));
        }
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

/// `objectmeta.Coerce(pth, obj, s, isResourceRoot, dropInvalidFields=false)`:
/// the first metadata problem, with the metadata of embedded resources
/// rewritten as the server stores it.
pub fn coerce_value(
    p: &Path,
    x: &mut Value,
    s: Option<&Structural>,
    is_resource_root: bool,
) -> Option<FieldError> {
    coerce_value_view(p, x, s.map(View::plain), is_resource_root)
}

/// [`coerce_value`] on a schema view; prepared views skip the subtrees
/// without embedded resources.
pub fn coerce_value_view(
    p: &Path,
    x: &mut Value,
    s: Option<View<'_>>,
    is_resource_root: bool,
) -> Option<FieldError> {
    let empty = Structural::default();
    let s = if is_resource_root {
        Some(s.unwrap_or(View::plain(&empty)))
    } else {
        s
    };
    coerce_walk(&Loc::base(p), x, s, is_resource_root)
}

fn coerce_walk(
    p: &Loc<'_>,
    x: &mut Value,
    s: Option<View<'_>>,
    forced: bool,
) -> Option<FieldError> {
    let s = s?;
    if !forced && !s.may_embed() {
        return None;
    }
    match x {
        Value::Object(map) => {
            if embedded(s.schema(), forced) {
                if let Some(e) = metadata::coerce_embedded_resource(&p.path(), map, false) {
                    return Some(e);
                }
            }
            for (k, v) in map.iter_mut() {
                let e = if let Some(prop) = s.prop(k) {
                    coerce_walk(&p.child(k), v, Some(prop), false)
                } else if let Some(ap) = s.additional() {
                    coerce_walk(&p.key(k), v, ap, false)
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
            let is = s.items();
            for (i, v) in items.iter_mut().enumerate() {
                if let Some(e) = coerce_walk(&p.index(i), v, is, false) {
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
    validate_meta_view(p, x, s.map(View::plain), is_resource_root, errs);
}

/// [`validate_meta`] on a schema view; prepared views skip the subtrees
/// without embedded resources.
pub fn validate_meta_view(
    p: &Path,
    x: &Value,
    s: Option<View<'_>>,
    is_resource_root: bool,
    errs: &mut ErrorList,
) {
    let empty = Structural::default();
    let s = if is_resource_root {
        Some(s.unwrap_or(View::plain(&empty)))
    } else {
        s
    };
    validate_meta_walk(&Loc::base(p), x, s, is_resource_root, errs);
}

fn validate_meta_walk(
    p: &Loc<'_>,
    x: &Value,
    s: Option<View<'_>>,
    forced: bool,
    errs: &mut ErrorList,
) {
    let Some(s) = s else { return };
    if !forced && !s.may_embed() {
        return;
    }
    match x {
        Value::Object(map) => {
            if embedded(s.schema(), forced) {
                errs.extend(metadata::validate_embedded_resource(&p.path(), map));
            }
            for (k, v) in map {
                if let Some(prop) = s.prop(k) {
                    validate_meta_walk(&p.child(k), v, Some(prop), false, errs);
                } else if let Some(ap) = s.additional() {
                    validate_meta_walk(&p.key(k), v, ap, false, errs);
                }
            }
        }
        Value::Array(items) => {
            let is = s.items();
            for (i, v) in items.iter().enumerate() {
                validate_meta_walk(&p.index(i), v, is, false, errs);
            }
        }
        _ => {}
    }
}
