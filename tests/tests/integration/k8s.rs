//! `StructuralSchema` for the k8s-openapi types (schema-core's
//! `k8s-openapi` feature): the schema of each type, descriptions left out,
//! equals what controller-gen emitted for the same Go type in a corpus CRD
//! (compared as JSON values, key order ignored), and a derived type
//! embedding them is a valid CRD schema.
//!
//! The corpus CRDs used here were generated against the Kubernetes 1.35
//! API (they have `PodSpec.workloadRef`, which only 1.35 has), and this
//! crate selects k8s-openapi's `v1_35`, so the property sets agree exactly:
//! no property is left out of the comparison. (Under another version the
//! embedded types follow that version: 1.36 replaces `workloadRef` with
//! `schedulingGroup`, 1.34 has neither.)

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::DeploymentSpec;
use k8s_openapi::api::batch::v1::JobSpec;
use k8s_openapi::api::core::v1::{
    Affinity, Container, LocalObjectReference, ObjectReference, PersistentVolumeClaim,
    PersistentVolumeClaimSpec, PersistentVolumeClaimStatus, PodSecurityContext, PodTemplateSpec,
    ResourceRequirements, SecretKeySelector, Toleration, Volume, VolumeMount,
};
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, LabelSelector, MicroTime, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use schema_core::StructuralSchema;
use schema_core::crd::check::check;
use schema_core::crd::validation::structural::{StructuralOptions, validate_structural};
use schema_core::model::field::Path;
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::structural::Structural;
use schema_core::model::wire::JsonSchemaProps;
use schema_core::model::wire::input::Input;
use schema_core::rust::{SchemaCx, schema_for};
use serde_json::{Value, json};

/// The schema of `T` as JSON.
fn schema<T: StructuralSchema + ?Sized>() -> Value {
    match schema_for::<T>() {
        Ok(s) => s.to_value(),
        Err(e) => panic!("schema_for::<{}>() failed:\n{e}", T::schema_name()),
    }
}

/// The schema, without descriptions (at schema positions only: a property
/// named `description` stays).
fn strip_descriptions(v: &mut Value) {
    let Value::Object(m) = v else { return };
    m.remove("description");
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        props.values_mut().for_each(strip_descriptions);
    }
    for k in ["items", "additionalProperties", "not"] {
        if let Some(s) = m.get_mut(k) {
            strip_descriptions(s);
        }
    }
    for k in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(all)) = m.get_mut(k) {
            all.iter_mut().for_each(strip_descriptions);
        }
    }
}

/// The paths at which `a` and `b` differ, with both values.
fn diff(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let p = format!("{path}/{k}");
                match (x.get(k), y.get(k)) {
                    (Some(a), Some(b)) => diff(&p, a, b, out),
                    (a, b) => out.push(format!("{p}: derived {a:?}, controller-gen {b:?}")),
                }
            }
        }
        _ if a == b => {}
        _ => out.push(format!("{path}: derived {a}, controller-gen {b}")),
    }
}

/// Edits a project made to controller-gen's output, undone before the
/// comparison: crossplane adds `required: [name]` to the items of
/// `imagePullSecrets` with a JSON patch (`cluster/crd-patches/` in its
/// repository, citing controller-tools#444); controller-gen itself emits
/// none there, as the other corpus CRDs show.
const POST_PROCESSED: &[(&str, &str)] = &[(
    CROSSPLANE,
    "/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/deploymentTemplate\
     /properties/spec/properties/template/properties/spec/properties/imagePullSecrets/items\
     /required",
)];

/// The corpus CRD schemas, parsed once per file.
struct Corpus {
    dir: std::path::PathBuf,
    files: BTreeMap<String, Value>,
}

impl Corpus {
    fn new() -> Option<Self> {
        Some(Self {
            dir: tests::corpus_dir()?,
            files: BTreeMap::new(),
        })
    }

    /// The schema at `path` (property names, `[]` items, `{}` map values) of the first
    /// version of the CRD in `file`, descriptions stripped.
    fn at(&mut self, file: &str, path: &str) -> Value {
        let root = self.files.entry(file.to_string()).or_insert_with(|| {
            let bytes = std::fs::read(self.dir.join(file)).expect("read corpus file");
            let docs = parse_documents(file, &bytes, &Limits::default()).expect("parse");
            let mut doc = docs.into_iter().next().expect("a document").value;
            for (f, pointer) in POST_PROCESSED {
                if *f == file {
                    let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
                    let removed = doc
                        .pointer_mut(parent)
                        .and_then(Value::as_object_mut)
                        .and_then(|m| m.remove(key));
                    assert!(removed.is_some(), "{file}: nothing at {pointer}");
                }
            }
            doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone()
        });
        let mut s = &*root;
        for seg in path.split('.') {
            s = match seg {
                "[]" => &s["items"],
                "{}" => &s["additionalProperties"],
                _ => &s["properties"][seg],
            };
        }
        assert!(!s.is_null(), "{file}: nothing at {path}");
        let mut s = s.clone();
        strip_descriptions(&mut s);
        s
    }
}

/// The CRDs generated without controller-gen's `generateEmbeddedObjectMeta`
/// option: their embedded `ObjectMeta`s are a bare `type: object` (which
/// prunes every field of the metadata of, say, a volume claim template),
/// the derive's default too. The other corpus CRDs were generated with the
/// option, so their types are derived with it
/// (`crd(generate_embedded_object_meta)`).
const WITHOUT_EMBEDDED_OBJECT_META: &[&str] = &[PROMETHEUS, ALERTMANAGER];

/// The schema of `T` with embedded `ObjectMeta`s expanded.
fn schema_expanded<T: StructuralSchema + ?Sized>() -> Value {
    match schema_core::rust::schema_for_embedded_object_meta::<T>() {
        Ok(s) => s.to_value(),
        Err(e) => panic!(
            "schema_for_embedded_object_meta::<{}>() failed:\n{e}",
            T::schema_name()
        ),
    }
}

/// `T`'s schema equals controller-gen's at each position.
#[track_caller]
fn assert_matches<T: StructuralSchema>(corpus: &mut Corpus, positions: &[(&str, &str)]) {
    for (file, path) in positions {
        let expected = corpus.at(file, path);
        let mut derived = if WITHOUT_EMBEDDED_OBJECT_META.contains(file) {
            schema::<T>()
        } else {
            schema_expanded::<T>()
        };
        strip_descriptions(&mut derived);
        let mut out = Vec::new();
        diff("", &derived, &expected, &mut out);
        assert!(
            out.is_empty(),
            "{}: differs from {file} at {path}:\n{}",
            T::schema_name(),
            out.join("\n")
        );
    }
}

const PROMETHEUS: &str = "prometheus-operator/monitoring.coreos.com_prometheuses.yaml";
const ALERTMANAGER: &str = "prometheus-operator/monitoring.coreos.com_alertmanagers.yaml";
const KEDA_JOBS: &str = "keda/keda.sh_scaledjobs.yaml";
const CROSSPLANE: &str = "crossplane/pkg.crossplane.io_deploymentruntimeconfigs.yaml";
const FLUX: &str = "flux/kustomize.toolkit.fluxcd.io_kustomizations.yaml";
const CAPI_MACHINES: &str = "cluster-api/cluster.x-k8s.io_machines.yaml";
const ARGO_WORKFLOWS: &str = "argo-workflows/full-argoproj.io_workflows.yaml";

#[test]
fn embedded_types_match_controller_gen() {
    let Some(mut c) = Corpus::new() else { return };
    let c = &mut c;
    let pod = "spec.jobTargetRef.template";
    let container = "spec.jobTargetRef.template.spec.containers.[]";
    assert_matches::<PodTemplateSpec>(
        c,
        &[
            (KEDA_JOBS, pod),
            (CROSSPLANE, "spec.deploymentTemplate.spec.template"),
        ],
    );
    assert_matches::<JobSpec>(c, &[(KEDA_JOBS, "spec.jobTargetRef")]);
    assert_matches::<DeploymentSpec>(c, &[(CROSSPLANE, "spec.deploymentTemplate.spec")]);
    assert_matches::<Container>(
        c,
        &[
            (PROMETHEUS, "spec.containers.[]"),
            (PROMETHEUS, "spec.initContainers.[]"),
            (ALERTMANAGER, "spec.containers.[]"),
            (KEDA_JOBS, container),
        ],
    );
    assert_matches::<ResourceRequirements>(
        c,
        &[
            (PROMETHEUS, "spec.resources"),
            (KEDA_JOBS, &format!("{container}.resources")),
        ],
    );
    assert_matches::<Affinity>(
        c,
        &[
            (PROMETHEUS, "spec.affinity"),
            (KEDA_JOBS, &format!("{pod}.spec.affinity")),
        ],
    );
    assert_matches::<Toleration>(
        c,
        &[
            (PROMETHEUS, "spec.tolerations.[]"),
            (KEDA_JOBS, &format!("{pod}.spec.tolerations.[]")),
        ],
    );
    assert_matches::<Volume>(
        c,
        &[
            (PROMETHEUS, "spec.volumes.[]"),
            (KEDA_JOBS, &format!("{pod}.spec.volumes.[]")),
        ],
    );
    assert_matches::<VolumeMount>(c, &[(PROMETHEUS, "spec.volumeMounts.[]")]);
    assert_matches::<PodSecurityContext>(c, &[(PROMETHEUS, "spec.securityContext")]);
    assert_matches::<LabelSelector>(
        c,
        &[
            (PROMETHEUS, "spec.serviceMonitorSelector"),
            (CROSSPLANE, "spec.deploymentTemplate.spec.selector"),
        ],
    );
    assert_matches::<Condition>(c, &[(FLUX, "status.conditions.[]")]);
    assert_matches::<ObjectReference>(c, &[(CAPI_MACHINES, "spec.infrastructureRef")]);
    assert_matches::<LocalObjectReference>(c, &[(PROMETHEUS, "spec.imagePullSecrets.[]")]);
    assert_matches::<SecretKeySelector>(
        c,
        &[
            (PROMETHEUS, "spec.additionalScrapeConfigs"),
            (
                KEDA_JOBS,
                &format!("{container}.env.[].valueFrom.secretKeyRef"),
            ),
        ],
    );
    // argo-workflows' CRD is controller-gen's output post-processed
    // (required lists dropped, `generateName` added to embedded metadata):
    // compared where it is not.
    assert_matches::<PersistentVolumeClaimSpec>(
        c,
        &[
            (ARGO_WORKFLOWS, "spec.volumeClaimTemplates.[].spec"),
            (
                KEDA_JOBS,
                &format!("{pod}.spec.volumes.[].ephemeral.volumeClaimTemplate.spec"),
            ),
        ],
    );
    assert_matches::<PersistentVolumeClaimStatus>(
        c,
        &[(ARGO_WORKFLOWS, "spec.volumeClaimTemplates.[].status")],
    );
    assert_matches::<Quantity>(c, &[(PROMETHEUS, "spec.resources.limits.{}")]);
    assert_matches::<IntOrString>(
        c,
        &[(
            KEDA_JOBS,
            &format!("{container}.livenessProbe.httpGet.port"),
        )],
    );
    assert_matches::<Time>(c, &[(FLUX, "status.conditions.[].lastTransitionTime")]);
}

#[test]
fn known_types() {
    let mut q = schema::<Quantity>();
    strip_descriptions(&mut q);
    assert_eq!(
        q,
        json!({
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "pattern": schema_core::rust::k8s::QUANTITY_PATTERN,
            "x-kubernetes-int-or-string": true,
        })
    );
    assert_eq!(
        schema::<IntOrString>(),
        json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true})
    );
    for t in [schema::<Time>(), schema::<MicroTime>()] {
        assert_eq!(t, json!({"type": "string", "format": "date-time"}));
    }
    assert_eq!(
        schema::<k8s_openapi::apimachinery::pkg::runtime::RawExtension>(),
        json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
    );
    assert_eq!(
        schema::<k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSON>(),
        json!({"x-kubernetes-preserve-unknown-fields": true})
    );
    // An embedded ObjectMeta: a bare object by default, as controller-gen
    // writes it; with generateEmbeddedObjectMeta, the fields a template
    // may set.
    assert_eq!(
        schema::<k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta>(),
        json!({"type": "object"})
    );
    let mut meta = schema_expanded::<k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta>();
    strip_descriptions(&mut meta);
    assert_eq!(
        meta,
        json!({
            "type": "object",
            "properties": {
                "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
                "finalizers": {"type": "array", "items": {"type": "string"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "name": {"type": "string"},
                "namespace": {"type": "string"},
            },
        })
    );
}

/// The marker table covers every type k8s-openapi has, not only those the
/// corpus CRDs embed: autoscaling/v2's `HPAScalingRules.policies` is
/// `+listType=atomic`, in the type and wherever it is used.
#[test]
fn hpa_scaling_rules_policies_are_atomic() {
    use k8s_openapi::api::autoscaling::v2::{HPAScalingRules, HorizontalPodAutoscalerSpec};
    let rules = schema::<HPAScalingRules>();
    assert_eq!(
        rules["properties"]["policies"]["x-kubernetes-list-type"],
        "atomic"
    );
    let spec = schema::<HorizontalPodAutoscalerSpec>();
    let behavior = &spec["properties"]["behavior"]["properties"];
    for direction in ["scaleUp", "scaleDown"] {
        assert_eq!(
            behavior[direction]["properties"]["policies"]["x-kubernetes-list-type"], "atomic",
            "{direction}"
        );
    }
    // Markers of HorizontalPodAutoscalerSpec itself.
    assert_eq!(
        spec["properties"]["metrics"]["x-kubernetes-list-type"],
        "atomic"
    );
}

/// `+k8s:enum` types get the values of their string constants, as
/// controller-gen reads them (1.35's DRA types); a type whose constants
/// are conversions gets none (controller-gen reports an error there).
#[test]
fn k8s_enum_types_list_their_constants() {
    use k8s_openapi::api::resource::v1::{DeviceRequest, DeviceToleration};
    let toleration = schema::<DeviceToleration>();
    let operator = &toleration["properties"]["operator"];
    assert_eq!(operator["enum"], json!(["Equal", "Exists"]));
    assert_eq!(operator["default"], "Equal");
    let effect = &toleration["properties"]["effect"];
    assert_eq!(effect["enum"], json!(["NoExecute", "NoSchedule", "None"]));
    let mode = &schema::<DeviceRequest>()["properties"]["exactly"]["properties"]["allocationMode"];
    assert_eq!(mode["type"], "string");
    assert!(mode.get("enum").is_none(), "{mode}");
}

/// Where the Go markers and k8s-openapi disagree on `required`,
/// controller-gen's rule decides: k8s-openapi requires every field its
/// Rust type does not wrap in `Option`; controller-gen every field without
/// `omitempty` or `+optional` (and a `+required` one).
#[test]
fn required_follows_the_go_markers() {
    use k8s_openapi::api::core::v1::{ConfigMapKeySelector, Event};
    // `name` comes from the embedded LocalObjectReference, `omitempty`.
    assert_eq!(schema::<ConfigMapKeySelector>()["required"], json!(["key"]));
    // core/v1 Event's `metadata` has neither `omitempty` nor `+optional`.
    assert_eq!(
        schema::<Event>()["required"],
        json!(["involvedObject", "metadata"])
    );
}

/// A field inside a k8s-openapi type is reached with `with = path`: the
/// function expands the type through the context (its marker keys
/// included) and edits the nested node.
fn pod_template_with_few_containers(cx: &mut SchemaCx) -> JsonSchemaProps {
    let mut template = cx.subschema::<PodTemplateSpec>();
    let containers = template
        .properties
        .as_mut()
        .and_then(|p| p.get_mut("spec"))
        .and_then(|spec| spec.properties.as_mut())
        .and_then(|p| p.get_mut("containers"));
    if let Some(containers) = containers {
        containers.max_items = Some(4);
    }
    template
}

#[derive(StructuralSchema)]
#[allow(dead_code)]
struct FewContainers {
    #[schema(with = pod_template_with_few_containers)]
    template: PodTemplateSpec,
}

#[test]
fn nested_k8s_fields_through_with() {
    let s = schema::<FewContainers>();
    let containers = &s["properties"]["template"]["properties"]["spec"]["properties"]["containers"];
    assert_eq!(containers["maxItems"], 4);
    assert_eq!(containers["x-kubernetes-list-type"], "map");
}

/// An API object embedded whole: `metadata` is optional, as the
/// Go field is `omitempty` (k8s-openapi requires it).
#[test]
fn embedded_objects_do_not_require_metadata() {
    let pvc = schema::<PersistentVolumeClaim>();
    assert!(pvc.get("required").is_none(), "{}", pvc["required"]);
    assert_eq!(pvc["properties"]["apiVersion"]["type"], "string");
}

#[test]
fn descriptions_are_k8s_openapi_s() {
    let s = schema::<k8s_openapi::api::core::v1::ContainerPort>();
    assert_eq!(
        s["description"],
        "ContainerPort represents a network port in a single container."
    );
    assert_eq!(s["properties"]["protocol"]["default"], "TCP");
    // The description of a field of a struct type is the field's.
    let c = schema::<Container>();
    assert!(
        c["properties"]["lifecycle"]["description"]
            .as_str()
            .is_some_and(|d| d.starts_with("Actions that the management system"))
    );
}

#[test]
fn recursive_k8s_types_are_errors() {
    let errs = schema_for::<
        k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::JSONSchemaProps,
    >()
    .unwrap_err();
    let text = errs.to_string();
    assert!(
        text.contains("recursive type: `JSONSchemaProps` contains itself"),
        "{text}"
    );
    // The field path of the cycle is named.
    assert!(text.starts_with("JSONSchemaProps."), "{text}");
}

/// A spec a controller author writes, embedding k8s-openapi types.
#[derive(StructuralSchema)]
#[allow(dead_code)]
struct WorkerSpec {
    /// The pod to run.
    template: Option<PodTemplateSpec>,
    /// Memory per worker.
    memory: Quantity,
    /// When to start.
    start_at: Option<Time>,
    /// Port or port name.
    port: IntOrString,
    /// Who can reach it.
    selector: Option<LabelSelector>,
}

#[derive(StructuralSchema)]
#[allow(dead_code)]
struct WorkerStatus {
    /// Conditions.
    conditions: Vec<Condition>,
}

#[derive(StructuralSchema)]
#[allow(dead_code)]
struct Worker {
    spec: WorkerSpec,
    status: Option<WorkerStatus>,
}

#[test]
fn derived_type_embedding_k8s_types_is_a_valid_crd_schema() {
    let s: JsonSchemaProps = schema_for::<Worker>().unwrap();
    let st = Structural::from_props(&s).unwrap_or_else(|e| panic!("NewStructural: {e}"));
    let errs = validate_structural(&Path::root(), &st, StructuralOptions::default());
    assert!(errs.is_empty(), "not structural: {errs:?}");
    let report = check(
        &Input::Schema(Box::new(s.clone())),
        &schema_core::Options::default(),
    );
    assert!(report.errors.is_empty(), "CRD errors: {:?}", report.errors);
    assert!(
        report.warnings.is_empty(),
        "warnings: {:?}",
        report.warnings
    );
    let v = s.to_value();
    assert_eq!(
        v["properties"]["spec"]["properties"]["memory"]["description"],
        "Memory per worker."
    );
    assert_eq!(
        v["properties"]["spec"]["properties"]["memory"]["pattern"],
        schema_core::rust::k8s::QUANTITY_PATTERN
    );
    assert_eq!(
        v["properties"]["spec"]["required"],
        json!(["memory", "port"])
    );
}

/// Hand-written implementations can expand k8s-openapi types through the
/// context like any other.
#[test]
fn expands_through_the_context() {
    let mut cx = SchemaCx::new();
    let s = cx.subschema::<Vec<Toleration>>();
    assert!(cx.errors().is_empty());
    assert_eq!(s.type_str(), "array");
}
