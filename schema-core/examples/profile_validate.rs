//! Runs one side of the `validate` bench in a loop, for `perf record`:
//! `profile_validate <side> <endpoints> <iterations>`, printing the mean
//! time of the timed part. Sides:
//!
//! - `admission`, `value`, `jsonschema`, `floor`: as the bench, each run on
//!   an object freshly parsed from the same JSON text (parsing not timed);
//! - `admission_chain`: admits the last result again (no parse, no copy, no
//!   drop; decoding an admitted object changes nothing), so the object
//!   stays where it is in memory;
//! - `phases`: decoding and each validation step on their own, with their
//!   times.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use schema_core::model::field::Path;
use schema_core::object::admission::Admission;
use schema_core::object::schema_view::IndexedSchema;
use schema_core::object::value_validation::SchemaValidator;

#[path = "../benches/common/servicemonitor.rs"]
mod servicemonitor;

use servicemonitor::{object_text, parse, read_floor, setup};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("admission", String::as_str);
    let n: usize = args.get(2).map_or(Ok(3000), |s| s.parse())?;
    let iters: usize = args.get(3).map_or(Ok(100), |s| s.parse())?;
    let s = setup().ok_or("the corpus CRD is missing")?;
    let text = object_text(n);
    let js = jsonschema::validator_for(&s.schema_json)?;
    let admission = Admission::for_crd(&s.crd, "v1", &schema_core::Options::default())?;
    let validator = SchemaValidator::new(&s.schema);
    let mut warm = admission.create(parse(&text)).object;
    let mut total = 0usize;
    let start = Instant::now();
    let mut timed = Duration::ZERO;
    let mut phase: BTreeMap<&str, Duration> = BTreeMap::new();
    for _ in 0..iters {
        match what {
            "admission" => {
                let o = parse(&text);
                let t = Instant::now();
                let a = admission.create(o);
                timed += t.elapsed();
                total += a.errors.len();
            }
            "value" => {
                let o = parse(&text);
                let t = Instant::now();
                total += validator.validate(&o, &Path::root()).len();
                timed += t.elapsed();
            }
            "jsonschema" => {
                let o = parse(&text);
                let t = Instant::now();
                total += js.iter_errors(&o).count();
                timed += t.elapsed();
            }
            "floor" => {
                let o = parse(&text);
                let t = Instant::now();
                total += read_floor(&o) & 1;
                timed += t.elapsed();
            }
            "admission_chain" => {
                let o = std::mem::take(&mut warm);
                let t = Instant::now();
                let a = admission.create(o);
                timed += t.elapsed();
                total += a.errors.len();
                warm = a.object;
            }
            "phases" => {
                let ix = IndexedSchema::new(
                    schema_core::model::structural::Structural::from_props(&s.schema)?,
                );
                let view = Some(ix.view());
                let mut o = parse(&text);
                let mut t = Instant::now();
                let mut lap = |name| {
                    let e = t.elapsed();
                    t = Instant::now();
                    *phase.entry(name).or_default() += e;
                };
                let decoded =
                    schema_core::object::prune_default_walk::decode_resource(&mut o, view, true);
                lap("1 decode");
                let errs = validator.validate(&o, &Path::root());
                lap("2 value");
                let mut me = Vec::new();
                schema_core::object::metadata::walk::validate_meta_view(
                    &Path::root(),
                    &o,
                    view,
                    true,
                    &mut me,
                );
                lap("3 meta");
                let le = schema_core::object::list_types::validate_list_sets_and_maps_view(
                    &Path::root(),
                    view,
                    &o,
                );
                lap("4 listtype");
                drop(o);
                lap("5 drop");
                total += decoded.pruned.len()
                    + usize::from(decoded.error.is_some())
                    + errs.len()
                    + me.len()
                    + le.len();
            }
            _ => return Err(format!("unknown side {what:?}").into()),
        }
    }
    if what == "phases" {
        timed = phase.values().sum();
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
