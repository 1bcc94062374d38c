//! Runs one step of the `validate` bench in a loop, for `perf record`:
//! `profile_validate <admission|value|prune|...> <endpoints> <iterations>`.

use schema_core::admission::Admission;
use schema_core::check::read_input_owned;
use schema_core::field::Path;
use schema_core::source::{Limits, parse_documents};
use schema_core::value::SchemaValidator;
use serde_json::{Value, json};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const CRD: &str = "prometheus-operator/monitoring.coreos.com_servicemonitors.yaml";

fn object(n: usize) -> Value {
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
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("admission", String::as_str);
    let n: usize = args.get(2).map_or(Ok(3000), |s| s.parse())?;
    let iters: usize = args.get(3).map_or(Ok(100), |s| s.parse())?;
    let path = std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/corpus/crds"
    ))
    .join(CRD);
    let bytes = std::fs::read(path)?;
    let doc = parse_documents(CRD, &bytes, &Limits::default())?
        .into_iter()
        .next()
        .ok_or("no document")?;
    let doc_value = doc.value.clone();
    let (input, _) = read_input_owned(doc.value).map_err(|e| format!("{e:?}"))?;
    let crd = input.crd().ok_or("no crd")?.clone();
    let schema = crd
        .spec
        .as_ref()
        .and_then(|s| s.versions.as_ref())
        .and_then(|v| v.first())
        .and_then(|v| v.schema.as_ref())
        .and_then(|s| s.open_api_v3_schema.clone())
        .ok_or("no schema")?;
    let obj = object(n);
    let schema_json = doc_value
        .pointer("/spec/versions/0/schema/openAPIV3Schema")
        .cloned()
        .ok_or("no schema")?;
    let js = jsonschema::validator_for(&schema_json)?;
    let admission = Admission::for_crd(&crd, "v1")?;
    let validator = SchemaValidator::new(&schema);
    let admission_ix = schema_core::walk::IndexedSchema::new(
        schema_core::structural::Structural::from_props(&schema)?,
    );
    let mut warm = obj.clone();
    admission_decode(&admission_ix, &mut warm);
    let mut total = 0usize;
    let start = std::time::Instant::now();
    let mut timed = std::time::Duration::ZERO;
    let mut phase: std::collections::BTreeMap<String, std::time::Duration> = Default::default();
    for _ in 0..iters {
        match what {
            "phases" => {
                let ix = schema_core::walk::IndexedSchema::new(
                    schema_core::structural::Structural::from_props(&schema)?,
                );
                let s = Some(ix.view());
                let mut o = obj.clone();
                let mut t = std::time::Instant::now();
                let mut lap = |name: &str| {
                    let e = t.elapsed();
                    t = std::time::Instant::now();
                    *phase.entry(name.to_string()).or_default() += e;
                };
                let decoded = schema_core::decode::decode_resource(&mut o, s, true);
                lap("1 decode");
                let pruned = decoded.pruned;
                let e = decoded.error;
                let errs = validator.validate(&o, &Path::root());
                lap("5 value");
                let mut me = Vec::new();
                schema_core::validation::defaults::validate_meta_view(
                    &Path::root(),
                    &o,
                    s,
                    true,
                    &mut me,
                );
                lap("6 meta");
                let le =
                    schema_core::listtype::validate_list_sets_and_maps_view(&Path::root(), s, &o);
                lap("7 listtype");
                drop(o);
                lap("8 drop");
                total += pruned.len() + usize::from(e.is_some()) + errs.len() + me.len() + le.len();
            }
            "jsonschema" => {
                let t = std::time::Instant::now();
                total += js.iter_errors(&obj).count();
                timed += t.elapsed();
            }
            "value_fresh" => {
                let o = obj.clone();
                let t = std::time::Instant::now();
                total += validator.validate(&o, &Path::root()).len();
                timed += t.elapsed();
                drop(o);
            }
            "touch" => {
                // A floor: visit every key (its bytes) and value once.
                fn touch(v: &Value) -> usize {
                    match v {
                        Value::Object(m) => m
                            .iter()
                            .map(|(k, v)| {
                                k.as_bytes().first().map_or(0, |b| usize::from(*b)) + touch(v)
                            })
                            .sum(),
                        Value::Array(a) => a.iter().map(touch).sum(),
                        Value::String(s) => s.len(),
                        _ => 1,
                    }
                }
                let o = obj.clone();
                let t = std::time::Instant::now();
                total += touch(&o) & 1;
                timed += t.elapsed();
            }
            "touch_same" => {
                fn touch(v: &Value) -> usize {
                    match v {
                        Value::Object(m) => m
                            .iter()
                            .map(|(k, v)| {
                                k.as_bytes().first().map_or(0, |b| usize::from(*b)) + touch(v)
                            })
                            .sum(),
                        Value::Array(a) => a.iter().map(touch).sum(),
                        Value::String(s) => s.len(),
                        _ => 1,
                    }
                }
                let t = std::time::Instant::now();
                total += touch(&obj) & 1;
                timed += t.elapsed();
            }
            "decode_same" => {
                // Decoding an object decoded before: nothing changes, the
                // object stays warm.
                let t = std::time::Instant::now();
                total += admission_decode(&admission_ix, &mut warm);
                timed += t.elapsed();
            }
            "admission_chain" => {
                // Admits the last result again: no copy, no drop (decoding
                // an admitted object changes nothing).
                let o = std::mem::take(&mut warm);
                let t = std::time::Instant::now();
                let a = admission.create(o);
                timed += t.elapsed();
                total += a.errors.len();
                warm = a.object;
            }
            "value" => {
                let t = std::time::Instant::now();
                total += validator.validate(&obj, &Path::root()).len();
                timed += t.elapsed();
            }
            _ => {
                let o = obj.clone();
                let t = std::time::Instant::now();
                total += admission.create(o).errors.len();
                timed += t.elapsed();
            }
        }
    }
    eprintln!(
        "{what} n={n}: {:?} per iteration (wall {:?}), {total} errors",
        timed / u32::try_from(iters)?,
        start.elapsed()
    );
    for (k, v) in phase {
        eprintln!("  {k}: {:?}", v / u32::try_from(iters)?);
    }
    Ok(())
}

fn admission_decode(ix: &schema_core::walk::IndexedSchema, o: &mut Value) -> usize {
    schema_core::decode::decode_resource(o, Some(ix.view()), true)
        .pruned
        .len()
}
