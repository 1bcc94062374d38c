//! `cargo xtask bench-validate-scale`: `schema-gen validate` over a
//! GitOps-sized repository, against the cost of only parsing it, on one and
//! two threads, and side by side with kubeconform.
//!
//! 1. 20 CRD versions of the corpus (`SCHEMA_GEN_CORPUS_DIR`, else
//!    `../shared/corpus/crds`): the storage version of a CRD of files that
//!    `schema-gen check` accepts, spread over the files' sizes (see
//!    [`select_crds`](select::select_crds)); the files are copied into `crds/`, the `--crd`
//!    directory.
//! 2. A repository of `--objects` objects (seeded, the same every run) under
//!    `repo/`: about half built-in kinds in application bundles (a
//!    workload, its Service, ConfigMap, ServiceAccount, ... see
//!    [`app_bundle`](apps::app_bundle)), each bundle one multi-document file or a folder of
//!    files; the rest objects of the CRD versions built from their schemas
//!    (as `bench-gate` builds them) in multi-document files under
//!    `platform/` and single-object files under `clusters/`. About 3% are
//!    deliberately invalid. With `--double`, the same at twice the size
//!    under `repo-2x/` for peak memory.
//! 3. The parse floor: every file of `repo/` (and, apart, of `crds/`)
//!    read and parsed (`schema_core::model::source::parse_documents`)
//!    in-process on one thread, by a release build of this xtask (the
//!    `cargo xtask` alias builds it for debugging).
//! 4. The timed runs, alternating, after an untimed one of each:
//!    `schema-gen validate --crd crds --jobs J repo` and `kubeconform
//!    -schema-location T -strict -summary -n J repo` for J = 1, 2, and
//!    schema-gen's fixed cost (`probe/`: the CRDs read, one object of each
//!    type); under GNU time for CPU time and peak RSS. A run during which
//!    other processes used the cores is tried again ([`Calm`](runs::Calm)). The
//!    schemas kubeconform reads are the CRD versions' and the built-in
//!    kinds' (from `schema_core::rust::k8s::builtin_kinds`) converted as
//!    `bench-gate` converts CRDs.
//! 5. The report, on stdout and as `report.md`: medians, objects/s, MB/s,
//!    the ratios to the parse floor and between thread counts, peak RSS,
//!    and what each tool flags in the objects built to be valid and in the
//!    deliberately invalid ones.

mod apps;
mod floor;
mod repo;
mod report;
mod runs;
mod select;
mod verdicts;

use std::collections::{BTreeMap, HashSet};
use std::fs;

use anyhow::{Context, Result, bail};

use crate::bench_repo::corpus::{accepted_crd_files, corpus_dir};
use crate::bench_repo::kubeconform::find_kubeconform;
use crate::flags::{Flag, RepoOptions};
use crate::gen_bench::{build_release, build_schema_gen};
use crate::{measure, workspace};
use floor::{parse_floor_of, yaml_files};
use repo::{generate, write_probe, write_schemas};
use report::Report;
use runs::{Calm, JOBS, Run, kubeconform_command, load_average, ours_command};
use select::select_crds;
use verdicts::{kubeconform_verdicts, ours_verdicts};

/// Options of `cargo xtask bench-validate-scale`.
pub const USAGE: &str = "\
  bench-validate-scale [--runs N] [--objects N] [--double] [--no-kubeconform]
         [--generate-only]
         schema-gen validate at scale: a seeded repository of N objects (default
         10000; built-in kinds and 20 corpus CRD versions, ~3% invalid) validated
         with --jobs 1 and 2 (median of --runs, default 5), against the parse floor
         (parse_documents of the same files, one core), kubeconform -strict with as
         many goroutines, and peak RSS (GNU time); runs disturbed by other
         processes are tried again; --double: peak RSS on a repository twice the
         size too; --generate-only: the CRDs, repositories, probe and schemas only,
         nothing run. Under target/bench-validate-scale/, the report also in report.md";

/// Runs the benchmark with the arguments after `bench-validate-scale`.
pub fn run(args: &[String]) -> Result<()> {
    if args.first().map(String::as_str) == Some("--parse-floor") {
        return floor::parse_floor_main(&args[1..]);
    }
    let (mut double_size, mut with_kubeconform) = (false, true);
    let extra = vec![
        Flag::Switch("--double", &mut double_size, true),
        Flag::Switch("--no-kubeconform", &mut with_kubeconform, false),
    ];
    let o = RepoOptions::parse(args, USAGE, 10_000, extra)?;
    let root = workspace::root()?;
    let bench = root.join("target").join("bench-validate-scale");
    measure::fresh_bench_dir(&bench, &["repo", "repo-2x", "crds", "schemas", "probe"])?;
    let Some(rss) = measure::rss_file(&bench) else {
        bail!(
            "GNU time (/usr/bin/time, Debian package `time`) is needed for CPU time and peak RSS"
        );
    };

    let schema_gen = build_schema_gen(&root)?;
    // The parse floor is timed in a release build of this xtask.
    let floor_exe = if cfg!(debug_assertions) && !o.generate_only {
        Some(build_release(&root, "xtask", "xtask")?)
    } else {
        None
    };
    let kubeconform = if with_kubeconform && !o.generate_only {
        find_kubeconform(&root)?
    } else {
        None
    };

    let (corpus, corpus_note) = corpus_dir(&root);
    println!("bench-validate-scale: CRDs from {}", corpus.display());
    let mut notes = vec![corpus_note];
    let accepted = accepted_crd_files(&schema_gen, &corpus, &mut notes)?;
    let chosen = select_crds(&accepted, &mut notes)?;
    for c in &chosen {
        let file = &accepted[c.file];
        let dest = bench.join("crds").join(&file.rel);
        fs::create_dir_all(dest.parent().context("a CRD path has a parent")?)?;
        fs::copy(&file.path, &dest).with_context(|| format!("copying {}", file.path.display()))?;
    }
    let crd_files: HashSet<usize> = chosen.iter().map(|c| c.file).collect();

    let repo = generate(&chosen, o.objects, &bench.join("repo"))?;
    println!(
        "repository: {} objects in {} files, {:.1} MB in {}",
        repo.objects.len(),
        repo.files,
        repo.bytes as f64 / 1e6,
        bench.join("repo").display()
    );
    let repo2 = if double_size {
        let r = generate(&chosen, 2 * o.objects, &bench.join("repo-2x"))?;
        println!(
            "repository 2x: {} objects in {} files, {:.1} MB",
            r.objects.len(),
            r.files,
            r.bytes as f64 / 1e6
        );
        Some(r)
    } else {
        None
    };
    write_probe(&chosen, &bench.join("probe"))?;
    let schemas = write_schemas(&chosen, &repo, &bench.join("schemas"))?;
    if o.generate_only {
        return Ok(());
    }

    // What each tool says of each object (untimed; also warms the page
    // cache).
    println!("verdicts (untimed)");
    let mut verdicts = vec![
        (
            "schema-gen validate",
            ours_verdicts(&schema_gen, &bench, false)?,
        ),
        (
            "schema-gen validate --strict",
            ours_verdicts(&schema_gen, &bench, true)?,
        ),
    ];
    if let Some(k) = &kubeconform {
        verdicts.push((
            "kubeconform -strict",
            kubeconform_verdicts(&k.path, &bench)?,
        ));
    }

    println!("parse floor ({} runs)", o.runs);
    let floor = parse_floor_of(floor_exe.as_deref(), o.runs, &bench.join("repo"))?;
    let crd_floor = parse_floor_of(floor_exe.as_deref(), o.runs, &bench.join("crds"))?;
    if floor.1 != repo.objects.len() {
        notes.push(format!(
            "the parse floor read {} documents of {} objects",
            floor.1,
            repo.objects.len()
        ));
    }

    let load_before = load_average();
    let mut calm = Calm {
        rss: &rss,
        repeated: 0,
        disturbed: 0,
    };
    let mut timed: BTreeMap<(&str, usize), Vec<Run>> = BTreeMap::new();
    for run in 0..o.runs {
        println!("timed run {}/{}", run + 1, o.runs);
        for jobs in JOBS {
            let m = calm.run(&ours_command(&schema_gen, &bench, "repo", jobs))?;
            timed.entry(("schema-gen", jobs)).or_default().push(m);
            if let Some(k) = &kubeconform {
                let m = calm.run(&kubeconform_command(&k.path, &bench, jobs, false))?;
                timed.entry(("kubeconform", jobs)).or_default().push(m);
            }
        }
        // The fixed cost: loading the CRDs and one object of each type;
        // loading the CRDs only (one ConfigMap).
        let m = calm.run(&ours_command(&schema_gen, &bench, "probe/probe.yaml", 1))?;
        timed.entry(("probe", 1)).or_default().push(m);
        let m = calm.run(&ours_command(&schema_gen, &bench, "probe/load.yaml", 1))?;
        timed.entry(("load", 1)).or_default().push(m);
    }
    let mut double = Vec::new();
    if repo2.is_some() {
        println!("peak RSS on the repository twice the size");
        for jobs in JOBS {
            double.push(calm.run(&ours_command(&schema_gen, &bench, "repo-2x", jobs))?);
        }
    }
    let load_after = load_average();

    let r = Report {
        runs: o.runs,
        accepted: &accepted,
        crd_files: crd_files.len(),
        chosen: &chosen,
        repo: &repo,
        repo2: repo2.as_ref(),
        schemas,
        kubeconform: kubeconform.as_ref(),
        floor: floor.0,
        crd_floor: crd_floor.0,
        crd_bytes: yaml_files(&bench.join("crds"))?
            .iter()
            .filter_map(|f| fs::metadata(f).ok())
            .map(|m| m.len())
            .sum(),
        floor_in_process: floor_exe.is_none(),
        timed: &timed,
        double: &double,
        verdicts: &verdicts,
        load: (load_before, load_after),
        calm: (calm.repeated, calm.disturbed),
        notes: &notes,
    };
    measure::publish_report(&bench, "report.md", &r.render())
}
