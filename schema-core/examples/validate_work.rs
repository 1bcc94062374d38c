//! One run of a `validate` bench side, for counting its instructions:
//! `validate_work <admission|value|jsonschema|floor> <endpoints>`. Each side
//! runs once on a first object (regexes compiled, DFAs built), then once on
//! a second, freshly parsed one inside `measured`, which `cargo xtask
//! bench-validate-work` has valgrind count (`--toggle-collect`).

use schema_core::model::field::Path;
use schema_core::object::admission::Admission;
use schema_core::object::value_validation::SchemaValidator;

#[path = "../benches/common/servicemonitor.rs"]
mod servicemonitor;

use servicemonitor::{object_text, parse, read_floor, setup};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What valgrind counts: `f` and all it calls.
#[inline(never)]
fn measured<R>(f: impl FnOnce() -> R) -> R {
    f()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("admission", String::as_str);
    let n: usize = args.get(2).map_or(Ok(3000), |s| s.parse())?;
    let s = setup().ok_or("the corpus CRD is missing")?;
    let text = object_text(n);
    let errors = match what {
        "admission" => {
            let admission = Admission::for_crd(&s.crd, "v1", &schema_core::Options::default())?;
            let first = admission.create(parse(&text)).errors.len();
            let o = parse(&text);
            let admitted = measured(|| admission.create(o));
            first + admitted.errors.len()
        }
        "value" => {
            let validator = SchemaValidator::new(&s.schema);
            let first = validator.validate(&parse(&text), &Path::root()).len();
            let o = parse(&text);
            first + measured(|| validator.validate(&o, &Path::root())).len()
        }
        "jsonschema" => {
            let validator = jsonschema::validator_for(&s.schema_json)?;
            let first = validator.iter_errors(&parse(&text)).count();
            let o = parse(&text);
            first + measured(|| validator.iter_errors(&o).count())
        }
        "floor" => {
            let o = parse(&text);
            // Not errors: kept so that the visit is not optimized away.
            usize::from(measured(|| read_floor(&o)) == 0)
        }
        _ => return Err(format!("unknown side {what:?}").into()),
    };
    println!("{what} n={n} bytes={} errors={errors}", text.len());
    Ok(())
}
