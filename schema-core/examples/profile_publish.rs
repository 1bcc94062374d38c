//! Times the phases of publishing one CRD file (a profiling aid).
use schema_core::crd::publish::{publish_v3, to_kube_openapi};
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::input::read_input_owned;
use std::time::Instant;

#[path = "common/phases.rs"]
mod phases;

use phases::{first_version_schema, timed_structural};

fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    let bytes = std::fs::read(&path).unwrap_or_default();
    let t = Instant::now();
    let docs = parse_documents(&path, &bytes, &Limits::default()).unwrap_or_default();
    println!("parse {:?}", t.elapsed());
    for d in docs {
        let t = Instant::now();
        let Ok((input, _)) = read_input_owned(d.value) else {
            continue;
        };
        println!("decode {:?}", t.elapsed());
        let Some(c) = input.crd() else { continue };
        let s = first_version_schema(c);
        let t = Instant::now();
        let s2 = s.clone();
        println!("props clone {:?}", t.elapsed());
        let t = Instant::now();
        drop(s2);
        println!("props drop {:?}", t.elapsed());
        let ss = timed_structural(&s);
        let t = Instant::now();
        let u = ss.unfold();
        println!("unfold (clone) {:?}", t.elapsed());
        let t = Instant::now();
        let v = to_kube_openapi(&u);
        println!("to_kube_openapi {:?}", t.elapsed());
        let t = Instant::now();
        drop(v);
        drop(u);
        drop(ss);
        println!("drops {:?}", t.elapsed());
        let t = Instant::now();
        let n = publish_v3(c, &schema_core::Options::default())
            .map(|d| d.len())
            .unwrap_or(0);
        println!("publish_v3 (all versions: {n} docs) {:?}", t.elapsed());
        let t = Instant::now();
        drop(input);
        println!("drop input {:?}", t.elapsed());
    }
}
