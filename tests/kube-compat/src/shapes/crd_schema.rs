// The schema of nearly every kind of field, with nearly every key of
// `#[kube(...)]`: categories, short names, a version neither served nor
// stored and deprecated, selectable fields, annotations and labels on the
// CRD and on new objects, a root rule, a status, printer columns, scale with
// a label selector. Fields: defaults and `Option`s as in `crd_derive_schema`,
// an externally tagged enum with a rule, an untagged enum of two structs, a
// list with a `validate` bound, a set, a list merged as a set, optional unit
// enums. Further resources: a spec flattening a map of values, an
// int-or-string required and optional, a struct denying unknown fields.

use std::collections::{HashMap, HashSet};

use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::CustomResourceExt;
use kube::core::crd::merge_crds;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A gauge (its first version: neither served nor stored).
#[derive(CustomResource, Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
#[kube(
    group = "gauges.example.com",
    version = "v1",
    kind = "Gauge",
    category = "instruments",
    namespaced,
    doc = "A gauge on the wall",
    derive = "PartialEq",
    shortname = "ga",
    shortname = "g",
    served = false,
    storage = false,
    deprecated = "use gauges.example.com/v2",
    selectable = ".spec.requiredText",
    selectable = ".spec.optional",
    annotation("gauges.example.com", "v1"),
    annotation("gauges.example.com/tier", "gold"),
    label("gauges.example.com", "v1"),
    label("gauges.example.com/owner", "team-a"),
    validation = "self.metadata.name == 'singleton'",
    status = "GaugeStatus",
    printcolumn(json_path = ".spec.requiredText", name = "Text", type_ = "string"),
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas",
        label_selector_path = ".status.labelSelector"
    )
)]
#[schemars(extend("x-kubernetes-validations" = [{ "rule": "has(self.requiredText)" }]))]
#[serde(rename_all = "camelCase")]
pub struct GaugeSpec {
    required_text: String,

    #[serde(default = "default_text")]
    text_with_default: String,

    #[serde(skip_serializing_if = "Option::is_none")]
    skipped_optional: Option<String>,
    optional: Option<String>,

    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default = "default_optional")]
    skipped_optional_with_default: Option<String>,

    #[serde(default = "default_optional")]
    optional_with_default: Option<String>,

    /// The dial's position, one variant at a time.
    #[schemars(extend("x-kubernetes-validations" = [
        { "rule": "!has(self.knob) || self.knob.turns > 22" }
    ]))]
    dial: Dial,

    /// Whoever owns the gauge, told apart by their fields.
    owner: Owner,

    #[validate(length(min = 1))]
    tags: Vec<String>,

    set: HashSet<String>,

    #[serde(default = "GaugeSpec::default_flag")]
    associated_default: bool,

    #[schemars(extend("x-kubernetes-list-type" = "set"))]
    unique: Vec<String>,

    optional_role: Option<Role>,

    /// The role the gauge prefers.
    optional_role_with_doc: Option<Role>,
}

/// What the controller saw of a gauge.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GaugeStatus {
    replicas: usize,
    label_selector: String,
}

fn default_text() -> String {
    "default_value".into()
}

fn default_optional() -> Option<String> {
    Some("default_nullable".into())
}

impl GaugeSpec {
    fn default_flag() -> bool {
        true
    }
}

/// A dial, externally tagged.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Dial {
    /// Turned a number of times.
    Knob { turns: i32 },
    /// Slid to a label.
    Slider { label: String },
    /// Switched off.
    Off {},
}

/// An owner: one of two structs, untagged.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[serde(untagged)]
pub enum Owner {
    /// Known by age.
    Aged(AgedOwner),
    /// Known by birth date.
    Born(BornOwner),
}

/// An owner known by age.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgedOwner {
    /// The owner's role
    role: Role,
    /// The owner's age in years
    years: i32,
}

/// An owner known by birth date.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BornOwner {
    /// The owner's role
    role: Role,
    /// The owner's birth date, ISO 8601
    born_on: String,
}

/// A role.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
#[serde(rename_all = "PascalCase")]
pub enum Role {
    Admin,
    Member,
    /// Neither of the others.
    Guest,
}

/// The second version of the gauge, stored, for the CRD the program
/// submits.
pub mod v2 {
    use super::*;

    /// A gauge's second version.
    #[derive(CustomResource, Serialize, Deserialize, Debug, PartialEq, Clone, JsonSchema)]
    #[kube(
        group = "gauges.example.com",
        version = "v2",
        kind = "Gauge",
        category = "instruments",
        namespaced,
        shortname = "ga",
        shortname = "g"
    )]
    pub struct GaugeSpec {
        /// The text.
        pub text: String,
    }
}

/// A spec that keeps any other field as it comes.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
#[kube(
    group = "gauges.example.com",
    version = "v1",
    kind = "Spread",
    deprecated
)]
pub struct SpreadSpec {
    known: String,
    #[serde(flatten)]
    rest: HashMap<String, serde_json::Value>,
}

/// Int-or-string fields, required and optional.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
#[kube(group = "gauges.example.com", version = "v1", kind = "Numberish")]
pub struct NumberishSpec {
    /// Required.
    pub required_port: IntOrString,
    /// Optional.
    pub optional_port: Option<IntOrString>,
}

/// A spec whose part denies unknown fields.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, JsonSchema)]
#[kube(group = "gauges.example.com", version = "v1", kind = "Strict")]
pub struct StrictSpec {
    /// The strict part.
    pub part: StrictPart,
}

/// A struct that denies unknown fields.
#[derive(Deserialize, Serialize, Clone, Debug, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrictPart {
    /// A string.
    pub one: String,
    /// A flag.
    pub two: bool,
    /// A number.
    pub three: i32,
}

fn gauge(name: &str) -> Gauge {
    Gauge::new(
        name,
        GaugeSpec {
            required_text: "asdf".into(),
            text_with_default: "asdf".into(),
            skipped_optional: None,
            optional: None,
            skipped_optional_with_default: None,
            optional_with_default: None,
            dial: Dial::Knob { turns: 23 },
            owner: Owner::Aged(AgedOwner {
                years: 42,
                role: Role::Member,
            }),
            associated_default: false,
            tags: vec!["".into()],
            set: HashSet::from(["one".to_owned()]),
            unique: vec![],
            optional_role: Some(Role::Guest),
            optional_role_with_doc: Some(Role::Guest),
        },
    )
}

/// Each CRD, and the gauge's two versions merged with the second stored.
pub fn crds() -> crate::Crds {
    vec![
        ("gauges v1", Gauge::crd()),
        ("gauges v2", v2::Gauge::crd()),
        (
            "gauges",
            merge_crds(vec![Gauge::crd(), v2::Gauge::crd()], "v2").unwrap_or_default(),
        ),
        ("spreads", Spread::crd()),
        ("numberishes", Numberish::crd()),
        ("stricts", Strict::crd()),
    ]
}

/// Gauges that break and keep the root rule and the dial's rule, and an
/// object of each further resource.
pub fn examples() -> Vec<crate::Example> {
    use crate::Example;
    let mut low = gauge("singleton");
    low.spec.dial = Dial::Knob { turns: 3 };
    vec![
        Example::create("singleton", "gauges", "v1", &gauge("singleton")),
        Example::create("another name", "gauges", "v1", &gauge("bar")),
        Example::create("dial too low", "gauges", "v1", &low),
        Example::create("no tags", "gauges", "v1", &{
            let mut g = gauge("singleton");
            g.spec.tags.clear();
            g
        }),
        Example::create(
            "spread",
            "spreads",
            "v1",
            &json!({
                "apiVersion": "gauges.example.com/v1",
                "kind": "Spread",
                "metadata": { "name": "s" },
                "spec": { "known": "k", "other": { "deep": [1, 2] }, "more": "x" }
            }),
        ),
        Example::create(
            "numberish",
            "numberishes",
            "v1",
            &Numberish::new(
                "n",
                NumberishSpec {
                    required_port: IntOrString::Int(80),
                    optional_port: None,
                },
            ),
        ),
        Example::create(
            "strict with an extra field",
            "stricts",
            "v1",
            &json!({
                "apiVersion": "gauges.example.com/v1",
                "kind": "Strict",
                "metadata": { "name": "s" },
                "spec": { "part": { "one": "1", "two": true, "three": 3, "four": 4 } }
            }),
        ),
    ]
}

/// The names, the short names and a new gauge's serialization (with the
/// CRD's annotations and labels).
pub fn facts() -> Vec<(&'static str, String)> {
    vec![
        ("crd_name", Gauge::crd_name().to_string()),
        ("shortnames", format!("{:?}", Gauge::shortnames())),
        (
            "new",
            serde_json::to_string(&gauge("bar")).unwrap_or_default(),
        ),
    ]
}
