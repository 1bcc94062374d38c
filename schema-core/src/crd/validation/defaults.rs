//! `ValidateDefaults` (apiextensions `pkg/apiserver/schema/defaulting/validation.go`):
//! every `default` of a structural schema must be pruned (have no unknown
//! fields), give valid metadata where it touches an embedded resource's
//! apiVersion, kind or metadata, and validate against its own schema.
//!
//! CEL rules on defaults are evaluated by the CEL layer, not here.

use serde_json::{Map, Value};

use crate::model::field::{ErrorList, FieldError, Path};
use crate::model::structural::Structural;
use crate::object::metadata::walk::{coerce_value, embedded, validate_meta};
use crate::object::prune::prune;
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
