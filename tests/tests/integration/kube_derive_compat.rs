//! `schema_core::kube::CustomResource`, the drop-in for kube-derive: every
//! key of `#[kube(...)]` (split over several attributes, as kube-derive
//! merges them), the CRD it gives, and the root type kube-derive
//! generates (`new`, the derives asked for, kube's `Resource`, `HasSpec`,
//! `HasStatus` and `CustomResourceExt`, `kube::Api`), `validate_cel`.

#![allow(
    missing_docs,
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use kube::CustomResourceExt;
use kube::core::object::{HasSpec, HasStatus};
use kube::core::{Reason, Rule};
use schema_core::StructuralSchema;
use schema_core::kube::CustomResource;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The spec of a Foo.
#[derive(
    CustomResource, StructuralSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq,
)]
#[kube(group = "clux.dev", version = "v1", kind = "Foo", namespaced)]
#[kube(status = "FooStatus", derive = "PartialEq", derive = "Default")]
#[kube(shortname = "f", shortname = "fo", category = "clux", category = "all")]
#[kube(
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas"
    ),
    printcolumn = r#"{"name":"Team", "jsonPath": ".spec.metadata.team", "type": "string"}"#,
    printcolumn(
        name = "Replicas",
        type_ = "integer",
        json_path = ".spec.replicas",
        priority = 1
    ),
    selectable = ".spec.name",
    annotation("clux.dev/owner", "team-a"),
    label("clux.dev/persistence", "disabled"),
    validation = "self.metadata.name != 'forbidden'",
    validation = Rule::new("self.spec.replicas <= 10")
        .message("at most 10 replicas")
        .reason(Reason::FieldValueInvalid),
    attr = "allow(clippy::derive_partial_eq_without_eq)",
    doc = "A Foo, as kube-derive's documentation has it.",
    deprecated = "clux.dev/v1 Foo is deprecated",
    crates(kube_core = "::kube::core"),
    cel
)]
pub struct FooSpec {
    pub name: String,
    pub replicas: i32,
}

#[derive(StructuralSchema, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct FooStatus {
    pub replicas: i32,
}

/// kube-derive's defaults: the plural by its rule, storage and served.
#[derive(CustomResource, StructuralSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "clux.dev", version = "v1", kind = "Redis")]
pub struct RedisSpec {
    pub size: i32,
}

#[derive(CustomResource, StructuralSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "clux.dev",
    version = "v2",
    kind = "Person",
    singular = "human",
    storage = false,
    served = false,
    deprecated,
    root = "PersonResource"
)]
pub struct PersonSpec {
    pub name: String,
}

/// `schema = "disabled"`: the spec needs no schema, the CRD has none.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "clux.dev", version = "v1", kind = "Bare", schema = "disabled")]
pub struct BareSpec {
    pub anything: String,
}

/// `schema = "manual"`: the same, for the user to set the schema.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "clux.dev", version = "v1", kind = "Hand", schema = "manual")]
pub struct HandSpec {
    pub anything: String,
}

fn crd_json<T: CustomResourceExt>() -> Value {
    serde_json::to_value(T::crd()).unwrap()
}

#[test]
fn every_key_reaches_the_crd() {
    let crd = crd_json::<Foo>();
    assert_eq!(crd["metadata"]["name"], "foos.clux.dev");
    assert_eq!(
        crd["metadata"]["annotations"],
        json!({"clux.dev/owner": "team-a"})
    );
    assert_eq!(
        crd["metadata"]["labels"],
        json!({"clux.dev/persistence": "disabled"})
    );
    assert_eq!(
        crd["spec"]["names"],
        json!({
            "categories": ["clux", "all"],
            "kind": "Foo",
            "plural": "foos",
            "shortNames": ["f", "fo"],
            "singular": "foo"
        })
    );
    assert_eq!(crd["spec"]["scope"], "Namespaced");
    let v = &crd["spec"]["versions"][0];
    assert_eq!(v["name"], "v1");
    assert_eq!(v["served"], true);
    assert_eq!(v["storage"], true);
    assert_eq!(v["deprecated"], true);
    assert_eq!(v["deprecationWarning"], "clux.dev/v1 Foo is deprecated");
    assert_eq!(
        v["additionalPrinterColumns"],
        json!([
            {"jsonPath": ".spec.metadata.team", "name": "Team", "type": "string"},
            {"jsonPath": ".spec.replicas", "name": "Replicas", "priority": 1, "type": "integer"}
        ])
    );
    assert_eq!(v["selectableFields"], json!([{"jsonPath": ".spec.name"}]));
    assert_eq!(
        v["subresources"],
        json!({
            "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"},
            "status": {}
        })
    );
    let root = &v["schema"]["openAPIV3Schema"];
    assert_eq!(
        root["description"],
        "A Foo, as kube-derive's documentation has it."
    );
    assert_eq!(
        root["x-kubernetes-validations"],
        json!([
            {"rule": "self.metadata.name != 'forbidden'"},
            {"message": "at most 10 replicas", "reason": "FieldValueInvalid", "rule": "self.spec.replicas <= 10"}
        ])
    );
    assert_eq!(
        root["properties"]["spec"]["required"],
        json!(["name", "replicas"])
    );
    assert_eq!(Foo::crd_name(), "foos.clux.dev");
    assert_eq!(Foo::shortnames(), ["f", "fo"]);
    assert_eq!(Foo::api_resource().plural, "foos");
}

#[test]
fn kube_defaults_differ_from_controller_gen_where_kube_derive_does() {
    let crd = crd_json::<Redis>();
    assert_eq!(crd["metadata"]["name"], "redises.clux.dev");
    assert_eq!(
        crd["spec"]["names"],
        json!({"kind": "Redis", "plural": "redises", "singular": "redis"})
    );
    assert_eq!(crd["spec"]["scope"], "Cluster");
    let v = &crd["spec"]["versions"][0];
    assert_eq!((&v["served"], &v["storage"]), (&json!(true), &json!(true)));
    assert!(v.get("subresources").is_none());

    // The plural of the singular, as kube-derive's.
    let crd = crd_json::<PersonResource>();
    assert_eq!(crd["spec"]["names"]["plural"], "humans");
    assert_eq!(crd["spec"]["names"]["singular"], "human");
    let v = &crd["spec"]["versions"][0];
    assert_eq!(
        (&v["served"], &v["storage"]),
        (&json!(false), &json!(false))
    );
    assert_eq!(v["deprecated"], true);
    assert!(v.get("deprecationWarning").is_none());
}

#[test]
fn schema_disabled_gives_a_crd_without_schema() {
    for crd in [crd_json::<Bare>(), crd_json::<Hand>()] {
        assert_eq!(crd["spec"]["versions"][0]["schema"], json!({}));
    }
}

#[test]
fn the_root_is_kube_derives() {
    let mut foo = Foo::new(
        "one",
        FooSpec {
            name: "a".into(),
            replicas: 2,
        },
    );
    assert_eq!(foo.spec().replicas, 2);
    foo.spec_mut().replicas = 3;
    assert_eq!(foo.status(), None);
    *foo.status_mut() = Some(FooStatus { replicas: 3 });
    assert_eq!(foo.status().map(|s| s.replicas), Some(3));
    // `derive = "PartialEq"`, `derive = "Default"`.
    assert_ne!(foo, Foo::default());
    assert_eq!(Foo::default().spec, FooSpec::default());
    // kube's `Resource`.
    assert_eq!(<Foo as kube::Resource>::plural(&()), "foos");
    assert_eq!(<Foo as kube::Resource>::api_version(&()), "clux.dev/v1");
    assert_eq!(kube::ResourceExt::name_any(&foo), "one");
    assert_eq!(
        serde_json::to_value(&foo).unwrap(),
        json!({
            "apiVersion": "clux.dev/v1",
            "kind": "Foo",
            "metadata": {
                "annotations": {"clux.dev/owner": "team-a"},
                "labels": {"clux.dev/persistence": "disabled"},
                "name": "one"
            },
            "spec": {"name": "a", "replicas": 3},
            "status": {"replicas": 3}
        })
    );
    // `CustomResourceExt` by name, beside the derive: no ambiguity.
    assert_eq!(
        <Foo as CustomResourceExt>::crd().spec.names.kind,
        Foo::crd().spec.names.kind
    );
}

/// `kube::Api` takes the root type.
fn api(client: kube::Client) -> (kube::Api<Foo>, kube::Api<Redis>) {
    (
        kube::Api::namespaced(client.clone(), "default"),
        kube::Api::all(client),
    )
}

#[test]
fn validate_cel_runs_the_root_rules() {
    let ok = Foo::new(
        "fine",
        FooSpec {
            name: "a".into(),
            replicas: 1,
        },
    );
    ok.validate_cel().unwrap();
    let forbidden = Foo::new(
        "forbidden",
        FooSpec {
            name: "a".into(),
            replicas: 11,
        },
    );
    let err = forbidden.validate_cel().unwrap_err().to_string();
    assert!(
        err.contains("failed rule: self.metadata.name != 'forbidden'"),
        "{err}"
    );
    assert!(err.contains("at most 10 replicas"), "{err}");
    forbidden.validate_cel_update(&ok).unwrap_err();
}
