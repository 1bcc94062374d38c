// How the schema decides defaulting, nullability and validation: required
// and defaulted fields, `Option`s with and without defaults (serialized as
// `null` or skipped), a default from an associated function, lists with a
// schema function, CEL rules on fields and on the struct (with messages,
// reasons and `optionalOldSelf`, written as schema extensions), and a root
// rule on the object's metadata (`#[kube(validation = ...)]`).

use kube::CustomResourceExt;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A knob and the ways its fields default.
#[derive(
    CustomResource, JsonSchema, Serialize, Deserialize, Default, Debug, PartialEq, Eq, Clone,
)]
#[kube(
    group = "knobs.example.com",
    version = "v1",
    kind = "Knob",
    namespaced,
    derive = "PartialEq",
    derive = "Default",
    validation = "self.metadata.name != 'forbidden'"
)]
#[serde(rename_all = "camelCase")]
#[schemars(extend("x-kubernetes-validations" = [
    { "rule": "self.requiredText == oldSelf.requiredText", "message": "requiredText is immutable" }
]))]
pub struct KnobSpec {
    // Not nullable, no default: required.
    required_text: String,

    // Not nullable, with a default: the server fills it in when missing.
    #[serde(default = "default_text")]
    text_with_default: String,

    // Nullable, left out when `None`.
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped_optional: Option<String>,

    // Nullable, sent as `null` when `None`.
    optional: Option<String>,

    // Nullable with a default, left out when `None`: the server defaults it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default = "default_optional")]
    skipped_optional_with_default: Option<String>,

    // Nullable with a default, sent as `null`: the server keeps the null.
    #[serde(default = "default_optional")]
    optional_with_default: Option<String>,

    /// A list merged atomically.
    #[serde(default)]
    plain_list: Vec<u32>,

    // A list merged as a set.
    #[serde(default)]
    #[schemars(schema_with = "set_of_u32")]
    set_list: Vec<u32>,

    // Rules with a message expression and with reasons.
    #[serde(default = "default_checked")]
    #[schemars(extend("x-kubernetes-validations" = [
        {
            "rule": "self != 'illegal'",
            "messageExpression": "'string cannot be illegal'",
            "reason": "FieldValueForbidden"
        },
        { "rule": "self != 'not legal'", "reason": "FieldValueInvalid" }
    ]))]
    checked: Option<String>,

    /// Set once, then kept.
    #[serde(default)]
    #[schemars(extend("x-kubernetes-validations" = [
        {
            "rule": "oldSelf.optMap(o, o == self).orValue(true)",
            "optionalOldSelf": true,
            "message": "Immutable after creation"
        }
    ]))]
    frozen: Option<String>,

    #[schemars(extend("x-kubernetes-validations" = [
        { "rule": "self == oldSelf", "message": "is immutable" }
    ]))]
    sub: Option<KnobSub>,

    #[serde(default = "KnobSpec::default_flag")]
    associated_default: bool,
}

/// A part of a knob with several rules on one field.
#[derive(JsonSchema, Serialize, Deserialize, Default, Debug, PartialEq, Eq, Clone)]
pub struct KnobSub {
    /// One field, three rules.
    #[schemars(extend("x-kubernetes-validations" = [
        { "rule": "self != 'not legal'" },
        { "rule": "self != 'not that'" },
        { "rule": "self != 'also not that'", "message": "some pretty good reason" }
    ]))]
    field: String,

    other: Option<String>,
}

impl KnobSpec {
    fn default_flag() -> bool {
        true
    }
}

fn set_of_u32(_: &mut schemars::generate::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "array",
        "x-kubernetes-list-type": "set",
        "items": { "type": "integer", "format": "u32", "minimum": 0 }
    })
}

fn default_text() -> String {
    "default_value".into()
}

fn default_checked() -> Option<String> {
    Some("legal".into())
}

fn default_optional() -> Option<String> {
    Some("default_nullable".into())
}

/// The CRD, by its name.
pub fn crds() -> crate::Crds {
    vec![("knobs", Knob::crd())]
}

/// The object `baz` as the server stores it after its create.
fn stored_baz() -> Value {
    json!({
        "apiVersion": "knobs.example.com/v1",
        "kind": "Knob",
        "metadata": { "name": "baz", "namespace": "default", "resourceVersion": "1" },
        "spec": {
            "requiredText": "a required field",
            "textWithDefault": "default_value",
            "skippedOptionalWithDefault": "default_nullable",
            "optionalWithDefault": "default_nullable",
            "plainList": [2],
            "setList": [2],
            "checked": "legal",
            "associatedDefault": true
        }
    })
}

/// The program's objects: a typed create with every field at its
/// `Default`, a raw create that leaves the defaulted fields out, a create
/// missing a required field, the forbidden name, and patches that break
/// or keep each rule.
pub fn examples() -> Vec<crate::Example> {
    use crate::Example;
    let stored = stored_baz();
    let patch =
        |name, spec: Value| Example::update(name, "knobs", "v1", &stored, &json!({ "spec": spec }));
    vec![
        Example::create(
            "typed defaults",
            "knobs",
            "v1",
            &Knob::new("bar", KnobSpec::default()),
        ),
        Example::create(
            "raw without the defaulted fields",
            "knobs",
            "v1",
            &json!({
                "apiVersion": "knobs.example.com/v1",
                "kind": "Knob",
                "metadata": { "name": "baz" },
                "spec": { "requiredText": "a required field", "plainList": [2], "setList": [2] }
            }),
        ),
        Example::create(
            "missing required field",
            "knobs",
            "v1",
            &json!({
                "apiVersion": "knobs.example.com/v1",
                "kind": "Knob",
                "metadata": { "name": "qux" },
                "spec": {}
            }),
        ),
        Example::create(
            "forbidden name",
            "knobs",
            "v1",
            &Knob::new("forbidden", KnobSpec::default()),
        ),
        patch("illegal", json!({ "checked": "illegal" })),
        patch("not legal", json!({ "checked": "not legal" })),
        patch(
            "sub field not legal",
            json!({ "sub": { "field": "not legal" } }),
        ),
        patch(
            "sub field also not that",
            json!({ "sub": { "field": "also not that" } }),
        ),
        patch("sub field legal", json!({ "sub": { "field": "legal" } })),
        Example::update(
            "sub changed",
            "knobs",
            "v1",
            &{
                let mut old = stored_baz();
                crate::merge_patch(
                    &mut old,
                    &json!({ "spec": { "sub": { "field": "legal" } } }),
                );
                old
            },
            &json!({ "spec": { "sub": { "field": "legal", "other": "different" } } }),
        ),
        patch("frozen set", json!({ "frozen": "once" })),
        Example::update(
            "frozen changed",
            "knobs",
            "v1",
            &{
                let mut old = stored_baz();
                crate::merge_patch(&mut old, &json!({ "spec": { "frozen": "once" } }));
                old
            },
            &json!({ "spec": { "frozen": "twice" } }),
        ),
        patch(
            "required text changed",
            json!({ "requiredText": "another" }),
        ),
        patch("legal", json!({ "checked": "legal" })),
    ]
}

/// The typed object's serialization.
pub fn facts() -> Vec<(&'static str, String)> {
    vec![(
        "typed defaults",
        serde_json::to_string(&Knob::new("bar", KnobSpec::default())).unwrap_or_default(),
    )]
}
