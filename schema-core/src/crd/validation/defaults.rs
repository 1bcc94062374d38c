//! `ValidateDefaults` (apiextensions `pkg/apiserver/schema/defaulting/validation.go`):
//! every `default` of a structural schema must be pruned (have no unknown
//! fields), give valid metadata where it touches an embedded resource's
//! apiVersion, kind or metadata, validate against its own schema, and pass
//! the node's `x-kubernetes-validations` rules (evaluated with the default
//! as both the value and the old value, then, when those pass, as a value
//! new in an update), within one runtime cost budget for the whole schema.

use serde_json::{Map, Value};

use std::cell::Cell;

use crate::cel::functions::CompatibilityVersion;
use crate::cel::validator::{CelOptions, CelValidator, RUNTIME_CEL_COST_BUDGET};
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
    cel_version: CompatibilityVersion,
) -> ErrorList {
    let mut errs = ErrorList::new();
    let cx = Walk {
        require_pruned: require_pruned_defaults,
        cel_version,
        remaining: Cell::new(RUNTIME_CEL_COST_BUDGET),
    };
    cx.walk(path, s, is_resource_root, s, None, false, &mut errs);
    errs
}

struct Walk {
    require_pruned: bool,
    /// The CEL environment the rules run in (that of stored rules).
    cel_version: CompatibilityVersion,
    /// The CEL cost budget left; below zero the walk stops.
    remaining: Cell<i64>,
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
        if self.remaining.get() < 0 {
            return;
        }
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
            if self.remaining.get() < 0 {
                return;
            }
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
            if self.remaining.get() < 0 {
                return;
            }
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
                let value_errs = validator.validate(default, &dp);
                if value_errs.is_empty() {
                    self.check_rules(&dp, s, std::ptr::eq(s, root), default, errs);
                }
                errs.extend(value_errs);
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
            // Coercion changed the default in place upstream: the rest
            // sees the coerced value.
            let value_errs = validator.validate(&coerced, &dp);
            if value_errs.is_empty() {
                self.check_rules(&dp, s, std::ptr::eq(s, root), &coerced, errs);
            }
            errs.extend(value_errs);
        }
    }

    /// The node's rules on its default: with the default as its own old
    /// value, then, when that passes, without an old value (a default may
    /// arrive in an update, where `optionalOldSelf` rules see none). The
    /// costlier run is charged.
    fn check_rules(
        &self,
        dp: &Path,
        s: &Structural,
        is_resource_root: bool,
        default: &Value,
        errs: &mut ErrorList,
    ) {
        let cel = CelValidator::at(s, is_resource_root, self.cel_version);
        if !cel.has_rules() {
            return;
        }
        let opts = CelOptions {
            ratcheting: false,
            ..CelOptions::default()
        };
        let budget = self.remaining.get();
        let with_old = cel.validate(dp, default, Some(default), opts, budget);
        let mut remaining = with_old.remaining_budget;
        let passed = with_old.errors.is_empty();
        errs.extend(with_old.errors);
        if passed {
            let without_old = cel.validate(dp, default, None, opts, budget);
            remaining = remaining.min(without_old.remaining_budget);
            errs.extend(without_old.errors);
        }
        self.remaining.set(remaining);
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

#[cfg(test)]
mod tests {
    use crate::crd::check::check;
    use crate::model::wire::input::read_input;
    use serde_json::json;

    #[test]
    fn rules_run_on_defaults_inside_and_outside_embedded_metadata() {
        let schema = json!({
            "type": "object",
            "properties": {"spec": {"type": "object", "properties": {
                "value": {"type": "integer", "default": 3,
                    "x-kubernetes-validations": [{"rule": "self > 5"}]},
                "o": {"type": "object", "default": {"a": 1},
                    "properties": {"a": {"type": "integer"}},
                    "x-kubernetes-validations": [{"rule": "self.a > 4", "message": "too small"}]},
                "ok": {"type": "integer", "default": 9,
                    "x-kubernetes-validations": [{"rule": "self > 5"}]},
                "e": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                    "apiVersion": {"type": "string"},
                    "kind": {"type": "string"},
                    "metadata": {"type": "object", "properties": {"name": {
                        "type": "string", "default": "x",
                        "x-kubernetes-validations": [{"rule": "self.size() > 3"}]}}}}}
            }}}
        });
        let version = json!({"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": schema}});
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "ws.x.io"},
            "spec": {
                "group": "x.io",
                "scope": "Namespaced",
                "names": {"plural": "ws", "kind": "W"},
                "versions": [version]
            }
        });
        let (input, _) = read_input(&crd).unwrap();
        let errors: Vec<String> = check(&input, &crate::model::options::Options::default())
            .errors
            .iter()
            .map(ToString::to_string)
            .collect();
        let p = "spec.validation.openAPIV3Schema.properties[spec].properties";
        assert_eq!(
            errors,
            [
                format!("{p}[value].default: Invalid value: 3: failed rule: self > 5"),
                format!("{p}[o].default: Invalid value: too small"),
                format!(
                    "{p}[e].properties[metadata].properties[name].default: Invalid value: \"x\": failed rule: self.size() > 3"
                ),
            ]
        );
    }
}
