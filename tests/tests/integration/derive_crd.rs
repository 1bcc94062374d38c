//! `#[schema(crd(...))]`: the root type (its schema exactly as
//! controller-gen writes a Go root type's, its serde form), the CRD
//! (names, plurals, scope, subresources, printer columns, selectable
//! fields, version flags, description truncation), the checks `crd()`
//! runs, merging versions, the YAML files, and the k8s-openapi / kube
//! integration. Every CRD derived here must check clean.

#![allow(
    missing_docs,
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use schema_core::StructuralSchema;
use schema_core::crd::check::check;
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::CustomResourceDefinition;
use schema_core::model::wire::codec::Wire;
use schema_core::model::wire::input::{Input, read_input};
use schema_core::rust::{
    CrdError, CustomResource, MergeError, Scope, crd_file_name, crd_yaml, merge_crds,
    sync_crd_files, sync_doc_files,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

const API_VERSION_DESC: &str = "APIVersion defines the versioned schema of this representation of an object.\nServers should convert recognized schemas to the latest internal value, and\nmay reject unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DESC: &str = "Kind is a string value representing the REST resource this object represents.\nServers may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// Exact comparison, key order included.
#[track_caller]
fn assert_json(actual: Value, expected: Value) {
    let a = serde_json::to_string_pretty(&actual).unwrap();
    let e = serde_json::to_string_pretty(&expected).unwrap();
    assert!(a == e, "differs\n--- actual\n{a}\n--- expected\n{e}");
}

fn crd_of<T: CustomResource>() -> CustomResourceDefinition {
    match T::crd() {
        Ok(c) => c,
        Err(e) => panic!("{}::crd() failed:\n{e}", T::KIND),
    }
}

fn root_schema(crd: &CustomResourceDefinition) -> Value {
    crd.encode()["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone()
}

// ---------------------------------------------------------------------------
// A namespaced kind with status, scale, columns and a selectable field
// ---------------------------------------------------------------------------

/// WidgetSpec defines the desired state of a Widget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    namespaced,
    short_names = ["wd", "wdg"],
    categories = ["all", "toys"],
    status = WidgetStatus,
    doc = "Widget is the Schema for the widgets API.",
    scale(
        spec_replicas_path = ".spec.replicas",
        status_replicas_path = ".status.replicas",
        label_selector_path = ".status.selector"
    ),
    printer_column(name = "Replicas", type = "integer", json_path = ".spec.replicas"),
    printer_column(
        name = "Color",
        type = "string",
        json_path = ".spec.color",
        description = "The color",
        priority = 1
    ),
    printer_column(name = "Age", type = "date", json_path = ".metadata.creationTimestamp"),
    selectable_field = ".spec.color",
))]
pub struct WidgetSpec {
    /// How many.
    pub replicas: i32,
    /// The color.
    pub color: String,
}

/// WidgetStatus defines the observed state of a Widget.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct WidgetStatus {
    /// Observed replicas.
    #[serde(default)]
    pub replicas: i32,
    /// The label selector of the pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
}

#[test]
fn root_schema_is_controller_gen_shape() {
    assert_json(
        root_schema(&crd_of::<Widget>()),
        json!({
            "description": "Widget is the Schema for the widgets API.",
            "type": "object",
            "required": ["spec"],
            "properties": {
                "apiVersion": {"description": API_VERSION_DESC, "type": "string"},
                "kind": {"description": KIND_DESC, "type": "string"},
                "metadata": {"type": "object"},
                "spec": {
                    "description": "WidgetSpec defines the desired state of a Widget.",
                    "type": "object",
                    "required": ["color", "replicas"],
                    "properties": {
                        "replicas": {"description": "How many.", "type": "integer", "format": "int32"},
                        "color": {"description": "The color.", "type": "string"}
                    }
                },
                "status": {
                    "description": "WidgetStatus defines the observed state of a Widget.",
                    "type": "object",
                    "properties": {
                        "replicas": {"description": "Observed replicas.", "type": "integer", "format": "int32"},
                        "selector": {"description": "The label selector of the pods.", "type": "string"}
                    }
                }
            }
        }),
    );
}

/// The type-meta part of the root equals a real controller-gen CRD's.
#[test]
fn type_meta_matches_corpus() {
    let Some(dir) = tests::corpus_dir() else {
        return;
    };
    let ours = root_schema(&crd_of::<Widget>());
    for file in [
        "cert-manager/cert-manager.io_certificates.yaml",
        "cluster-api/cluster.x-k8s.io_machines.yaml",
        "gateway-api/gateway.networking.k8s.io_gateways.yaml",
    ] {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let docs = parse_documents(file, &bytes, &Limits::default()).unwrap();
        let crd = &docs[0].value;
        for v in crd["spec"]["versions"].as_array().unwrap() {
            let theirs = &v["schema"]["openAPIV3Schema"];
            for key in ["apiVersion", "kind", "metadata"] {
                assert_eq!(
                    theirs["properties"][key], ours["properties"][key],
                    "{file}: {key}"
                );
            }
            assert_eq!(theirs["type"], "object");
        }
    }
}

#[test]
fn the_whole_crd() {
    let crd = crd_of::<Widget>();
    let mut v = crd.encode();
    v["spec"]["versions"][0]["schema"] = json!("...");
    assert_json(
        v,
        json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"},
            "spec": {
                "group": "example.com",
                "names": {
                    "plural": "widgets",
                    "singular": "widget",
                    "shortNames": ["wd", "wdg"],
                    "kind": "Widget",
                    "listKind": "WidgetList",
                    "categories": ["all", "toys"]
                },
                "scope": "Namespaced",
                "versions": [{
                    "name": "v1",
                    "served": true,
                    "storage": true,
                    "schema": "...",
                    "subresources": {
                        "status": {},
                        "scale": {
                            "specReplicasPath": ".spec.replicas",
                            "statusReplicasPath": ".status.replicas",
                            "labelSelectorPath": ".status.selector"
                        }
                    },
                    "additionalPrinterColumns": [
                        {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"},
                        {"name": "Color", "type": "string", "description": "The color", "priority": 1, "jsonPath": ".spec.color"},
                        {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"}
                    ],
                    "selectableFields": [{"jsonPath": ".spec.color"}]
                }]
            }
        }),
    );
}

#[test]
fn constants() {
    assert_eq!(Widget::GROUP, "example.com");
    assert_eq!(Widget::VERSION, "v1");
    assert_eq!(Widget::KIND, "Widget");
    assert_eq!(Widget::API_VERSION, "example.com/v1");
    assert_eq!(Widget::PLURAL, "widgets");
    assert_eq!(Widget::SINGULAR, "widget");
    assert_eq!(Widget::LIST_KIND, "WidgetList");
    assert_eq!(Widget::SHORT_NAMES, ["wd", "wdg"]);
    assert_eq!(Widget::CATEGORIES, ["all", "toys"]);
    assert_eq!(Widget::SCOPE, Scope::Namespaced);
    assert_eq!(Widget::CRD_NAME, "widgets.example.com");
    assert_eq!(Gadget::SCOPE, Scope::Cluster);
}

// ---------------------------------------------------------------------------
// serde
// ---------------------------------------------------------------------------

#[test]
fn serde_round_trip() {
    let mut w = Widget::new(
        "w1",
        WidgetSpec {
            replicas: 2,
            color: "red".into(),
        },
    );
    w.metadata.namespace = Some("default".into());
    let v = serde_json::to_value(&w).unwrap();
    assert_json(
        v.clone(),
        json!({
            "apiVersion": "example.com/v1",
            "kind": "Widget",
            "metadata": {"name": "w1", "namespace": "default"},
            "spec": {"replicas": 2, "color": "red"}
        }),
    );
    let back: Widget = serde_json::from_value(v).unwrap();
    assert_eq!(back.spec, w.spec);
    assert_eq!(back.metadata, w.metadata);
    assert_eq!(back.status, None);

    w.status = Some(WidgetStatus {
        replicas: 1,
        selector: Some("app=w".into()),
    });
    let v = serde_json::to_value(&w).unwrap();
    assert_eq!(v["status"], json!({"replicas": 1, "selector": "app=w"}));
    let back: Widget = serde_json::from_value(v).unwrap();
    assert_eq!(back.status, w.status);

    // Type meta may be absent (the type says what it is).
    let back: Widget = serde_json::from_value(json!({
        "metadata": {"name": "x"},
        "spec": {"replicas": 1, "color": "blue"}
    }))
    .unwrap();
    assert_eq!(back.spec.color, "blue");
}

#[test]
fn serde_rejects_other_type_meta() {
    let err = serde_json::from_value::<Widget>(json!({
        "apiVersion": "example.com/v2",
        "kind": "Widget",
        "spec": {"replicas": 1, "color": "blue"}
    }))
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "invalid apiVersion \"example.com/v2\": expected \"example.com/v1\" for kind Widget"
    );
    let err = serde_json::from_value::<Widget>(json!({
        "apiVersion": "example.com/v1",
        "kind": "Gizmo",
        "spec": {"replicas": 1, "color": "blue"}
    }))
    .unwrap_err()
    .to_string();
    assert_eq!(err, "invalid kind \"Gizmo\": expected \"Widget\"");
    let err = serde_json::from_value::<Widget>(json!({"apiVersion": "example.com/v1"}))
        .unwrap_err()
        .to_string();
    assert_eq!(err, "missing field `spec`");
}

// ---------------------------------------------------------------------------
// Cluster scope, optional spec, no status, names
// ---------------------------------------------------------------------------

/// A gadget.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(
    group = "toys.example.com",
    version = "v1beta1",
    kind = "Gadget",
    spec_optional
))]
pub struct GadgetSpec {
    /// Its size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
}

#[test]
fn cluster_scope_optional_spec_no_status() {
    let crd = crd_of::<Gadget>();
    let v = crd.encode();
    assert_eq!(v["spec"]["scope"], "Cluster");
    assert_eq!(v["metadata"]["name"], "gadgets.toys.example.com");
    let version = &v["spec"]["versions"][0];
    assert_eq!(version.get("subresources"), None);
    assert_eq!(version.get("additionalPrinterColumns"), None);
    let root = &version["schema"]["openAPIV3Schema"];
    assert_eq!(
        root.get("required"),
        None,
        "spec_optional: spec not required"
    );
    assert_eq!(root.get("description"), None);
    assert_eq!(
        root["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["apiVersion", "kind", "metadata", "spec"]
    );
    assert_eq!(v["spec"]["names"].get("shortNames"), None);
    assert_eq!(v["spec"]["names"].get("categories"), None);

    let g = Gadget::new("g", GadgetSpec { size: Some(3) });
    assert_eq!(g.spec, Some(GadgetSpec { size: Some(3) }));
    let mut empty = g.clone();
    empty.spec = None;
    assert_json(
        serde_json::to_value(&empty).unwrap(),
        json!({"apiVersion": "toys.example.com/v1beta1", "kind": "Gadget", "metadata": {"name": "g"}}),
    );
    let back: Gadget = serde_json::from_value(json!({"kind": "Gadget"})).unwrap();
    assert_eq!(back.spec, None);
}

/// A policy.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "NetworkPolicy"))]
pub struct NetworkPolicySpec {
    pub a: String,
}

/// controller-gen's plural, `people`, which kube-derive's rule makes
/// `persons`: the derive warns (a deprecation), silenced here.
#[allow(deprecated)]
mod person {
    use super::*;

    /// A person.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[schema(crd(group = "example.com", version = "v1", kind = "Person"))]
    pub struct PersonSpec {
        pub a: String,
    }
}
use person::Person;

/// Given names, and the root type named apart from the kind.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Proxy",
    plural = "proxyz",
    singular = "prox",
    list_kind = "ProxyCollection",
    root = "ProxyResource"
))]
pub struct ProxySpec {
    pub a: String,
}

#[test]
fn names_and_plurals() {
    assert_eq!(NetworkPolicy::PLURAL, "networkpolicies");
    assert_eq!(Person::PLURAL, "people");
    assert_eq!(Person::SINGULAR, "person");
    assert_eq!(ProxyResource::KIND, "Proxy");
    assert_eq!(ProxyResource::PLURAL, "proxyz");
    assert_eq!(ProxyResource::SINGULAR, "prox");
    assert_eq!(ProxyResource::LIST_KIND, "ProxyCollection");
    let v = crd_of::<ProxyResource>().encode();
    assert_eq!(v["metadata"]["name"], "proxyz.example.com");
    assert_eq!(v["spec"]["names"]["listKind"], "ProxyCollection");
    let v = serde_json::to_value(ProxyResource::new("p", ProxySpec { a: "x".into() })).unwrap();
    assert_eq!(v["kind"], "Proxy");
}

// ---------------------------------------------------------------------------
// Version flags, status without subresource, description truncation
// ---------------------------------------------------------------------------

/// An old thing. This sentence makes the description long enough to cut.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1alpha1",
    kind = "Thing",
    status = ThingStatus,
    status_subresource = false,
    served = false,
    storage = false,
    deprecation_warning = "example.com/v1alpha1 Thing is deprecated; use v1",
    max_description_len = 50,
    doc = "Thing is the Schema for the things API"
))]
pub struct ThingSpec {
    /// This tests that long field descriptions are cut at a word boundary.
    pub a: String,
    /// Short. Then a second sentence that goes past the limit of fifty.
    pub b: String,
}

/// The status.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct ThingStatus {
    pub ok: bool,
}

#[test]
fn version_flags_and_truncation() {
    let version = Thing::crd_version().unwrap().encode();
    assert_eq!(version["served"], false);
    assert_eq!(version["storage"], false);
    assert_eq!(version["deprecated"], true);
    assert_eq!(
        version["deprecationWarning"],
        "example.com/v1alpha1 Thing is deprecated; use v1"
    );
    assert_eq!(version.get("subresources"), None);
    let root = &version["schema"]["openAPIV3Schema"];
    // controller-tools' testdata with maxDescLen=50.
    assert_eq!(
        root["properties"]["apiVersion"]["description"],
        "APIVersion defines the versioned schema of this..."
    );
    assert_eq!(
        root["properties"]["kind"]["description"],
        "Kind is a string value representing the REST..."
    );
    assert_eq!(
        root["description"],
        "Thing is the Schema for the things API"
    );
    let spec = &root["properties"]["spec"];
    assert_eq!(spec["description"], "An old thing.");
    assert_eq!(
        spec["properties"]["a"]["description"],
        "This tests that long field descriptions are cut..."
    );
    assert_eq!(spec["properties"]["b"]["description"], "Short.");
    assert_eq!(root["properties"]["status"]["description"], "The status.");
}

mod thing_v1 {
    use super::*;

    /// The current thing.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[schema(crd(group = "example.com", version = "v1", kind = "Thing", status = ThingStatus))]
    pub struct ThingSpec {
        pub a: String,
    }
}

/// Descriptions dropped entirely.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Quiet",
    max_description_len = 0,
    doc = "Quiet things."
))]
pub struct QuietSpec {
    /// Gone.
    pub a: String,
}

#[test]
fn max_description_len_zero_drops_descriptions() {
    let root = root_schema(&crd_of::<Quiet>());
    assert_json(
        root,
        json!({
            "type": "object",
            "required": ["spec"],
            "properties": {
                "apiVersion": {"type": "string"},
                "kind": {"type": "string"},
                "metadata": {"type": "object"},
                "spec": {
                    "type": "object",
                    "required": ["a"],
                    "properties": {"a": {"type": "string"}}
                }
            }
        }),
    );
}

// ---------------------------------------------------------------------------
// What crd() checks at run time
// ---------------------------------------------------------------------------

/// A column and a selectable field pointing nowhere.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Broken",
    status = BrokenStatus,
    printer_column(name = "Nope", type = "string", json_path = ".spec.nope"),
    printer_column(name = "Cond", type = "string", json_path = ".status.conditions[?(@.type==\"Ready\")].status"),
    selectable_field = ".spec.nested",
    scale(spec_replicas_path = ".spec.name", status_replicas_path = ".status.missing")
))]
pub struct BrokenSpec {
    pub name: String,
    pub nested: Nested,
}

#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Nested {
    pub x: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct BrokenStatus {
    pub conditions: Vec<String>,
}

/// Printer columns and scale paths naming no field of the schema (or a
/// field of another type) are accepted, as the API server accepts them; the
/// selectable field's type is the server's own check.
#[test]
fn crd_accepts_paths_not_in_the_schema() {
    let err = Broken::crd().unwrap_err();
    let CrdError::Invalid { name, errors } = &err else {
        panic!("{err}");
    };
    assert_eq!(name, "brokens.example.com");
    let msgs: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        msgs,
        [
            "spec.selectableFields[0].jsonPath: Invalid value: \".spec.nested\": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.",
        ]
    );
    assert!(
        err.to_string()
            .starts_with("CustomResourceDefinition.apiextensions.k8s.io \"brokens.example.com\" is invalid: spec.selectableFields[0].jsonPath"),
        "{err}"
    );
}

/// A schema error surfaces with the root type's field path.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "BadFormat"))]
pub struct BadFormatSpec {
    #[schema(format = "no-such-format")]
    pub x: String,
}

#[test]
fn schema_errors_name_the_root_path() {
    let err = BadFormat::crd().unwrap_err();
    let CrdError::Schema(errors) = &err else {
        panic!("{err}");
    };
    assert_eq!(errors.0.len(), 1);
    assert!(errors.0[0].path == "BadFormat.spec.x", "{err}");
    assert!(
        err.to_string()
            .starts_with("the schema cannot be built: BadFormat.spec.x: ")
    );
}

// ---------------------------------------------------------------------------
// Several versions of one kind
// ---------------------------------------------------------------------------

mod v1alpha1 {
    use super::*;

    /// The old shape.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[schema(crd(
        group = "example.com",
        version = "v1alpha1",
        kind = "Robot",
        namespaced,
        storage = false
    ))]
    pub struct RobotSpec {
        pub model: String,
    }
}

mod v1 {
    use super::*;

    /// The current shape.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[schema(crd(group = "example.com", version = "v1", kind = "Robot", namespaced))]
    pub struct RobotSpec {
        pub model: String,
        #[serde(default)]
        pub arms: u8,
    }
}

mod v2 {
    use super::*;

    /// Also claims storage.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[schema(crd(group = "example.com", version = "v2", kind = "Robot", namespaced))]
    pub struct RobotSpec {
        pub model: String,
    }

    /// Another group.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[schema(crd(
        group = "other.example.com",
        version = "v3",
        kind = "Robot",
        namespaced,
        root = "OtherRobot"
    ))]
    pub struct OtherRobotSpec {
        pub model: String,
    }

    /// Cluster-scoped.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[schema(crd(
        group = "example.com",
        version = "v3",
        kind = "Robot",
        root = "ClusterRobot"
    ))]
    pub struct ClusterRobotSpec {
        pub model: String,
    }
}

#[test]
fn merge_versions() {
    let merged = merge_crds(&[crd_of::<v1alpha1::Robot>(), crd_of::<v1::Robot>()]).unwrap();
    let v = merged.encode();
    assert_eq!(v["metadata"]["name"], "robots.example.com");
    let versions: Vec<(&str, bool)> = v["spec"]["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["name"].as_str().unwrap(), v["storage"].as_bool().unwrap()))
        .collect();
    assert_eq!(versions, [("v1alpha1", false), ("v1", true)]);
    assert!(
        check(
            &Input::CrdV1(Box::new(merged)),
            &schema_core::Options::default()
        )
        .errors
        .is_empty()
    );
}

#[test]
fn merge_errors() {
    let a = crd_of::<v1alpha1::Robot>();
    let b = crd_of::<v1::Robot>();
    assert_eq!(merge_crds(&[]), Err(MergeError::Empty));
    let e = merge_crds(&[b.clone(), crd_of::<v2::Robot>()]).unwrap_err();
    assert_eq!(
        e,
        MergeError::StorageVersions(vec!["v1".into(), "v2".into()])
    );
    assert_eq!(
        e.to_string(),
        "versions v1, v2 are all storage versions: exactly one must be (`storage = false` on the others)"
    );
    let e = merge_crds(std::slice::from_ref(&a)).unwrap_err();
    assert_eq!(e, MergeError::StorageVersions(vec![]));
    let e = merge_crds(&[b.clone(), a.clone(), b.clone()]).unwrap_err();
    assert_eq!(e, MergeError::DuplicateVersion("v1".into()));
    assert_eq!(e.to_string(), "version \"v1\" is defined more than once");
    let e = merge_crds(&[b.clone(), crd_of::<v2::OtherRobot>()]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "CRD 1 has spec.group \"other.example.com\", but the first has \"example.com\": the versions of one CRD share group, names and scope"
    );
    let e = merge_crds(&[b, crd_of::<v2::ClusterRobot>()]).unwrap_err();
    assert!(
        matches!(
            &e,
            MergeError::Mismatch {
                index: 1,
                field: "spec.scope",
                ..
            }
        ),
        "{e}"
    );
}

// ---------------------------------------------------------------------------
// YAML files
// ---------------------------------------------------------------------------

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("schema-gen-crds-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn read(p: &std::path::Path) -> std::io::Result<Option<String>> {
    match std::fs::read_to_string(p) {
        Ok(s) => Ok(Some(s)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

fn write(p: &std::path::Path, s: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(p.parent().unwrap())?;
    std::fs::write(p, s)
}

#[test]
fn yaml_files_written_and_checked() {
    let dir = temp_dir("sync");
    let crds = [crd_of::<Widget>(), crd_of::<Gadget>()];
    assert_eq!(crd_file_name(&crds[0]), "example.com_widgets.yaml");

    // Missing files are reported.
    let err = sync_crd_files(&dir, &crds, false, read, write).unwrap_err();
    assert_eq!(err.problems.len(), 2);
    assert!(
        err.to_string()
            .contains("example.com_widgets.yaml: missing"),
        "{err}"
    );
    assert!(
        err.to_string()
            .ends_with("run the test again with SCHEMA_GEN_UPDATE_CRDS=1 to write them")
    );

    // Written, then clean.
    let written = sync_crd_files(&dir, &crds, true, read, write).unwrap();
    assert_eq!(written.len(), 2);
    sync_crd_files(&dir, &crds, false, read, write).unwrap();
    // The macro (checks, unless SCHEMA_GEN_UPDATE_CRDS=1 is set).
    schema_core::sync_crds!(dir, crds).unwrap();

    // The file reads back as the same CRD, and checks clean.
    let text = std::fs::read_to_string(dir.join("example.com_widgets.yaml")).unwrap();
    assert!(text.starts_with("---\napiVersion: apiextensions.k8s.io/v1\n"));
    assert_eq!(text, crd_yaml(&crds[0]));
    let docs = parse_documents("w", text.as_bytes(), &Limits::default()).unwrap();
    assert_eq!(docs[0].value, crds[0].encode());

    // Drift is reported with a diff.
    let edited = text.replace("name: Replicas", "name: Copies");
    std::fs::write(dir.join("example.com_widgets.yaml"), edited).unwrap();
    let err = sync_crd_files(&dir, &crds, false, read, write).unwrap_err();
    let msg = format!("{err:?}");
    assert!(
        msg.contains("example.com_widgets.yaml: differs from the generated CRD"),
        "{msg}"
    );
    assert!(
        msg.contains("@@ line 80 @@\n-    - name: Copies\n+    - name: Replicas\n"),
        "{msg}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reference_docs_written_and_checked() {
    let dir = temp_dir("docs");
    let crds = [crd_of::<Widget>(), crd_of::<Gadget>()];
    let expected = schema_core::docs::markdown(&crds).unwrap();

    let err = sync_doc_files(&dir, &crds, false, read, write).unwrap_err();
    assert_eq!(err.problems.len(), expected.len());
    assert!(
        err.to_string().ends_with(
            "the reference document files are out of date: run the test again with SCHEMA_GEN_UPDATE_DOCS=1 to write them"
        ),
        "{err}"
    );

    // Written as `schema-gen docs --format markdown` writes them, then clean.
    let written = sync_doc_files(&dir, &crds, true, read, write).unwrap();
    assert_eq!(written.len(), expected.len());
    for (name, content) in &expected {
        assert_eq!(&std::fs::read_to_string(dir.join(name)).unwrap(), content);
    }
    assert!(
        expected
            .iter()
            .any(|(n, c)| n == "example.com.md" && c.contains("Widget"))
    );
    schema_core::sync_docs!(dir, crds).unwrap();

    // A change to the types shows as a diff of the documents.
    let page = dir.join("example.com.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, text.replacen("Widget", "Gizmo", 1)).unwrap();
    let msg = format!("{:?}", schema_core::sync_docs!(dir, crds).unwrap_err());
    assert!(
        msg.contains("example.com.md: differs from the generated reference document"),
        "{msg}"
    );
    assert!(msg.contains("+") && msg.contains("Widget"), "{msg}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------
// `object_root`: the struct is the whole object
// ---------------------------------------------------------------------------

/// The desired state of a Gizmo.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct GizmoSpec {
    /// Its size.
    #[schema(minimum = 1)]
    pub size: i32,
}

/// Gizmo is written whole: the root schema is this struct's own.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Gizmo",
    plural = "gizmoes",
    namespaced,
    object_root,
    explicit_names,
    scale(
        spec_replicas_path = ".spec.size",
        status_replicas_path = ".status.size"
    ),
    printer_column(name = "Size", type = "integer", json_path = ".spec.size"),
))]
pub struct Gizmo {
    /// The API version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// Not in the schema, still written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(skip)]
    pub kind: Option<String>,
    #[serde(default)]
    #[schema(type = "object")]
    pub metadata: schema_core::rust::ObjectMeta,
    pub spec: GizmoSpec,
    /// An operation besides the spec.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 10)]
    pub operation: Option<String>,
    /// The observed state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<GizmoStatus>,
}

/// The observed state of a Gizmo.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct GizmoStatus {
    /// Its size.
    pub size: i32,
}

#[test]
fn object_root_schema_is_the_struct() {
    let crd = crd_of::<Gizmo>();
    let v = crd.encode();
    assert_json(
        v["spec"]["names"].clone(),
        // flect's plural, as controller-gen's.
        json!({"plural": "gizmoes", "kind": "Gizmo"}),
    );
    assert_json(
        v["spec"]["versions"][0]["subresources"].clone(),
        json!({"status": {}, "scale": {"specReplicasPath": ".spec.size", "statusReplicasPath": ".status.size"}}),
    );
    assert_json(
        root_schema(&crd),
        json!({
            "description": "Gizmo is written whole: the root schema is this struct's own.",
            "type": "object",
            "required": ["spec"],
            "properties": {
                "apiVersion": {"description": "The API version.", "type": "string"},
                "metadata": {"type": "object"},
                "spec": {
                    "description": "The desired state of a Gizmo.",
                    "type": "object",
                    "required": ["size"],
                    "properties": {
                        "size": {"description": "Its size.", "type": "integer", "format": "int32", "minimum": 1}
                    }
                },
                "operation": {"description": "An operation besides the spec.", "type": "string", "maxLength": 10},
                "status": {
                    "description": "The observed state.",
                    "type": "object",
                    "required": ["size"],
                    "properties": {"size": {"description": "Its size.", "type": "integer", "format": "int32"}}
                }
            }
        }),
    );
    // The names keep their defaults as constants.
    assert_eq!(Gizmo::LIST_KIND, "GizmoList");
    assert_eq!(Gizmo::SINGULAR, "gizmo");
    assert_eq!(
        <Gizmo as k8s_openapi::Resource>::URL_PATH_SEGMENT,
        "gizmoes"
    );
    let _: fn(kube::Client) -> kube::Api<Gizmo> = |c| kube::Api::namespaced(c, "default");
    // Serde is the struct's own.
    let g: Gizmo = serde_json::from_value(json!({
        "apiVersion": "example.com/v1", "kind": "Gizmo", "metadata": {"name": "g"}, "spec": {"size": 2}
    }))
    .unwrap();
    assert_eq!(g.kind.as_deref(), Some("Gizmo"));
    assert_eq!(
        serde_json::to_value(&g).unwrap(),
        json!({"apiVersion": "example.com/v1", "kind": "Gizmo", "metadata": {"name": "g"}, "spec": {"size": 2}})
    );
}

/// Without a status field, the status subresource only when asked (as
/// Tekton's CRDs do).
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(
    group = "example.com",
    version = "v1",
    kind = "Bare",
    object_root,
    status_subresource
))]
pub struct Bare {
    #[schema(skip)]
    #[serde(default)]
    pub metadata: schema_core::rust::ObjectMeta,
    #[serde(default)]
    pub data: std::collections::BTreeMap<String, String>,
}

/// A root whose `metadata` field has a doc comment, as Go API types have.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(group = "example.com", version = "v1", kind = "Noted", object_root))]
pub struct Noted {
    /// Standard object's metadata.
    #[schema(type = "object")]
    #[serde(default)]
    pub metadata: schema_core::rust::ObjectMeta,
    /// The data.
    #[serde(default)]
    pub data: std::collections::BTreeMap<String, String>,
}

#[test]
fn object_root_metadata_doc_comment_is_not_a_description() {
    // controller-gen writes `metadata: {type: object}` whatever the Go
    // field's comment says; a description there fails the server's rule
    // for the root's metadata.
    let crd = crd_of::<Noted>();
    assert_json(
        root_schema(&crd)["properties"]["metadata"].clone(),
        json!({"type": "object"}),
    );
    assert_json(
        root_schema(&crd)["properties"]["data"]["description"].clone(),
        json!("The data."),
    );
}

#[test]
fn object_root_without_status() {
    let crd = crd_of::<Bare>();
    let v = crd.encode();
    assert_json(
        v["spec"]["names"].clone(),
        json!({"plural": "bares", "singular": "bare", "kind": "Bare", "listKind": "BareList"}),
    );
    assert_json(
        v["spec"]["versions"][0]["subresources"].clone(),
        json!({"status": {}}),
    );
    assert_json(
        root_schema(&crd),
        json!({
            "description": "Without a status field, the status subresource only when asked (as\nTekton's CRDs do).",
            "type": "object",
            "properties": {
                "data": {"type": "object", "additionalProperties": {"type": "string"}}
            }
        }),
    );
}

// ---------------------------------------------------------------------------
// Every CRD derived here checks clean, as `schema-gen check` checks
// ---------------------------------------------------------------------------

#[test]
fn every_crd_checks_clean() {
    let crds = [
        crd_of::<Widget>(),
        crd_of::<Gadget>(),
        crd_of::<NetworkPolicy>(),
        crd_of::<Person>(),
        crd_of::<ProxyResource>(),
        // Versions with `storage = false` are installed with their storage
        // version.
        merge_crds(&[crd_of::<Thing>(), crd_of::<thing_v1::Thing>()]).unwrap(),
        crd_of::<Quiet>(),
        merge_crds(&[crd_of::<v1alpha1::Robot>(), crd_of::<v1::Robot>()]).unwrap(),
        crd_of::<v1::Robot>(),
        crd_of::<v2::Robot>(),
        crd_of::<v2::OtherRobot>(),
        crd_of::<v2::ClusterRobot>(),
        crd_of::<KubeThing>(),
        crd_of::<Gizmo>(),
        crd_of::<Bare>(),
    ];
    for crd in crds {
        // Through the YAML, as `schema-gen check` reads a file.
        let yaml = crd_yaml(&crd);
        let docs = parse_documents("crd.yaml", yaml.as_bytes(), &Limits::default()).unwrap();
        let (input, warnings) = read_input(&docs[0].value).unwrap();
        assert!(warnings.is_empty(), "{:?}", warnings);
        let report = check(&input, &schema_core::Options::default());
        assert!(
            report.errors.is_empty() && report.warnings.is_empty(),
            "{}: {:?} {:?}",
            crd.name().unwrap(),
            report.errors,
            report.warnings
        );
    }
}

// ---------------------------------------------------------------------------
// k8s-openapi and kube
// ---------------------------------------------------------------------------

/// A kind used through kube.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[schema(crd(group = "kube.example.com", version = "v1", kind = "KubeThing", status = ThingStatus))]
pub struct KubeThingSpec {
    pub a: String,
}

/// `kube::Api<Foo>` type-checks (never called: there is no cluster).
fn kube_api_type_checks(client: kube::Client) {
    let _widgets: kube::Api<Widget> = kube::Api::namespaced(client.clone(), "default");
    let _all_widgets: kube::Api<Widget> = kube::Api::all(client.clone());
    let _things: kube::Api<KubeThing> = kube::Api::all(client);
}

#[test]
fn k8s_openapi_and_kube_traits() {
    assert_eq!(
        <Widget as k8s_openapi::Resource>::API_VERSION,
        "example.com/v1"
    );
    assert_eq!(
        <Widget as k8s_openapi::Resource>::URL_PATH_SEGMENT,
        "widgets"
    );
    assert_eq!(
        <Widget as k8s_openapi::ListableResource>::LIST_KIND,
        "WidgetList"
    );
    assert_eq!(<Widget as kube::Resource>::kind(&()), "Widget");
    assert_eq!(<KubeThing as kube::Resource>::plural(&()), "kubethings");

    let w = Widget::new(
        "w",
        WidgetSpec {
            replicas: 1,
            color: "c".into(),
        },
    );
    let meta: &k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta = &w.metadata;
    assert_eq!(meta.name.as_deref(), Some("w"));
    assert_eq!(kube::ResourceExt::name_any(&w), "w");

    let crd = crd_of::<Widget>();
    let k8s = schema_core::rust::to_k8s_crd(&crd).unwrap();
    assert_eq!(k8s.metadata.name.as_deref(), Some("widgets.example.com"));
    assert_eq!(k8s.spec.versions[0].name, "v1");
    assert_eq!(serde_json::to_value(&k8s).unwrap(), crd.encode());
    // The CRD itself serializes, as kube-derive's users write it.
    assert_eq!(serde_json::to_value(&crd).unwrap(), crd.encode());
    let text = serde_json::to_string(&Widget::crd().unwrap()).unwrap();
    assert!(
        text.starts_with("{\"apiVersion\":\"apiextensions.k8s.io/v1\""),
        "{text}"
    );
}

/// kube-rs code written against kube-derive's `CustomResourceExt`
/// compiles unchanged with the `kube` feature.
mod kube_custom_resource_ext {
    use super::{Bare, Widget};
    use kube::CustomResourceExt;

    #[test]
    fn crd_name_shortnames_api_resource_and_crd() {
        assert_eq!(Widget::crd_name(), "widgets.example.com");
        assert_eq!(Widget::shortnames(), ["wd", "wdg"]);
        let ar = Widget::api_resource();
        assert_eq!(
            (
                ar.group.as_str(),
                ar.version.as_str(),
                ar.api_version.as_str(),
                ar.kind.as_str(),
                ar.plural.as_str()
            ),
            ("example.com", "v1", "example.com/v1", "Widget", "widgets")
        );
        let crd = Widget::crd();
        assert_eq!(crd.metadata.name.as_deref(), Some("widgets.example.com"));
        assert_eq!(
            crd.spec.names.short_names,
            Some(vec!["wd".into(), "wdg".into()])
        );
        // As kube users print it.
        let yaml = serde_json::to_string(&Widget::crd()).unwrap();
        assert!(yaml.contains("\"plural\":\"widgets\""), "{yaml}");
        // object_root structs too.
        assert_eq!(Bare::crd_name(), "bares.example.com");
        assert!(Bare::shortnames().is_empty());
    }
}

mod crd_settings {
    use super::*;

    /// Version 1, with the CRD-wide settings.
    #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
    #[schema(crd(
        group = "settings.example.com",
        version = "v1",
        kind = "Dial",
        labels = {"app.kubernetes.io/part-of": "dials"},
        preserve_unknown_fields = false,
        conversion = {
            "strategy": "Webhook",
            "webhook": {
                "clientConfig": {"service": {"name": "dials", "namespace": "system", "path": "/convert"}},
                "conversionReviewVersions": ["v1"],
            },
        },
    ))]
    pub struct DialSpec {
        pub level: i32,
    }

    /// Version 2 says nothing about them.
    pub mod v2 {
        use super::*;

        #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
        #[schema(crd(
            group = "settings.example.com",
            version = "v2",
            kind = "Dial",
            storage = false
        ))]
        pub struct DialSpec {
            pub level: i64,
        }
    }

    /// Version 3 disagrees on the labels.
    pub mod v3 {
        use super::*;

        #[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
        #[schema(crd(
            group = "settings.example.com",
            version = "v3",
            kind = "Dial",
            storage = false,
            labels = {"app.kubernetes.io/part-of": "knobs"},
        ))]
        pub struct DialSpec {
            pub level: i64,
        }
    }

    #[test]
    fn labels_conversion_and_preserve_unknown_fields_are_in_the_crd() {
        let crd = crd_of::<Dial>().encode();
        assert_json(
            crd["metadata"].clone(),
            json!({
                "name": "dials.settings.example.com",
                "labels": {"app.kubernetes.io/part-of": "dials"},
            }),
        );
        assert_eq!(crd["spec"]["preserveUnknownFields"], json!(false));
        // Key order aside (the wire model writes Go's field order).
        assert_eq!(
            crd["spec"]["conversion"],
            json!({
                "strategy": "Webhook",
                "webhook": {
                    "clientConfig": {"service": {"name": "dials", "namespace": "system", "path": "/convert"}},
                    "conversionReviewVersions": ["v1"],
                },
            }),
        );
    }

    #[test]
    fn merged_versions_keep_the_settings_one_of_them_sets() {
        let crds = [crd_of::<v2::Dial>(), crd_of::<Dial>()];
        let merged = merge_crds(&crds).unwrap().encode();
        assert_eq!(
            merged["metadata"]["labels"]["app.kubernetes.io/part-of"],
            "dials"
        );
        assert_eq!(merged["spec"]["conversion"]["strategy"], "Webhook");
        assert_eq!(merged["spec"]["preserveUnknownFields"], json!(false));
        let crds = [crd_of::<Dial>(), crd_of::<v3::Dial>()];
        let err = merge_crds(&crds).unwrap_err().to_string();
        assert!(err.contains("metadata.labels"), "{err}");
    }
}
