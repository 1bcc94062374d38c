//! Times the phases of `check` on one file (a profiling aid).
use schema_core::crd::check::check;
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::input::read_input;
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let bytes = std::fs::read(&path).unwrap_or_default();
    for _ in 0..3 {
        let t = Instant::now();
        let docs = parse_documents(&path, &bytes, &Limits::default()).unwrap_or_default();
        let t1 = t.elapsed();
        let inputs: Vec<_> = docs
            .iter()
            .filter_map(|d| read_input(&d.value).ok())
            .collect();
        let t2 = t.elapsed();
        let n: usize = inputs
            .iter()
            .map(|(i, _)| check(i, &schema_core::Options::default()).errors.len())
            .sum();
        let t3 = t.elapsed();
        println!(
            "parse {t1:?} read {:?} check {:?} errors {n}",
            t2 - t1,
            t3 - t2
        );
    }
}
