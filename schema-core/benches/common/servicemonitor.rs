//! The object the validation benchmarks and their examples share: a valid
//! Prometheus Operator ServiceMonitor with `n` endpoints (about 340 bytes of
//! JSON each), validated against its CRD from the shared corpus.

use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::input::read_input_owned;
use schema_core::model::wire::{CustomResourceDefinition, JsonSchemaProps};
use serde_json::{Value, json};

/// The CRD, under the corpus directory.
pub const CRD: &str = "prometheus-operator/monitoring.coreos.com_servicemonitors.yaml";

#[path = "corpus.rs"]
mod corpus;

use corpus::corpus;

/// The CRD, its first version's schema, and that schema as JSON (for the
/// `jsonschema` crate).
pub struct Setup {
    /// The CRD.
    pub crd: CustomResourceDefinition,
    /// `spec.versions[0].schema.openAPIV3Schema`.
    pub schema: JsonSchemaProps,
    /// The same schema as JSON.
    pub schema_json: Value,
}

/// Reads the CRD; `None` when the corpus is not there.
pub fn setup() -> Option<Setup> {
    let bytes = std::fs::read(corpus().join(CRD)).ok()?;
    let doc = parse_documents(CRD, &bytes, &Limits::default())
        .ok()?
        .into_iter()
        .next()?;
    let schema_json = doc
        .value
        .pointer("/spec/versions/0/schema/openAPIV3Schema")?
        .clone();
    let (input, _) = read_input_owned(doc.value).ok()?;
    let crd = input.crd()?.clone();
    let schema = crd
        .spec
        .as_ref()?
        .versions
        .as_ref()?
        .first()?
        .schema
        .as_ref()?
        .open_api_v3_schema
        .clone()?;
    Some(Setup {
        crd,
        schema,
        schema_json,
    })
}

/// A valid ServiceMonitor with `n` endpoints, as JSON text: the
/// benchmarks parse it for every run, so that every validator gets the
/// same object, laid out in memory as a parser lays it out, right after
/// it was parsed (as `schema-gen validate` gets it).
pub fn object_text(n: usize) -> String {
    let endpoints: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "port": format!("http-{i}"),
                "path": "/metrics",
                "interval": "30s",
                "scrapeTimeout": "10s",
                "scheme": "https",
                "honorLabels": i % 2 == 0,
                "relabelings": [{
                    "action": "replace",
                    "sourceLabels": ["__meta_kubernetes_pod_name"],
                    "targetLabel": "pod",
                }],
                "tlsConfig": {"insecureSkipVerify": false, "serverName": "api.example.com"},
            })
        })
        .collect();
    json!({
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "ServiceMonitor",
        "metadata": {"name": "api", "namespace": "default", "labels": {"team": "core"}},
        "spec": {
            "selector": {"matchLabels": {"app": "api"}},
            "endpoints": endpoints,
        },
    })
    .to_string()
}

/// Parses [`object_text`]'s text.
pub fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_default()
}

/// The floor of any validator: a read-only visit of every key, value and
/// string (its first byte) of `v`, once.
pub fn read_floor(v: &Value) -> usize {
    match v {
        Value::Object(m) => m
            .iter()
            .map(|(k, v)| k.as_bytes().first().map_or(0, |b| usize::from(*b)) + read_floor(v))
            .sum(),
        Value::Array(a) => a.iter().map(read_floor).sum(),
        Value::String(s) => s.as_bytes().first().map_or(0, |b| usize::from(*b)),
        _ => 1,
    }
}
