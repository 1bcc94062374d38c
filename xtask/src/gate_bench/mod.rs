//! `cargo xtask bench-gate`: `schema-gen validate` side by side with
//! kubeconform, as the manifest check of a CI gate.
//!
//! 1. A repository of manifests under `target/bench-gate/repo/`: the CRD
//!    files of the corpus (`SCHEMA_GEN_CORPUS_DIR`, else
//!    `../shared/corpus/crds`, else the workspace's `examples/`) that
//!    `schema-gen check` accepts, and for every served version with a
//!    schema a file of valid objects built from the schema (seeded, so the
//!    same every run) and one file per deliberately invalid object (see
//!    [`CASES`](crate::bench_repo::cases::CASES)), each made from the version's minimal object.
//! 2. kubeconform, `go install`ed into `target/bench-tools/bin` (GOBIN)
//!    from the Go module proxy unless it is there already. Without Go only
//!    schema-gen runs.
//! 3. The CRD schemas converted to JSON Schema the way kubeconform's
//!    documentation converts CRDs (see [`to_json_schema`](crate::bench_repo::convert::to_json_schema)): one file per
//!    group, kind and version under `target/bench-gate/schemas/`, named
//!    for the `-schema-location` template [`SCHEMA_TEMPLATE`](crate::bench_repo::convert::SCHEMA_TEMPLATE).
//! 4. Both tools over the same object files: the release `schema-gen
//!    validate --crd CRD OBJ...` once per CRD file (the invocations spread
//!    over `--jobs` processes at a time), and one `kubeconform
//!    -schema-location T -strict -summary -output json repo/objects`
//!    (its own default of 4 goroutines). One untimed run of each with
//!    machine-readable output gives what each reports per object; then
//!    `--runs` timed runs, alternating, give the median wall time, the CPU
//!    time of the child processes and objects per second.
//! 5. The report, on stdout and as `target/bench-gate/report.md`: the
//!    timings and their ratio, how many valid objects each accepts, and
//!    per invalid object what each tool says.

mod repo;
mod report;
mod tools;
mod verdicts;

use std::fs;

use anyhow::Result;

use crate::bench_repo::corpus::corpus_dir;
use crate::bench_repo::kubeconform::find_kubeconform;
use crate::flags::{Flag, RepoOptions};
use crate::gen_bench::build_schema_gen;
use crate::{measure, workspace};
use repo::{generate, load_crds, write_schemas};
use report::Report;
use tools::{run_kubeconform, run_ours, timed};
use verdicts::{kubeconform_verdicts, ours_verdicts};

/// Options of `cargo xtask bench-gate`.
pub const USAGE: &str = "\
  bench-gate [--runs N] [--objects N] [--jobs N] [--generate-only]
         schema-gen validate vs kubeconform as a CI gate: a repository with N valid
         objects (default 20) and a fixed set of invalid ones for every corpus CRD
         version, the CRDs converted to JSON Schema for kubeconform (go install'ed
         into target/bench-tools/bin), both run over all objects (median of --runs,
         default 5; schema-gen on --jobs processes, default the cores), and what each
         reports for the invalid objects; --generate-only: the repository and the
         schemas only, nothing run. Everything under target/bench-gate/, the report
         also in report.md";

/// Runs the benchmark with the arguments after `bench-gate`.
pub fn run(args: &[String]) -> Result<()> {
    let mut jobs = std::thread::available_parallelism().map_or(2, usize::from);
    let o = RepoOptions::parse(args, USAGE, 20, vec![Flag::Count("--jobs", &mut jobs)])?;
    let root = workspace::root()?;
    let bench = root.join("target").join("bench-gate");
    measure::fresh_bench_dir(&bench, &["repo", "schemas"])?;

    let schema_gen = build_schema_gen(&root)?;
    let kubeconform = if o.generate_only {
        None
    } else {
        find_kubeconform(&root)?
    };

    let (corpus, corpus_note) = corpus_dir(&root);
    println!("bench-gate: CRDs from {}", corpus.display());
    let mut notes = vec![corpus_note];
    let mut files = load_crds(&schema_gen, &corpus, &bench, &mut notes)?;
    let objects = generate(&mut files, &bench, o.objects)?;
    let schemas = write_schemas(&files, &bench)?;
    let total_bytes: u64 = files
        .iter()
        .flat_map(|f| &f.objects)
        .filter_map(|f| fs::metadata(bench.join(f)).ok())
        .map(|m| m.len())
        .sum();
    println!(
        "repository: {} CRD files, {} CRD versions, {} objects ({} KB) in {}; {schemas} JSON schemas",
        files.len(),
        files.iter().map(|f| f.versions.len()).sum::<usize>(),
        objects.len(),
        total_bytes / 1024,
        bench.join("repo").display()
    );
    if o.generate_only {
        return Ok(());
    }

    // What each tool says about each object.
    let ours = ours_verdicts(&schema_gen, &files, &bench)?;
    let theirs = match &kubeconform {
        Some(k) => Some(kubeconform_verdicts(&k.path, &bench)?),
        None => None,
    };

    // The timed runs, alternating, after the untimed ones above.
    let ticks = measure::clock_ticks();
    let mut ours_runs = Vec::new();
    let mut theirs_runs = Vec::new();
    for run in 0..o.runs {
        println!("timed run {}/{}", run + 1, o.runs);
        ours_runs.push(timed(ticks, || {
            run_ours(&schema_gen, &files, &bench, jobs)
        })?);
        if let Some(k) = &kubeconform {
            theirs_runs.push(timed(ticks, || {
                run_kubeconform(&k.path, &bench, false).map(drop)
            })?);
        }
    }

    let r = Report {
        runs: o.runs,
        per_version: o.objects,
        jobs,
        files: &files,
        objects: &objects,
        total_bytes,
        kubeconform: kubeconform.as_ref(),
        ours: &ours,
        theirs: theirs.as_ref(),
        ours_runs: &ours_runs,
        theirs_runs: &theirs_runs,
        notes: &notes,
    };
    measure::publish_report(&bench, "report.md", &r.render())
}
