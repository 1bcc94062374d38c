//! `cargo xtask bench-validate-scale`: `schema-gen validate` over a
//! GitOps-sized repository, against the cost of only parsing it, on one and
//! two threads, and side by side with kubeconform.
//!
//! 1. 20 CRD versions of the corpus (`SCHEMA_GEN_CORPUS_DIR`, else
//!    `../shared/corpus/crds`): the storage version of a CRD of files that
//!    `schema-gen check` accepts, spread over the files' sizes (see
//!    [`select_crds`]); the files are copied into `crds/`, the `--crd`
//!    directory.
//! 2. A repository of `--objects` objects (seeded, the same every run) under
//!    `repo/`: about half built-in kinds in application bundles (a
//!    workload, its Service, ConfigMap, ServiceAccount, ... see
//!    [`app_bundle`]), each bundle one multi-document file or a folder of
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
//!    other processes used the cores is tried again ([`Calm`]). The
//!    schemas kubeconform reads are the CRD versions' and the built-in
//!    kinds' (from `schema_core::rust::k8s::builtin_kinds`) converted as
//!    `bench-gate` converts CRDs.
//! 5. The report, on stdout and as `report.md`: medians, objects/s, MB/s,
//!    the ratios to the parse floor and between thread counts, peak RSS,
//!    and what each tool flags in the objects built to be valid and in the
//!    deliberately invalid ones.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use schema_core::model::source::{Limits, parse_documents};
use schema_core::rust::k8s::builtin_kinds;

use crate::gate_bench::{
    self, CASES, CorpusCrdFile, CrdVersion, Gen, Kubeconform, Patterns, Rng, SCHEMA_TEMPLATE,
    build_object, invalid_object, property_named_properties, write_schema, yaml,
};
use crate::gen_bench::{build_release, build_schema_gen};
use crate::measure::{self, Measured, Stats, stats};

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

/// How many CRD versions the repository has objects of.
const CRDS: usize = 20;
/// Percent of the objects that are built-in kinds.
const BUILTIN_PERCENT: usize = 55;
/// Percent of the objects made invalid.
const INVALID_PERCENT: usize = 3;
/// The thread counts measured.
const JOBS: [usize; 2] = [1, 2];
/// The targets: validate on one job at most this many times the parse
/// floor, and two jobs at least this many times faster than one.
const PARSE_TARGET: f64 = 1.5;
const SPEEDUP_TARGET: f64 = 1.8;
/// The cases of `bench-gate`'s [`CASES`] used for CRD objects (not the
/// last, which the API server accepts).
const CRD_CASES: usize = 8;

struct Options {
    runs: usize,
    objects: usize,
    double: bool,
    kubeconform: bool,
    generate_only: bool,
}

fn parse_options(args: &[String]) -> Result<Options> {
    let mut o = Options {
        runs: 5,
        objects: 10_000,
        double: false,
        kubeconform: true,
        generate_only: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let slot = match a.as_str() {
            "--runs" => &mut o.runs,
            "--objects" => &mut o.objects,
            "--double" => {
                o.double = true;
                continue;
            }
            "--no-kubeconform" => {
                o.kubeconform = false;
                continue;
            }
            "--generate-only" => {
                o.generate_only = true;
                continue;
            }
            _ => bail!("unknown option {a:?}\n{USAGE}"),
        };
        let n = it.next().with_context(|| format!("{a} needs a number"))?;
        *slot = n.parse().with_context(|| format!("{a} needs a number"))?;
        if *slot == 0 {
            bail!("{a} must be at least 1");
        }
    }
    Ok(o)
}

/// Runs the benchmark with the arguments after `bench-validate-scale`.
pub fn run(args: &[String]) -> Result<()> {
    if args.first().map(String::as_str) == Some("--parse-floor") {
        return parse_floor_main(&args[1..]);
    }
    let o = parse_options(args)?;
    let root = measure::workspace_root()?;
    let bench = root.join("target").join("bench-validate-scale");
    for dir in ["repo", "repo-2x", "crds", "schemas", "probe"] {
        let dir = bench.join(dir);
        if dir.exists() {
            fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
        }
    }
    fs::create_dir_all(&bench)?;
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
    let kubeconform = if o.kubeconform && !o.generate_only {
        gate_bench::find_kubeconform(&root)?
    } else {
        None
    };

    let (corpus, corpus_note) = gate_bench::corpus_dir(&root);
    println!("bench-validate-scale: CRDs from {}", corpus.display());
    let mut notes = vec![corpus_note];
    let accepted = gate_bench::accepted_crd_files(&schema_gen, &corpus, &mut notes)?;
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
    let repo2 = if o.double {
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
        o: &o,
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
    let report = r.render();
    print!("{report}");
    let path = bench.join("report.md");
    fs::write(&path, &report).with_context(|| format!("writing {}", path.display()))?;
    println!("(written to {})", path.display());
    Ok(())
}

// ---------------------------------------------------------------------------
// The parse floor

/// The parse floor of the files under `dir` ([`parse_floor`]), in the
/// release build `exe` of this xtask when given, else here: the wall time
/// of each run and the documents.
fn parse_floor_of(exe: Option<&Path>, runs: usize, dir: &Path) -> Result<(Stats, usize)> {
    let floor = match exe {
        Some(exe) => {
            let out = Command::new(exe)
                .args(["bench-validate-scale", "--parse-floor"])
                .arg(runs.to_string())
                .arg(dir)
                .stderr(Stdio::inherit())
                .output()
                .context("running the release xtask for the parse floor")?;
            if !out.status.success() {
                bail!("the parse floor failed");
            }
            serde_json::from_slice::<Value>(&out.stdout).context("reading the parse floor")?
        }
        None => parse_floor(runs, dir)?,
    };
    let secs: Vec<f64> = floor["secs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_f64)
        .collect();
    if secs.is_empty() {
        bail!("the parse floor timed nothing");
    }
    let documents = floor["documents"].as_u64().unwrap_or(0) as usize;
    Ok((stats(secs.into_iter()), documents))
}

/// `--parse-floor RUNS DIR`: [`parse_floor`] as JSON on stdout.
fn parse_floor_main(args: &[String]) -> Result<()> {
    let [runs, dir] = args else {
        bail!("usage: bench-validate-scale --parse-floor RUNS DIR");
    };
    let runs: usize = runs.parse().context("RUNS is a number")?;
    let out = parse_floor(runs.max(1), Path::new(dir))?;
    println!("{out}");
    Ok(())
}

/// The YAML files under `dir` read and parsed (with source maps, as
/// `validate` parses them), one after the other, `runs` times: the wall
/// time of each run, and the documents, files and bytes of the last.
fn parse_floor(runs: usize, dir: &Path) -> Result<Value> {
    let files = yaml_files(dir)?;
    let limits = Limits::default();
    let mut secs = Vec::new();
    let (mut documents, mut bytes) = (0, 0);
    for _ in 0..runs {
        (documents, bytes) = (0, 0);
        let start = Instant::now();
        for f in &files {
            let text = fs::read(f).with_context(|| format!("reading {}", f.display()))?;
            let name = f.to_string_lossy();
            let docs =
                parse_documents(&name, &text, &limits).map_err(|e| anyhow::anyhow!("{e}"))?;
            documents += docs.len();
            bytes += text.len();
        }
        secs.push(start.elapsed().as_secs_f64());
    }
    Ok(json!({"secs": secs, "documents": documents, "files": files.len(), "bytes": bytes}))
}

/// The `.yaml` files under `dir`, sorted.
fn yaml_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let p = entry?.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "yaml") {
                found.push(p);
            }
        }
    }
    found.sort();
    Ok(found)
}

// ---------------------------------------------------------------------------
// The CRD versions

/// A CRD version the repository has objects of.
struct Chosen {
    /// Its file, an index of the accepted files.
    file: usize,
    version: CrdVersion,
    /// The file's size.
    bytes: u64,
}

/// [`CRDS`] CRD versions: of the accepted files, in order of size, those
/// that define no CRD an earlier file does (a `--crd` directory defines
/// each once) and that have a CRD whose storage version's schema
/// kubeconform can load (no property named `properties`, see
/// `bench-gate`); of these, files spread evenly over the sizes, one CRD
/// version of each, and more CRDs of the files with several when there are
/// too few files.
fn select_crds(files: &[CorpusCrdFile], notes: &mut Vec<String>) -> Result<Vec<Chosen>> {
    let builtin: HashSet<(String, String)> = builtin_kinds()
        .iter()
        .map(|k| (k.group.to_string(), k.kind.to_string()))
        .collect();
    let mut names = HashSet::new();
    // (file, size, candidate versions)
    let mut eligible: Vec<(usize, u64, Vec<CrdVersion>)> = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let crd_names: Vec<String> = f
            .crds
            .iter()
            .map(|c| {
                c["metadata"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        if crd_names.iter().any(|n| names.contains(n)) {
            notes.push(format!(
                "left out {}: it defines a CRD an earlier file does",
                f.rel.display()
            ));
            continue;
        }
        let mut candidates = Vec::new();
        for crd in &f.crds {
            let storage = crd["spec"]["versions"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|v| v["storage"] == true && v["served"] != false)
                .and_then(|v| v["name"].as_str());
            let mut versions = gate_bench::crd_versions(crd);
            let Some(pos) = versions
                .iter()
                .position(|v| Some(v.version.as_str()) == storage)
                .or_else(|| versions.len().checked_sub(1))
            else {
                continue;
            };
            let v = versions.swap_remove(pos);
            if builtin.contains(&(v.group.clone(), v.kind.clone())) {
                continue;
            }
            if property_named_properties(&v.schema) {
                notes.push(format!(
                    "left out {} of {}: its converted schema has a `properties` property, \
                     which kubeconform cannot load",
                    v.label(),
                    f.rel.display()
                ));
                continue;
            }
            candidates.push(v);
        }
        if candidates.is_empty() {
            continue;
        }
        names.extend(crd_names);
        let size = fs::metadata(&f.path).map_or(0, |m| m.len());
        eligible.push((i, size, candidates));
    }
    eligible.sort_by_key(|e| e.1);
    let m = eligible.len();
    if m == 0 {
        bail!("no CRD of the corpus can be used");
    }
    // Evenly spread indices over the files sorted by size.
    let picks: Vec<usize> = if m <= CRDS {
        (0..m).collect()
    } else {
        (0..CRDS).map(|i| i * (m - 1) / (CRDS - 1)).collect()
    };
    let mut taken: Vec<(usize, usize)> = picks.iter().map(|&p| (p, 0)).collect();
    // Too few files: further CRDs of the picked files, round robin.
    let mut round = 1;
    while taken.len() < CRDS && picks.iter().any(|&p| eligible[p].2.len() > round) {
        for &p in &picks {
            if taken.len() < CRDS && eligible[p].2.len() > round {
                taken.push((p, round));
            }
        }
        round += 1;
    }
    taken.sort_unstable();
    let mut eligible: Vec<(usize, u64, Vec<Option<CrdVersion>>)> = eligible
        .into_iter()
        .map(|(f, size, vs)| (f, size, vs.into_iter().map(Some).collect()))
        .collect();
    let mut chosen = Vec::new();
    for (p, c) in taken {
        let (file, bytes, versions) = &mut eligible[p];
        let version = versions[c].take().context("a CRD version is taken once")?;
        chosen.push(Chosen {
            file: *file,
            version,
            bytes: *bytes,
        });
    }
    Ok(chosen)
}

// ---------------------------------------------------------------------------
// The repository

/// One object of a repository.
struct Object {
    /// Its file, relative to the bench directory.
    file: String,
    kind: String,
    name: String,
    /// Built-in kind (not a CRD's).
    builtin: bool,
    /// The mistake made in it, for an invalid object.
    case: Option<&'static str>,
}

/// A generated repository.
struct Repo {
    objects: Vec<Object>,
    /// Files, and of them those with one object.
    files: usize,
    single: usize,
    dirs: usize,
    bytes: u64,
    /// Built-in kinds by `apiVersion` and kind, with their object counts.
    kinds: BTreeMap<(String, String), usize>,
    /// Objects of each chosen CRD version.
    per_crd: Vec<usize>,
}

/// The files of a repository as they are made.
struct Files {
    /// The repository's folder name (`repo`), the objects' file prefix.
    prefix: String,
    /// Text and object count of each file, by path below the repository.
    text: BTreeMap<String, (String, usize)>,
    objects: Vec<Object>,
    /// Built-in objects by `apiVersion` and kind.
    kinds: BTreeMap<(String, String), usize>,
}

impl Files {
    /// Adds `obj` to the file `path` (below the repository).
    fn add(&mut self, path: &str, obj: &Value, builtin: bool, case: Option<&'static str>) {
        let (text, count) = self.text.entry(path.to_string()).or_default();
        text.push_str("---\n");
        text.push_str(&yaml(obj));
        *count += 1;
        if builtin {
            let field = |k: &str| obj[k].as_str().unwrap_or_default().to_string();
            *self
                .kinds
                .entry((field("apiVersion"), field("kind")))
                .or_default() += 1;
        }
        self.objects.push(Object {
            file: format!("{}/{path}", self.prefix),
            kind: obj["kind"].as_str().unwrap_or_default().to_string(),
            name: obj["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            builtin,
            case,
        });
    }
}

const TEAMS: [&str; 8] = [
    "payments", "search", "identity", "platform", "data", "web", "mobile", "ml",
];
const ENVS: [&str; 3] = ["prod", "staging", "dev"];
const CLUSTERS: [&str; 3] = ["eu-west-1", "us-east-1", "ap-south-1"];
const WORDS: [&str; 24] = [
    "api",
    "worker",
    "gateway",
    "frontend",
    "backend",
    "cache",
    "indexer",
    "scheduler",
    "notifier",
    "billing",
    "ledger",
    "auth",
    "session",
    "profile",
    "catalog",
    "cart",
    "checkout",
    "report",
    "export",
    "import",
    "sync",
    "audit",
    "metrics",
    "router",
];

fn pick<'a, T>(r: &mut Rng, xs: &'a [T]) -> &'a T {
    &xs[r.below(xs.len())]
}

/// CRD objects on their way into one multi-document file, with the
/// mistakes made in them.
type Batch = Vec<(Value, Option<&'static str>)>;

/// Writes a repository of `n` objects into `dir` (seeded: the same every
/// time for the same `n` and CRD versions).
fn generate(chosen: &[Chosen], n: usize, dir: &Path) -> Result<Repo> {
    let mut r = Rng(gate_bench::seed(&["bench-validate-scale"]));
    let mut files = Files {
        prefix: dir
            .file_name()
            .context("the repository has a name")?
            .to_string_lossy()
            .into_owned(),
        text: BTreeMap::new(),
        objects: Vec::new(),
        kinds: BTreeMap::new(),
    };
    let builtins = n * BUILTIN_PERCENT / 100;

    // Applications: a bundle of built-in objects each.
    let mut i = 0;
    while files.objects.len() < builtins {
        let team = *pick(&mut r, &TEAMS);
        let app = App::new(&mut r, team, i);
        let mut bundle = app_bundle(&mut r, &app);
        bundle.truncate(builtins - files.objects.len());
        let mut cases = Vec::new();
        for obj in &mut bundle {
            cases.push(if r.percent(INVALID_PERCENT) {
                Some(break_builtin(obj, &mut r))
            } else {
                None
            });
        }
        let layout = r.below(100);
        let base = format!("apps/{team}/{}", app.name);
        for (obj, case) in bundle.iter().zip(cases) {
            let kind = obj["kind"].as_str().unwrap_or_default().to_lowercase();
            let path = match layout {
                // A folder with a file per object.
                0..45 => format!("{base}/{kind}.yaml"),
                // One multi-document file.
                45..80 => format!("{base}.yaml"),
                // A folder with a file per concern.
                _ => {
                    let part = match kind.as_str() {
                        "deployment"
                        | "statefulset"
                        | "cronjob"
                        | "horizontalpodautoscaler"
                        | "poddisruptionbudget" => "workload",
                        "service" | "ingress" | "networkpolicy" => "network",
                        _ => "config",
                    };
                    format!("{base}/{part}.yaml")
                }
            };
            files.add(&path, obj, true, case);
        }
        i += 1;
    }

    // CRD objects: a weight for each version.
    let weights: Vec<usize> = chosen.iter().map(|_| 1 + r.below(5)).collect();
    let total: usize = weights.iter().sum();
    let mut patterns = Patterns::default();
    let mut per_crd = vec![0; chosen.len()];
    // Each version's open multi-document file: its objects and the size
    // it is closed at.
    let mut open: Vec<(Batch, usize, usize)> = chosen
        .iter()
        .map(|_| (Vec::new(), 1 + r.below(16), 0))
        .collect();
    let flush = |files: &mut Files, c: usize, batch: Batch, k: usize| {
        let v = &chosen[c].version;
        let path = format!(
            "platform/{}/{}/{}-{k}.yaml",
            v.group,
            v.kind.to_lowercase(),
            v.kind.to_lowercase()
        );
        for (obj, case) in &batch {
            files.add(&path, obj, false, *case);
        }
    };
    for j in 0..n - builtins {
        let mut at = r.below(total);
        let c = weights
            .iter()
            .position(|w| {
                let here = at < *w;
                at = at.saturating_sub(*w);
                here
            })
            .unwrap_or(0);
        per_crd[c] += 1;
        let v = &chosen[c].version;
        let kind = v.kind.to_lowercase();
        let seed =
            |extra: &str| gate_bench::seed(&[&v.group, &v.kind, &v.version, extra, &j.to_string()]);
        let (mut obj, case) = if r.percent(INVALID_PERCENT) {
            let ci = r.below(CRD_CASES);
            let made = invalid_object(v, ci, &mut Gen::new(seed("invalid"), &mut patterns, false))
                .map(|(o, _)| (o, ci));
            // Every version has a place for a bad name.
            let name_case = CASES
                .iter()
                .position(|c| c.0 == "metadata-name")
                .context("bench-gate has a metadata-name case")?;
            let (mut obj, ci) = match made {
                Some(m) => m,
                None => (
                    invalid_object(
                        v,
                        name_case,
                        &mut Gen::new(seed("name"), &mut patterns, false),
                    )
                    .context("a metadata-name case for every version")?
                    .0,
                    name_case,
                ),
            };
            obj["metadata"]["name"] = if ci == name_case {
                json!(format!("Invalid_Name_{j}"))
            } else {
                json!(format!("{kind}-invalid-{j}"))
            };
            (obj, Some(CASES[ci].0))
        } else {
            let name = format!("{}-{kind}-{j}", pick(&mut r, &WORDS));
            let obj = build_object(v, &name, &mut Gen::new(seed("valid"), &mut patterns, true));
            (obj, None)
        };
        if v.namespaced {
            obj["metadata"]["namespace"] =
                json!(format!("{}-{}", pick(&mut r, &TEAMS), pick(&mut r, &ENVS)));
        }
        if r.percent(30) {
            let path = format!(
                "clusters/{}/{}/{}.yaml",
                pick(&mut r, &CLUSTERS),
                v.group,
                obj["metadata"]["name"].as_str().unwrap_or("object")
            );
            files.add(&path, &obj, false, case);
        } else {
            let next_size = 1 + r.below(16);
            let (batch, size, k) = &mut open[c];
            batch.push((obj, case));
            if batch.len() >= *size {
                flush(&mut files, c, std::mem::take(batch), *k);
                *size = next_size;
                *k += 1;
            }
        }
    }
    for (c, (batch, _, k)) in open.into_iter().enumerate() {
        if !batch.is_empty() {
            flush(&mut files, c, batch, k);
        }
    }

    // Onto disk.
    let mut dirs = HashSet::new();
    let mut bytes = 0;
    let mut single = 0;
    for (path, (text, count)) in &files.text {
        let path = dir.join(path);
        let parent = path.parent().context("a file has a folder")?;
        if dirs.insert(parent.to_path_buf()) {
            fs::create_dir_all(parent)?;
        }
        fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        bytes += text.len() as u64;
        single += usize::from(*count == 1);
    }
    Ok(Repo {
        files: files.text.len(),
        single,
        dirs: dirs.len(),
        bytes,
        objects: files.objects,
        kinds: files.kinds,
        per_crd,
    })
}

// ---------------------------------------------------------------------------
// Built-in objects

/// An application: the names and settings its objects share.
struct App {
    name: String,
    team: &'static str,
    namespace: String,
    image: String,
    port: u64,
}

impl App {
    fn new(r: &mut Rng, team: &'static str, i: usize) -> Self {
        let name = format!("{}-{}-{i}", pick(r, &WORDS), pick(r, &WORDS));
        let registry = *pick(
            r,
            &[
                "ghcr.io/example",
                "registry.example.com/apps",
                "docker.io/example",
            ],
        );
        App {
            image: format!(
                "{registry}/{name}:v{}.{}.{}",
                1 + r.below(3),
                r.below(20),
                r.below(10)
            ),
            namespace: format!("{team}-{}", pick(r, &ENVS)),
            port: *pick(r, &[8080, 8000, 3000, 9000, 5000]),
            name,
            team,
        }
    }

    fn labels(&self) -> Value {
        json!({
            "app.kubernetes.io/name": self.name,
            "app.kubernetes.io/instance": format!("{}-{}", self.name, self.namespace),
            "app.kubernetes.io/part-of": self.team,
            "app.kubernetes.io/managed-by": "argocd",
        })
    }

    fn selector(&self) -> Value {
        json!({"app.kubernetes.io/name": self.name, "app.kubernetes.io/instance": format!("{}-{}", self.name, self.namespace)})
    }

    fn meta(&self, r: &mut Rng, suffix: &str) -> Value {
        let mut m = json!({
            "name": format!("{}{suffix}", self.name),
            "namespace": self.namespace,
            "labels": self.labels(),
        });
        if r.percent(40) {
            m["annotations"] = json!({
                "argocd.argoproj.io/sync-wave": r.below(5).to_string(),
                "example.com/owner": format!("team-{}@example.com", self.team),
            });
        }
        m
    }

    fn container(&self, r: &mut Rng, probes: bool) -> Value {
        let mut env = vec![
            json!({"name": "LOG_LEVEL", "value": *pick(r, &["info", "debug", "warn"])}),
            json!({"name": "POD_NAMESPACE", "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}}),
        ];
        for k in 0..r.below(10) {
            env.push(match r.below(3) {
                0 => json!({"name": format!("FEATURE_{k}"), "value": (r.below(2) == 1).to_string()}),
                1 => json!({"name": format!("CONFIG_{k}"), "valueFrom": {"configMapKeyRef": {"name": self.name, "key": format!("key-{k}")}}}),
                _ => json!({"name": format!("SECRET_{k}"), "valueFrom": {"secretKeyRef": {"name": self.name, "key": format!("secret-{k}"), "optional": true}}}),
            });
        }
        let cpu = *pick(r, &["50m", "100m", "250m", "500m", "1"]);
        let mem = *pick(r, &["64Mi", "128Mi", "256Mi", "512Mi", "1Gi", "2Gi"]);
        let mut c = json!({
            "name": self.name,
            "image": self.image,
            "imagePullPolicy": "IfNotPresent",
            "env": env,
            "ports": [{"name": "http", "containerPort": self.port, "protocol": "TCP"}],
            "resources": {
                "requests": {"cpu": cpu, "memory": mem},
                "limits": {"memory": mem},
            },
            "volumeMounts": [
                {"name": "config", "mountPath": "/etc/app", "readOnly": true},
                {"name": "tmp", "mountPath": "/tmp"},
            ],
            "securityContext": {
                "allowPrivilegeEscalation": false,
                "readOnlyRootFilesystem": true,
                "capabilities": {"drop": ["ALL"]},
            },
        });
        if r.percent(50) {
            c["args"] = json!([
                format!("--port={}", self.port),
                "--config=/etc/app/config.yaml"
            ]);
        }
        if r.percent(30) {
            c["ports"].as_array_mut().into_iter().for_each(|p| {
                p.push(json!({"name": "metrics", "containerPort": 9090, "protocol": "TCP"}))
            });
        }
        if probes {
            c["readinessProbe"] = json!({
                "httpGet": {"path": "/readyz", "port": "http"},
                "initialDelaySeconds": 5,
                "periodSeconds": 10,
            });
            c["livenessProbe"] = json!({
                "httpGet": {"path": "/healthz", "port": "http"},
                "initialDelaySeconds": 15,
                "periodSeconds": 20,
                "failureThreshold": 3,
            });
        }
        c
    }

    fn pod_spec(&self, r: &mut Rng, probes: bool) -> Value {
        let mut containers = vec![self.container(r, probes)];
        if r.percent(20) {
            containers.push(json!({
                "name": "log-shipper",
                "image": "docker.io/fluent/fluent-bit:3.1.4",
                "args": ["--config=/fluent-bit/etc/fluent-bit.conf"],
                "resources": {"requests": {"cpu": "10m", "memory": "32Mi"}, "limits": {"memory": "64Mi"}},
                "volumeMounts": [{"name": "tmp", "mountPath": "/var/log/app"}],
            }));
        }
        let mut spec = json!({
            "serviceAccountName": self.name,
            "securityContext": {"runAsNonRoot": true, "runAsUser": 10001, "fsGroup": 10001, "seccompProfile": {"type": "RuntimeDefault"}},
            "terminationGracePeriodSeconds": 30,
            "containers": containers,
            "volumes": [
                {"name": "config", "configMap": {"name": self.name}},
                {"name": "tmp", "emptyDir": {}},
            ],
        });
        if r.percent(30) {
            spec["nodeSelector"] = json!({"kubernetes.io/os": "linux", "node.example.com/pool": *pick(r, &["general", "highmem", "spot"])});
        }
        if r.percent(20) {
            spec["tolerations"] = json!([{"key": "dedicated", "operator": "Equal", "value": self.team, "effect": "NoSchedule"}]);
        }
        if r.percent(25) {
            spec["affinity"] = json!({"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{
                "weight": 100,
                "podAffinityTerm": {"topologyKey": "kubernetes.io/hostname", "labelSelector": {"matchLabels": self.selector()}},
            }]}});
        }
        spec
    }

    fn template(&self, r: &mut Rng, probes: bool) -> Value {
        json!({
            "metadata": {"labels": self.labels(), "annotations": {"prometheus.io/scrape": "true"}},
            "spec": self.pod_spec(r, probes),
        })
    }
}

/// An application's objects: a workload (a Deployment mostly, else a
/// StatefulSet or a CronJob) and some of its ServiceAccount, ConfigMap,
/// Secret, Service, Ingress, HorizontalPodAutoscaler,
/// PodDisruptionBudget, NetworkPolicy, Role and RoleBinding.
fn app_bundle(r: &mut Rng, a: &App) -> Vec<Value> {
    let mut out = Vec::new();
    let workload = match r.below(100) {
        0..75 => "Deployment",
        75..90 => "StatefulSet",
        _ => "CronJob",
    };
    if r.percent(70) {
        out.push(json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": a.meta(r, ""), "automountServiceAccountToken": false}));
    }
    if r.percent(80) {
        let mut data = serde_json::Map::new();
        data.insert(
            "config.yaml".into(),
            json!(format!(
                "server:\n  port: {}\n  shutdownTimeout: 30s\nlogging:\n  level: info\n  format: json\n",
                a.port
            )),
        );
        for k in 0..r.below(8) {
            data.insert(
                format!("key-{k}"),
                json!(format!("value-{}", r.below(1000))),
            );
        }
        out.push(json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": a.meta(r, ""), "data": data}));
    }
    if r.percent(30) {
        out.push(json!({"apiVersion": "v1", "kind": "Secret", "metadata": a.meta(r, ""), "type": "Opaque",
            "data": {"secret-0": "c2VjcmV0LXZhbHVl", "secret-1": "cGFzc3dvcmQ="}}));
    }
    let replicas = 1 + r.below(5);
    match workload {
        "Deployment" => out.push(json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": a.meta(r, ""), "spec": {
            "replicas": replicas,
            "revisionHistoryLimit": 5,
            "selector": {"matchLabels": a.selector()},
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 0}},
            "template": a.template(r, true),
        }})),
        "StatefulSet" => out.push(json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": a.meta(r, ""), "spec": {
            "replicas": replicas,
            "serviceName": a.name,
            "podManagementPolicy": "OrderedReady",
            "updateStrategy": {"type": "RollingUpdate"},
            "selector": {"matchLabels": a.selector()},
            "template": a.template(r, true),
            "volumeClaimTemplates": [{
                "metadata": {"name": "data"},
                "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "standard",
                         "resources": {"requests": {"storage": *pick(r, &["1Gi", "10Gi", "50Gi"])}}},
            }],
        }})),
        _ => {
            let mut template = a.template(r, false);
            template["spec"]["restartPolicy"] = json!("OnFailure");
            out.push(json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": a.meta(r, ""), "spec": {
                "schedule": *pick(r, &["*/15 * * * *", "0 * * * *", "30 2 * * *"]),
                "concurrencyPolicy": "Forbid",
                "successfulJobsHistoryLimit": 3,
                "failedJobsHistoryLimit": 1,
                "jobTemplate": {"spec": {"backoffLimit": 2, "template": template}},
            }}));
        }
    }
    if workload != "CronJob" && r.percent(95) {
        let mut ports =
            vec![json!({"name": "http", "port": 80, "targetPort": "http", "protocol": "TCP"})];
        if r.percent(30) {
            ports.push(
                json!({"name": "metrics", "port": 9090, "targetPort": 9090, "protocol": "TCP"}),
            );
        }
        out.push(
            json!({"apiVersion": "v1", "kind": "Service", "metadata": a.meta(r, ""), "spec": {
                "type": "ClusterIP", "selector": a.selector(), "ports": ports,
            }}),
        );
        if r.percent(30) {
            let host = format!("{}.{}.example.com", a.name, a.team);
            out.push(json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": a.meta(r, ""), "spec": {
                "ingressClassName": "nginx",
                "tls": [{"hosts": [host], "secretName": format!("{}-tls", a.name)}],
                "rules": [{"host": host, "http": {"paths": [{
                    "path": "/", "pathType": "Prefix",
                    "backend": {"service": {"name": a.name, "port": {"name": "http"}}},
                }]}}],
            }}));
        }
    }
    if workload == "Deployment" && r.percent(40) {
        out.push(json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": a.meta(r, ""), "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": a.name},
            "minReplicas": 2,
            "maxReplicas": 10 + r.below(20),
            "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}}],
        }}));
    }
    if workload != "CronJob" && r.percent(35) {
        out.push(json!({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": a.meta(r, ""), "spec": {
            "maxUnavailable": 1, "selector": {"matchLabels": a.selector()},
        }}));
    }
    if r.percent(25) {
        out.push(json!({"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "metadata": a.meta(r, ""), "spec": {
            "podSelector": {"matchLabels": a.selector()},
            "policyTypes": ["Ingress"],
            "ingress": [{
                "from": [{"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "ingress-nginx"}}}],
                "ports": [{"protocol": "TCP", "port": a.port}],
            }],
        }}));
    }
    if r.percent(15) {
        out.push(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": a.meta(r, ""), "rules": [
            {"apiGroups": [""], "resources": ["configmaps", "secrets"], "verbs": ["get", "list", "watch"]},
        ]}));
        out.push(json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": a.meta(r, ""),
            "subjects": [{"kind": "ServiceAccount", "name": a.name, "namespace": a.namespace}],
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": a.name},
        }));
    }
    out
}

/// Makes a built-in object invalid: a mistake its kind has a place for
/// (`bench-gate`'s case names); the case.
fn break_builtin(obj: &mut Value, r: &mut Rng) -> &'static str {
    let kind = obj["kind"].as_str().unwrap_or_default().to_string();
    let pod = match kind.as_str() {
        "Deployment" | "StatefulSet" => Some("/spec/template/spec"),
        "CronJob" => Some("/spec/jobTemplate/spec/template/spec"),
        _ => None,
    };
    let mut cases = vec!["metadata-name"];
    match kind.as_str() {
        "Deployment" | "StatefulSet" | "CronJob" | "Service" => {
            cases.extend(["wrong-type", "missing-required", "unknown-field"]);
        }
        "ConfigMap" | "HorizontalPodAutoscaler" => cases.extend(["wrong-type", "unknown-field"]),
        "Ingress" | "RoleBinding" => cases.extend(["missing-required", "unknown-field"]),
        _ => {}
    }
    let case = *pick(r, &cases);
    let container = pod.map(|p| format!("{p}/containers/0"));
    let container = container.as_deref();
    let remove = |obj: &mut Value, at: &str, key: &str| {
        if let Some(m) = obj.pointer_mut(at).and_then(Value::as_object_mut) {
            m.remove(key);
        }
    };
    let set = |obj: &mut Value, at: &str, key: &str, v: Value| {
        if let Some(m) = obj.pointer_mut(at).and_then(Value::as_object_mut) {
            m.insert(key.to_string(), v);
        }
    };
    match (case, kind.as_str()) {
        ("metadata-name", _) => {
            let name = obj["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            obj["metadata"]["name"] = json!(format!("Invalid_{}", name.replace('-', "_")));
        }
        ("wrong-type", "Deployment" | "StatefulSet") => {
            set(obj, "/spec", "replicas", json!("three"));
        }
        ("wrong-type", "CronJob") => set(obj, "/spec", "successfulJobsHistoryLimit", json!("3")),
        ("wrong-type", "Service") => set(obj, "/spec/ports/0", "port", json!("http")),
        ("wrong-type", "ConfigMap") => set(obj, "/data", "replicas", json!(3)),
        ("wrong-type", _) => set(obj, "/spec", "minReplicas", json!("two")),
        ("missing-required", "Service") => remove(obj, "/spec/ports/0", "port"),
        ("missing-required", "Ingress") => {
            remove(obj, "/spec/rules/0/http/paths/0", "pathType");
        }
        ("missing-required", "RoleBinding") => remove(obj, "", "roleRef"),
        ("missing-required", _) => {
            if let Some(c) = container {
                remove(obj, c, "name");
            }
        }
        ("unknown-field", "Service") => set(obj, "/spec", "selecter", json!({"app": "x"})),
        ("unknown-field", "ConfigMap") => set(obj, "/metadata", "label", json!({"app": "x"})),
        ("unknown-field", "Ingress") => {
            set(obj, "/spec/rules/0", "hosts", json!(["x.example.com"]))
        }
        ("unknown-field", "RoleBinding") => set(obj, "/roleRef", "namespace", json!("default")),
        ("unknown-field", "HorizontalPodAutoscaler") => set(obj, "/spec", "targetCPU", json!(70)),
        ("unknown-field", _) => {
            if let Some(c) = container {
                set(obj, c, "imagePullPolicyy", json!("Always"));
            }
        }
        _ => {}
    }
    case
}

/// A file of one valid object of each type (the chosen CRD versions, the
/// built-in kinds of [`app_bundle`]): `validate` on it costs what a run
/// costs whatever the number of objects (reading the CRDs, building the
/// admissions).
fn write_probe(chosen: &[Chosen], dir: &Path) -> Result<()> {
    let mut r = Rng(gate_bench::seed(&["bench-validate-scale", "probe"]));
    let mut patterns = Patterns::default();
    let mut text = String::new();
    let mut seen = HashSet::new();
    // Bundles until every kind has come up (at most a few hundred).
    for i in 0..500 {
        let app = App::new(&mut r, "platform", i);
        for obj in app_bundle(&mut r, &app) {
            if seen.insert(obj["kind"].to_string()) {
                text.push_str("---\n");
                text.push_str(&yaml(&obj));
            }
        }
    }
    for c in chosen {
        let v = &c.version;
        let mut g = Gen::new(
            gate_bench::seed(&[&v.group, &v.kind, "probe"]),
            &mut patterns,
            true,
        );
        let obj = build_object(v, "probe", &mut g);
        text.push_str("---\n");
        text.push_str(&yaml(&obj));
    }
    fs::create_dir_all(dir)?;
    fs::write(dir.join("probe.yaml"), text)?;
    let load = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "load", "namespace": "default"}, "data": {"a": "b"}});
    fs::write(dir.join("load.yaml"), format!("---\n{}", yaml(&load)))?;
    Ok(())
}

/// The JSON Schemas kubeconform reads: the chosen CRD versions' and the
/// built-in kinds' of the repository, converted as `bench-gate` converts
/// CRDs; how many.
fn write_schemas(chosen: &[Chosen], repo: &Repo, dir: &Path) -> Result<usize> {
    let mut n = 0;
    for c in chosen {
        let v = &c.version;
        write_schema(dir, &v.group, &v.kind, &v.version, &v.schema)?;
        n += 1;
    }
    let kinds = builtin_kinds();
    for (api_version, kind) in repo.kinds.keys() {
        let k = kinds
            .iter()
            .find(|k| k.api_version == api_version && k.kind == kind)
            .with_context(|| format!("no built-in kind {api_version} {kind}"))?;
        let schema = k
            .schema()
            .with_context(|| format!("the schema of {api_version} {kind}"))?
            .to_value();
        write_schema(dir, k.group, k.kind, k.version, &schema)?;
        n += 1;
    }
    Ok(n)
}

// ---------------------------------------------------------------------------
// Running the tools

/// `schema-gen validate --crd crds --jobs J DIR` in the bench directory.
fn ours_command(schema_gen: &Path, bench: &Path, dir: &str, jobs: usize) -> Command {
    let mut cmd = Command::new(schema_gen);
    cmd.current_dir(bench)
        .args(["validate", "--crd", "crds", "--jobs"])
        .arg(jobs.to_string())
        .arg(dir);
    cmd
}

/// `kubeconform -schema-location T -strict -summary -n J [-output json
/// -verbose] repo` in the bench directory.
fn kubeconform_command(kubeconform: &Path, bench: &Path, jobs: usize, verbose: bool) -> Command {
    let mut cmd = Command::new(kubeconform);
    cmd.current_dir(bench)
        .args([
            "-schema-location",
            SCHEMA_TEMPLATE,
            "-strict",
            "-summary",
            "-n",
        ])
        .arg(jobs.to_string());
    if verbose {
        cmd.args(["-output", "json", "-verbose"]);
    }
    cmd.arg("repo");
    cmd
}

/// One timed run.
struct Run {
    m: Measured,
    /// The CPU time the rest of the machine used meanwhile (the busy time
    /// of `/proc/stat` less the command's own): what competed with it.
    others: Option<f64>,
}

/// Runs `cmd` under GNU time (CPU time and peak RSS into `rss`), its
/// standard output discarded; exit status 0 or 1 (invalid objects)
/// expected.
fn measured(cmd: &Command, rss: &Path) -> Result<Run> {
    let before = busy_ticks();
    let m = measure::run_measured(cmd, Stdio::null(), Some(rss))?;
    let after = busy_ticks();
    if !matches!(m.status.code(), Some(0 | 1)) {
        bail!(
            "{} failed ({}):\n{}",
            cmd.get_program().to_string_lossy(),
            m.status,
            String::from_utf8_lossy(&m.stderr)
        );
    }
    let others = before.zip(after).zip(m.cpu_secs).map(|((a, b), own)| {
        (b.saturating_sub(a) as f64 / gate_bench::clock_ticks() - own).max(0.0)
    });
    Ok(Run { m, others })
}

/// How often a disturbed run is tried again.
const RETRIES: usize = 3;

/// Timed runs that are tried again when other processes competed for the
/// cores: when they used more than a tenth of a core on average during
/// the run, it is run again (after a second), up to [`RETRIES`] times,
/// and the least disturbed try kept.
struct Calm<'a> {
    /// Where GNU time writes.
    rss: &'a Path,
    /// Runs tried again.
    repeated: usize,
    /// Runs kept disturbed, after every try.
    disturbed: usize,
}

impl Calm<'_> {
    fn run(&mut self, cmd: &Command) -> Result<Run> {
        let mut best: Option<Run> = None;
        for attempt in 0..=RETRIES {
            if attempt > 0 {
                self.repeated += 1;
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
            let run = measured(cmd, self.rss)?;
            let others = run.others.unwrap_or(0.0);
            if others <= 0.02 + 0.1 * run.m.sample.secs {
                return Ok(run);
            }
            if best
                .as_ref()
                .is_none_or(|b| others < b.others.unwrap_or(0.0))
            {
                best = Some(run);
            }
        }
        self.disturbed += 1;
        best.context("a run was made")
    }
}

/// The machine's busy time so far, in clock ticks: all but idle and
/// iowait of the `cpu` line of `/proc/stat`.
fn busy_ticks() -> Option<u64> {
    let stat = fs::read_to_string("/proc/stat").ok()?;
    let fields: Vec<u64> = stat
        .lines()
        .next()?
        .split_whitespace()
        .skip(1)
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    Some(
        fields
            .iter()
            .enumerate()
            .filter(|(i, _)| !matches!(i, 3 | 4))
            .map(|(_, t)| t)
            .sum(),
    )
}

/// What a tool said of one object.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Said {
    Valid,
    Invalid,
    /// Not validated (no schema, say).
    Failed,
}

/// A tool's verdicts by file, kind and object name, and its summary line.
struct Verdicts {
    by_object: HashMap<(String, String, String), Said>,
    /// Documents it could not validate that have no name to match.
    unmatched: usize,
    summary: String,
}

/// schema-gen's verdicts (`-o json`, 2 jobs): invalid when it reports
/// errors or a rejection.
fn ours_verdicts(schema_gen: &Path, bench: &Path, strict: bool) -> Result<Verdicts> {
    let mut cmd = ours_command(schema_gen, bench, "repo", 2);
    cmd.args(["-o", "json"]);
    if strict {
        cmd.arg("--strict");
    }
    let out = cmd.output().context("running schema-gen validate")?;
    if !matches!(out.status.code(), Some(0 | 1)) {
        bail!(
            "schema-gen validate failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let doc: Value =
        serde_json::from_slice(&out.stdout).context("reading schema-gen's JSON output")?;
    let mut by_object = HashMap::new();
    for o in doc["objects"].as_array().into_iter().flatten() {
        let key = (
            o["file"].as_str().unwrap_or_default().to_string(),
            o["object"]["kind"].as_str().unwrap_or_default().to_string(),
            o["object"]["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        );
        let bad = o["errors"].as_array().is_some_and(|e| !e.is_empty())
            || o.get("rejected").is_some_and(|r| !r.is_null());
        by_object.insert(key, if bad { Said::Invalid } else { Said::Valid });
    }
    let s = &doc["summary"];
    Ok(Verdicts {
        by_object,
        unmatched: doc["unprocessed"].as_array().map_or(0, Vec::len),
        summary: format!(
            "{} objects: {} valid, {} invalid, {} skipped, {} errors",
            s["objects"], s["valid"], s["invalid"], s["skipped"], s["errors"]
        ),
    })
}

/// kubeconform's verdicts (`-output json -verbose`, 2 goroutines).
fn kubeconform_verdicts(kubeconform: &Path, bench: &Path) -> Result<Verdicts> {
    let out = kubeconform_command(kubeconform, bench, 2, true)
        .output()
        .context("running kubeconform")?;
    if !matches!(out.status.code(), Some(0 | 1)) {
        bail!(
            "kubeconform failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let doc: Value =
        serde_json::from_slice(&out.stdout).context("reading kubeconform's JSON output")?;
    let mut by_object = HashMap::new();
    let mut unmatched = 0;
    for r in doc["resources"].as_array().into_iter().flatten() {
        let said = match r["status"].as_str() {
            Some("statusValid") => Said::Valid,
            Some("statusInvalid") => Said::Invalid,
            _ => Said::Failed,
        };
        let name = r["name"].as_str().unwrap_or_default();
        if name.is_empty() {
            unmatched += 1;
            continue;
        }
        by_object.insert(
            (
                r["filename"].as_str().unwrap_or_default().to_string(),
                r["kind"].as_str().unwrap_or_default().to_string(),
                name.to_string(),
            ),
            said,
        );
    }
    let s = &doc["summary"];
    Ok(Verdicts {
        by_object,
        unmatched,
        summary: format!(
            "{} valid, {} invalid, {} errors, {} skipped",
            s["valid"], s["invalid"], s["errors"], s["skipped"]
        ),
    })
}

/// The 1, 5 and 15 minute load averages (`/proc/loadavg`).
fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".to_string())
}

// ---------------------------------------------------------------------------
// The report

struct Report<'a> {
    o: &'a Options,
    accepted: &'a [CorpusCrdFile],
    crd_files: usize,
    chosen: &'a [Chosen],
    repo: &'a Repo,
    repo2: Option<&'a Repo>,
    schemas: usize,
    kubeconform: Option<&'a Kubeconform>,
    floor: Stats,
    /// The parse floor of the CRD files.
    crd_floor: Stats,
    /// The size of the CRD files.
    crd_bytes: u64,
    floor_in_process: bool,
    timed: &'a BTreeMap<(&'a str, usize), Vec<Run>>,
    double: &'a [Run],
    verdicts: &'a [(&'a str, Verdicts)],
    load: (String, String),
    /// Timed runs repeated, and kept disturbed ([`Calm`]).
    calm: (usize, usize),
    notes: &'a [String],
}

/// Median wall time, its range, CPU time and peak RSS (MB) of some runs.
struct Summary {
    wall: Stats,
    cpu: Option<f64>,
    rss_mb: Option<f64>,
    /// The median CPU time of other processes during a run.
    others: Option<f64>,
}

fn summarize(runs: &[Run]) -> Option<Summary> {
    if runs.is_empty() {
        return None;
    }
    let cpu: Option<Vec<f64>> = runs.iter().map(|r| r.m.cpu_secs).collect();
    let others: Option<Vec<f64>> = runs.iter().map(|r| r.others).collect();
    let samples: Vec<measure::Sample> = runs.iter().map(|r| r.m.sample).collect();
    Some(Summary {
        wall: stats(runs.iter().map(|r| r.m.sample.secs)),
        cpu: cpu.map(|c| stats(c.into_iter()).median),
        rss_mb: measure::median_rss_mb(&samples),
        others: others.map(|c| stats(c.into_iter()).median),
    })
}

fn verdict(ok: bool) -> &'static str {
    if ok { "met" } else { "**missed**" }
}

impl Report<'_> {
    fn get(&self, tool: &str, jobs: usize) -> Option<Summary> {
        self.timed.get(&(tool, jobs)).and_then(|r| summarize(r))
    }

    fn render(&self) -> String {
        let mut out = String::new();
        let repo = self.repo;
        let n = repo.objects.len() as f64;
        let mb = repo.bytes as f64 / 1e6;
        let builtin = repo.objects.iter().filter(|o| o.builtin).count();
        let invalid = repo.objects.iter().filter(|o| o.case.is_some()).count();
        let _ = writeln!(
            out,
            "\n# bench-validate-scale: schema-gen validate at scale\n"
        );
        let _ = writeln!(
            out,
            "Repository `target/bench-validate-scale/repo`: {} objects ({builtin} of {} \
             built-in kinds, {} of {} CRD versions from {} CRD files; {invalid} deliberately \
             invalid) in {} files ({} with one object, the others multi-document) in {} \
             folders, {mb:.2} MB.\n",
            repo.objects.len(),
            repo.kinds.len(),
            repo.objects.len() - builtin,
            self.chosen.len(),
            self.crd_files,
            repo.files,
            repo.single,
            repo.dirs,
        );
        let cores = std::thread::available_parallelism().map_or(0, usize::from);
        let _ = writeln!(
            out,
            "- machine: {cores} cores; load average (1, 5, 15 min) before the timed runs {}, \
             after {}; {} timed runs repeated because other processes used more than a tenth \
             of a core during them, {} kept so after {RETRIES} more tries (the least disturbed \
             try)",
            self.load.0, self.load.1, self.calm.0, self.calm.1
        );
        let _ = writeln!(
            out,
            "- schema-gen (release): `schema-gen validate --crd crds --jobs J repo` (text \
             output), in `target/bench-validate-scale/`"
        );
        match self.kubeconform {
            Some(k) => {
                let _ = writeln!(
                    out,
                    "- kubeconform {} (built with {}): `kubeconform -schema-location '{}' \
                     -strict -summary -n J repo`; {} JSON schemas under `schemas/` (the CRD \
                     versions' and the built-in kinds' from `builtin_kinds()`, converted as \
                     bench-gate converts CRDs)",
                    k.version, k.go, SCHEMA_TEMPLATE, self.schemas
                );
            }
            None => {
                let _ = writeln!(out, "- kubeconform: not run");
            }
        }
        let _ = writeln!(
            out,
            "- parse floor: every file read and parsed with \
             `schema_core::model::source::parse_documents` (source maps, default limits), one \
             thread, mimalloc, {}",
            if self.floor_in_process {
                "in this process (a release build)"
            } else {
                "in a release build of xtask (`cargo xtask` is a debug build)"
            }
        );
        let _ = writeln!(
            out,
            "- CPU time (user + system) and peak memory (max RSS of the process): GNU time \
             (`/usr/bin/time -f '%U %S %M'`)"
        );
        for note in self.notes {
            let _ = writeln!(out, "- {note}");
        }

        let _ = writeln!(out, "\n## Throughput\n");
        let _ = writeln!(
            out,
            "Median of {} runs [min-max]; MB = 10^6 bytes of YAML read; other CPU: the CPU \
             time other processes used during a run (median), which competes for the cores.\n",
            self.o.runs
        );
        let _ = writeln!(
            out,
            "| what | jobs | wall s | CPU s | objects/s | MB/s | max RSS MB | other CPU s |\n\
             | --- | --- | --- | --- | --- | --- | --- | --- |"
        );
        let _ = writeln!(
            out,
            "| parse floor: `repo/` | 1 | {:.3} [{:.3}-{:.3}] | - | {:.0} | {:.1} | - | - |",
            self.floor.median,
            self.floor.min,
            self.floor.max,
            n / self.floor.median,
            mb / self.floor.median
        );
        let _ = writeln!(
            out,
            "| parse floor: `crds/` (the {} CRD files, {:.2} MB, which validate reads too) | 1 \
             | {:.3} [{:.3}-{:.3}] | - | - | {:.1} | - | - |",
            self.crd_files,
            self.crd_bytes as f64 / 1e6,
            self.crd_floor.median,
            self.crd_floor.min,
            self.crd_floor.max,
            self.crd_bytes as f64 / 1e6 / self.crd_floor.median,
        );
        let row = |out: &mut String, label: &str, jobs: usize, s: &Summary, rate: bool| {
            let (per_s, mb_s) = if rate {
                (
                    format!("{:.0}", n / s.wall.median),
                    format!("{:.1}", mb / s.wall.median),
                )
            } else {
                ("-".to_string(), "-".to_string())
            };
            let _ = writeln!(
                out,
                "| {label} | {jobs} | {:.3} [{:.3}-{:.3}] | {} | {per_s} | {mb_s} | {} | {} |",
                s.wall.median,
                s.wall.min,
                s.wall.max,
                measure::or_dash(s.cpu, 2),
                measure::or_dash(s.rss_mb, 1),
                measure::or_dash(s.others, 2),
            );
        };
        for (tool, label) in [
            ("schema-gen", "schema-gen validate"),
            ("kubeconform", "kubeconform -strict"),
        ] {
            for jobs in JOBS {
                if let Some(s) = self.get(tool, jobs) {
                    row(&mut out, label, jobs, &s, true);
                }
            }
        }
        let probe = self.get("probe", 1);
        if let Some(s) = self.get("load", 1) {
            row(
                &mut out,
                "schema-gen, reading the CRDs only: `probe/load.yaml` (one ConfigMap)",
                1,
                &s,
                false,
            );
        }
        if let Some(s) = &probe {
            let label = format!(
                "schema-gen fixed cost: `probe/probe.yaml` (one object of each of the {} types)",
                repo.kinds.len() + self.chosen.len()
            );
            row(&mut out, &label, 1, s, false);
        }

        let _ = writeln!(out, "\n## Ratios\n");
        let _ = writeln!(
            out,
            "Of the medians, and of the best of the {} runs (the least disturbed).\n",
            self.o.runs
        );
        let _ = writeln!(
            out,
            "| ratio | medians | best runs | target |\n| --- | --- | --- | --- |"
        );
        let one = self.get("schema-gen", 1);
        let two = self.get("schema-gen", 2);
        let ratio = |out: &mut String, what: &str, median: f64, best: f64, target: String| {
            let _ = writeln!(out, "| {what} | {median:.2} | {best:.2} | {target} |");
        };
        if let Some(one) = &one {
            let (m, b) = (
                one.wall.median / self.floor.median,
                one.wall.min / self.floor.min,
            );
            let target = format!("≤ {PARSE_TARGET}: {}", verdict(m <= PARSE_TARGET));
            ratio(
                &mut out,
                "validate, 1 job / parse floor (wall)",
                m,
                b,
                target,
            );
            ratio(
                &mut out,
                "validate, 1 job / parse floor of `repo/` and `crds/`",
                one.wall.median / (self.floor.median + self.crd_floor.median),
                one.wall.min / (self.floor.min + self.crd_floor.min),
                "(for reading)".to_string(),
            );
            if let Some(p) = &probe {
                ratio(
                    &mut out,
                    "(validate, 1 job − fixed cost) / parse floor",
                    (one.wall.median - p.wall.median) / self.floor.median,
                    (one.wall.min - p.wall.min) / self.floor.min,
                    "(for reading: the cost per object)".to_string(),
                );
            }
        }
        if let (Some(one), Some(two)) = (&one, &two) {
            let (m, b) = (
                one.wall.median / two.wall.median,
                one.wall.min / two.wall.min,
            );
            let target = format!("≥ {SPEEDUP_TARGET}: {}", verdict(m >= SPEEDUP_TARGET));
            ratio(
                &mut out,
                "validate speedup, 1 → 2 jobs (wall)",
                m,
                b,
                target,
            );
            if let (Some(a), Some(b)) = (one.cpu, two.cpu) {
                let _ = writeln!(
                    out,
                    "| validate CPU time, 2 jobs / 1 job | {:.2} | - | (for reading: 1.0 is no \
                     overhead) |",
                    b / a
                );
            }
            if let Some(p) = &probe {
                ratio(
                    &mut out,
                    "validate speedup 1 → 2 jobs, fixed cost taken off both",
                    (one.wall.median - p.wall.median) / (two.wall.median - p.wall.median),
                    (one.wall.min - p.wall.min) / (two.wall.min - p.wall.min),
                    "(for reading)".to_string(),
                );
            }
        }
        for jobs in JOBS {
            if let (Some(a), Some(b)) =
                (self.get("schema-gen", jobs), self.get("kubeconform", jobs))
            {
                let r = b.wall.median / a.wall.median;
                ratio(
                    &mut out,
                    &format!(
                        "kubeconform / schema-gen wall, {jobs} job{}",
                        if jobs == 1 { "" } else { "s" }
                    ),
                    r,
                    b.wall.min / a.wall.min,
                    format!(
                        "(medians: {} is {:.2}x faster)",
                        if r >= 1.0 {
                            "schema-gen"
                        } else {
                            "kubeconform"
                        },
                        if r >= 1.0 { r } else { 1.0 / r }
                    ),
                );
            }
        }
        if let (Some(a), Some(b)) = (self.get("kubeconform", 1), self.get("kubeconform", 2)) {
            ratio(
                &mut out,
                "kubeconform speedup, 1 → 2 goroutines (wall)",
                a.wall.median / b.wall.median,
                a.wall.min / b.wall.min,
                "(for reading)".to_string(),
            );
        }

        let _ = writeln!(out, "\n## Peak memory (max RSS of schema-gen validate)\n");
        let _ = writeln!(
            out,
            "| repository | objects | MB | 1 job | 2 jobs |\n| --- | --- | --- | --- | --- |"
        );
        let rss = |s: Option<&Summary>| {
            s.and_then(|s| s.rss_mb)
                .map_or("-".to_string(), |m| format!("{m:.1} MB"))
        };
        let _ = writeln!(
            out,
            "| `repo` (median of {}) | {} | {mb:.2} | {} | {} |",
            self.o.runs,
            repo.objects.len(),
            rss(one.as_ref()),
            rss(two.as_ref())
        );
        if let Some(r2) = self.repo2 {
            let cell = |i: usize| {
                self.double
                    .get(i)
                    .map(|r| {
                        format!(
                            "{} MB ({:.2} s)",
                            measure::or_dash(r.m.sample.rss_kb.map(|k| k as f64 / 1024.0), 1),
                            r.m.sample.secs
                        )
                    })
                    .unwrap_or_else(|| "-".to_string())
            };
            let _ = writeln!(
                out,
                "| `repo-2x` (one run) | {} | {:.2} | {} | {} |",
                r2.objects.len(),
                r2.bytes as f64 / 1e6,
                cell(0),
                cell(1)
            );
        }
        let load = self.get("load", 1).and_then(|s| s.rss_mb);
        if let (Some(l), Some(p)) = (load, probe.as_ref().and_then(|p| p.rss_mb)) {
            let _ = writeln!(
                out,
                "\nschema-gen with the CRDs read only (`probe/load.yaml`): {l:.1} MB; with one \
                 object of each type (`probe/probe.yaml`, every admission built): {p:.1} MB."
            );
        }
        if let (Some(k1), Some(k2)) = (
            self.get("kubeconform", 1).and_then(|s| s.rss_mb),
            self.get("kubeconform", 2).and_then(|s| s.rss_mb),
        ) {
            let _ = writeln!(
                out,
                "kubeconform on `repo`: {k1:.1} MB (1 goroutine), {k2:.1} MB (2)."
            );
        }

        self.verdict_table(&mut out);
        self.crd_table(&mut out);
        out
    }

    fn verdict_table(&self, out: &mut String) {
        let _ = writeln!(out, "\n## What each tool flags\n");
        let _ = writeln!(
            out,
            "Objects flagged invalid (+ not validated at all), by how they were built. The \
             CRD objects built to be valid come from bench-gate's generator, which fills \
             required fields and guesses at CEL rules but does not solve them: a few can be \
             invalid. schema-gen without `--strict` prunes unknown fields with a warning, as \
             the API server does; kubeconform checks no `metadata`.\n"
        );
        let mut header = "| objects | count |".to_string();
        let mut rule = "| --- | --- |".to_string();
        for (tool, _) in self.verdicts {
            let _ = write!(header, " {tool} |");
            rule.push_str(" --- |");
        }
        let _ = writeln!(out, "{header}\n{rule}");
        // Row label -> objects.
        let mut rows: BTreeMap<String, Vec<&Object>> = BTreeMap::new();
        for o in &self.repo.objects {
            let label = match (o.case, o.builtin) {
                (None, true) => "0 valid: built-in kinds".to_string(),
                (None, false) => "1 valid: CRD objects".to_string(),
                (Some(c), true) => format!("2 invalid ({c}): built-in kinds"),
                (Some(c), false) => format!("3 invalid ({c}): CRD objects"),
            };
            rows.entry(label).or_default().push(o);
        }
        for (label, objects) in &rows {
            let _ = write!(out, "| {} | {} |", &label[2..], objects.len());
            for (_, v) in self.verdicts {
                let (mut bad, mut failed, mut missing) = (0, 0, 0);
                for o in objects {
                    match v
                        .by_object
                        .get(&(o.file.clone(), o.kind.clone(), o.name.clone()))
                    {
                        Some(Said::Invalid) => bad += 1,
                        Some(Said::Failed) => failed += 1,
                        Some(Said::Valid) => {}
                        None => missing += 1,
                    }
                }
                let mut cell = bad.to_string();
                if failed > 0 {
                    let _ = write!(cell, " (+{failed})");
                }
                if missing > 0 {
                    let _ = write!(cell, " ({missing} no result)");
                }
                let _ = write!(out, " {cell} |");
            }
            let _ = writeln!(out);
        }
        let _ = writeln!(out);
        // The kinds with the most objects built to be valid that a tool
        // flags.
        for (tool, v) in self.verdicts {
            let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
            for o in self.repo.objects.iter().filter(|o| o.case.is_none()) {
                let key = (o.file.clone(), o.kind.clone(), o.name.clone());
                if v.by_object.get(&key) == Some(&Said::Invalid) {
                    *by_kind.entry(o.kind.as_str()).or_default() += 1;
                }
            }
            let mut kinds: Vec<(&str, usize)> = by_kind.into_iter().collect();
            kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            if !kinds.is_empty() {
                let top: Vec<String> = kinds
                    .iter()
                    .take(6)
                    .map(|(k, n)| format!("{k} {n}"))
                    .collect();
                let _ = writeln!(
                    out,
                    "- {tool} flags objects built to be valid most in: {}",
                    top.join(", ")
                );
            }
        }
        for (tool, v) in self.verdicts {
            let extra = if v.unmatched > 0 {
                format!(" ({} results without an object name)", v.unmatched)
            } else {
                String::new()
            };
            let _ = writeln!(out, "- {tool}: {}{extra}", v.summary);
        }
    }

    fn crd_table(&self, out: &mut String) {
        let _ = writeln!(out, "\n## CRD versions\n");
        let _ = writeln!(
            out,
            "| CRD version | file | file KB | objects |\n| --- | --- | --- | --- |"
        );
        for (c, count) in self.chosen.iter().zip(&self.repo.per_crd) {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {count} |",
                c.version.label(),
                self.accepted[c.file].rel.display(),
                c.bytes / 1024
            );
        }
        let _ = writeln!(out, "\nBuilt-in kinds: {}", {
            let kinds: Vec<String> = self
                .repo
                .kinds
                .iter()
                .map(|((api, kind), n)| format!("{api} {kind} ({n})"))
                .collect();
            kinds.join(", ")
        });
    }
}
