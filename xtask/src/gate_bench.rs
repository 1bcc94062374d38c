//! `cargo xtask bench-gate`: `schema-gen validate` side by side with
//! kubeconform, as the manifest check of a CI gate.
//!
//! 1. A repository of manifests under `target/bench-gate/repo/`: the CRD
//!    files of the corpus (`SCHEMA_GEN_CORPUS_DIR`, else
//!    `../shared/corpus/crds`, else the workspace's `examples/`) that
//!    `schema-gen check` accepts, and for every served version with a
//!    schema a file of valid objects built from the schema (seeded, so the
//!    same every run) and one file per deliberately invalid object (see
//!    [`CASES`]), each made from the version's minimal object.
//! 2. kubeconform, `go install`ed into `target/bench-tools/bin` (GOBIN)
//!    from the Go module proxy unless it is there already. Without Go only
//!    schema-gen runs.
//! 3. The CRD schemas converted to JSON Schema the way kubeconform's
//!    documentation converts CRDs (see [`to_json_schema`]): one file per
//!    group, kind and version under `target/bench-gate/schemas/`, named
//!    for the `-schema-location` template [`SCHEMA_TEMPLATE`].
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

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};

use crate::gen_bench::build_schema_gen;
use crate::measure::{self, Stats, stats};

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

/// The kubeconform command's module and the version benchmarked.
const KUBECONFORM_MODULE: &str = "github.com/yannh/kubeconform/cmd/kubeconform";
const KUBECONFORM_VERSION: &str = "v0.8.0";

/// Where kubeconform finds the converted schemas (relative to the bench
/// directory, where both tools run). kubeconform lowercases the kind.
pub(crate) const SCHEMA_TEMPLATE: &str =
    "schemas/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json";

/// The deliberately invalid objects, one of each per CRD version where the
/// schema has a place for the mistake. The first six are JSON Schema
/// mistakes; the rest are what the API server checks beyond the schema's
/// JSON Schema keywords (the last one the server accepts: it defaults the
/// field before validating).
pub(crate) const CASES: [(&str, &str); 9] = [
    ("wrong-type", "a scalar (without an enum) of another type"),
    (
        "missing-required",
        "a required field (without a default) left out",
    ),
    ("enum", "a value outside the enum"),
    ("maximum", "a number above its maximum"),
    ("unknown-field", "a field the schema does not have"),
    ("pattern", "a string that does not match the pattern"),
    (
        "list-map-duplicate",
        "two items of an x-kubernetes-list-type: map list with the same keys",
    ),
    ("metadata-name", "metadata.name that is not a DNS subdomain"),
    (
        "defaulted-required",
        "(server-valid) a required field with a default left out",
    ),
];

/// The valid objects' name and namespace.
const NAMESPACE: &str = "default";

struct Options {
    runs: usize,
    objects: usize,
    jobs: usize,
    generate_only: bool,
}

fn parse_options(args: &[String]) -> Result<Options> {
    let mut o = Options {
        runs: 5,
        objects: 20,
        jobs: std::thread::available_parallelism().map_or(2, usize::from),
        generate_only: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let slot = match a.as_str() {
            "--runs" => &mut o.runs,
            "--objects" => &mut o.objects,
            "--jobs" => &mut o.jobs,
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

/// One CRD version the repository has objects for.
pub(crate) struct CrdVersion {
    pub(crate) group: String,
    pub(crate) kind: String,
    pub(crate) version: String,
    pub(crate) namespaced: bool,
    pub(crate) schema: Value,
    /// Its objects' folder, relative to the bench directory.
    dir: String,
}

impl CrdVersion {
    pub(crate) fn label(&self) -> String {
        format!("{}/{} {}", self.group, self.kind, self.version)
    }
}

/// One CRD file of the repository and what was made for it.
struct CrdFile {
    /// Relative to the bench directory.
    path: String,
    versions: Vec<CrdVersion>,
    /// The object files of its versions, relative to the bench directory.
    objects: Vec<String>,
}

/// One object of the repository.
struct Object {
    file: String,
    name: String,
    /// `CrdFile` and `CrdVersion` indices.
    crd: (usize, usize),
    /// The case, for an invalid object.
    case: Option<usize>,
    /// The field the case is about.
    field: String,
}

/// What one tool said about one object.
#[derive(Default, Clone)]
struct Verdict {
    /// Errors: the object is rejected.
    errors: Vec<String>,
    /// Notes that do not reject it (schema-gen: pruned fields, warnings).
    notes: Vec<String>,
    /// The tool could not validate the object at all (kubeconform's
    /// `statusError`, such as a schema it cannot load); `errors` says why.
    failed: bool,
}

impl Verdict {
    /// Rejected for what the object holds.
    fn rejects(&self) -> bool {
        !self.errors.is_empty() && !self.failed
    }
}

/// Runs the benchmark with the arguments after `bench-gate`.
pub fn run(args: &[String]) -> Result<()> {
    let o = parse_options(args)?;
    let root = measure::workspace_root()?;
    let bench = root.join("target").join("bench-gate");
    for dir in ["repo", "schemas"] {
        let dir = bench.join(dir);
        if dir.exists() {
            fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
        }
    }
    fs::create_dir_all(&bench)?;

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
    let ticks = clock_ticks();
    let mut ours_runs = Vec::new();
    let mut theirs_runs = Vec::new();
    for run in 0..o.runs {
        println!("timed run {}/{}", run + 1, o.runs);
        ours_runs.push(timed(ticks, || {
            run_ours(&schema_gen, &files, &bench, o.jobs)
        })?);
        if let Some(k) = &kubeconform {
            theirs_runs.push(timed(ticks, || {
                run_kubeconform(&k.path, &bench, false).map(drop)
            })?);
        }
    }

    let r = Report {
        o: &o,
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
    let report = r.render();
    print!("{report}");
    let path = bench.join("report.md");
    fs::write(&path, &report).with_context(|| format!("writing {}", path.display()))?;
    println!("(written to {})", path.display());
    Ok(())
}

// ---------------------------------------------------------------------------
// kubeconform

/// The kubeconform binary and where it came from.
pub(crate) struct Kubeconform {
    pub(crate) path: PathBuf,
    pub(crate) version: String,
    pub(crate) go: String,
}

/// kubeconform from `target/bench-tools/bin` when it is the version
/// benchmarked, else installed there with Go; `None` without Go.
pub(crate) fn find_kubeconform(root: &Path) -> Result<Option<Kubeconform>> {
    let gobin = root.join("target").join("bench-tools").join("bin");
    let path = gobin.join("kubeconform");
    let go = match Command::new("go").arg("version").output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_string(),
        _ => {
            println!(
                "go not found on PATH: kubeconform cannot be installed, so only schema-gen runs \
                 (install Go 1.26 and run again for the comparison)"
            );
            return Ok(None);
        }
    };
    let installed = |path: &Path| -> Option<String> {
        let out = Command::new("go")
            .args(["version", "-m"])
            .arg(path)
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        text.lines().map(str::split_whitespace).find_map(|mut w| {
            (w.next() == Some("mod") && w.next() == Some("github.com/yannh/kubeconform"))
                .then(|| w.next().map(str::to_string))
                .flatten()
        })
    };
    if path.is_file() && installed(&path).as_deref() == Some(KUBECONFORM_VERSION) {
        return Ok(Some(Kubeconform {
            path,
            version: KUBECONFORM_VERSION.to_string(),
            go,
        }));
    }
    println!(
        "installing kubeconform: GOBIN={} go install {KUBECONFORM_MODULE}@{KUBECONFORM_VERSION}",
        gobin.display()
    );
    fs::create_dir_all(&gobin)?;
    let status = Command::new("go")
        .arg("install")
        .arg(format!("{KUBECONFORM_MODULE}@{KUBECONFORM_VERSION}"))
        .env("GOBIN", &gobin)
        .env("GOTOOLCHAIN", "local")
        .status()
        .context("running go install")?;
    if !status.success() {
        bail!("go install {KUBECONFORM_MODULE}@{KUBECONFORM_VERSION} failed");
    }
    let version = installed(&path).unwrap_or_else(|| KUBECONFORM_VERSION.to_string());
    Ok(Some(Kubeconform { path, version, go }))
}

/// `kubeconform -schema-location T -strict -summary -output json [-verbose]
/// repo/objects` in the bench directory; its standard output. Exit status 1
/// (invalid objects) is expected.
fn run_kubeconform(kubeconform: &Path, bench: &Path, verbose: bool) -> Result<Vec<u8>> {
    let mut cmd = Command::new(kubeconform);
    cmd.current_dir(bench)
        .args(["-schema-location", SCHEMA_TEMPLATE])
        .args(["-strict", "-summary", "-output", "json"]);
    if verbose {
        cmd.arg("-verbose");
    }
    cmd.arg("repo/objects");
    let out = cmd
        .stderr(Stdio::piped())
        .stdout(if verbose {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .output()
        .context("running kubeconform")?;
    if !matches!(out.status.code(), Some(0 | 1)) {
        bail!(
            "kubeconform failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(out.stdout)
}

/// kubeconform's verdict on every object, by file and name.
fn kubeconform_verdicts(
    kubeconform: &Path,
    bench: &Path,
) -> Result<HashMap<(String, String), Verdict>> {
    let out = run_kubeconform(kubeconform, bench, true)?;
    let doc: Value = serde_json::from_slice(&out).context("reading kubeconform's JSON output")?;
    let mut verdicts = HashMap::new();
    for r in doc["resources"].as_array().into_iter().flatten() {
        let text = |k: &str| r[k].as_str().unwrap_or_default().to_string();
        let mut v = Verdict::default();
        let status = text("status");
        if status == "statusError" {
            v.failed = true;
            v.errors.push(text("msg"));
        } else if status != "statusValid" {
            let errors = r["validationErrors"].as_array();
            v.errors = errors
                .into_iter()
                .flatten()
                .map(|e| {
                    format!(
                        "{}: {}",
                        e["path"].as_str().unwrap_or_default(),
                        e["msg"].as_str().unwrap_or_default()
                    )
                })
                .collect();
            if v.errors.is_empty() {
                v.errors
                    .push(format!("{}: {}", text("status"), text("msg")));
            }
        }
        verdicts.insert((text("filename"), text("name")), v);
    }
    Ok(verdicts)
}

// ---------------------------------------------------------------------------
// schema-gen

/// `schema-gen validate --crd CRD OBJ...` for one CRD file, in the bench
/// directory, with `extra` arguments; its standard output (or nothing).
fn validate_command(schema_gen: &Path, file: &CrdFile, bench: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::new(schema_gen);
    cmd.current_dir(bench)
        .arg("validate")
        .arg("--crd")
        .arg(&file.path)
        .args(&file.objects)
        .args(extra);
    cmd
}

/// Runs `cmd`, expecting exit status 0 or 1; its standard output when
/// `capture`.
fn run_checked(mut cmd: Command, capture: bool) -> Result<Vec<u8>> {
    let out = cmd
        .stdout(if capture {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stderr(Stdio::piped())
        .output()
        .with_context(|| format!("running {}", cmd.get_program().to_string_lossy()))?;
    if !matches!(out.status.code(), Some(0 | 1)) {
        bail!(
            "{} {} failed ({}):\n{}",
            cmd.get_program().to_string_lossy(),
            cmd.get_args()
                .take(4)
                .map(|a| a.to_string_lossy())
                .collect::<Vec<_>>()
                .join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(out.stdout)
}

/// The timed side of schema-gen: every CRD file's invocation, `jobs` at a
/// time.
fn run_ours(schema_gen: &Path, files: &[CrdFile], bench: &Path, jobs: usize) -> Result<()> {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs.min(files.len()).max(1))
            .map(|_| {
                s.spawn(|| -> Result<()> {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(file) = files.get(i) else {
                            return Ok(());
                        };
                        run_checked(validate_command(schema_gen, file, bench, &[]), false)?;
                    }
                })
            })
            .collect();
        workers.into_iter().try_for_each(|w| match w.join() {
            Ok(r) => r,
            Err(_) => bail!("a schema-gen worker thread panicked"),
        })
    })
}

/// schema-gen's verdict on every object, by file and name
/// (`--output json`).
fn ours_verdicts(
    schema_gen: &Path,
    files: &[CrdFile],
    bench: &Path,
) -> Result<HashMap<(String, String), Verdict>> {
    let mut verdicts = HashMap::new();
    for file in files {
        let out = run_checked(
            validate_command(schema_gen, file, bench, &["--output", "json"]),
            true,
        )?;
        let doc: Value = serde_json::from_slice(&out)
            .with_context(|| format!("reading schema-gen's JSON output for {}", file.path))?;
        for o in doc["objects"].as_array().into_iter().flatten() {
            let name = o["object"]["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            let file = o["file"].as_str().unwrap_or_default().to_string();
            let strings = |k: &str| -> Vec<String> {
                o[k].as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|e| e.as_str().map(str::to_string))
                    .collect()
            };
            let mut notes: Vec<String> = strings("pruned")
                .into_iter()
                .map(|p| format!("warning: unknown field \"{p}\" (pruned)"))
                .collect();
            notes.extend(
                strings("warnings")
                    .into_iter()
                    .map(|w| format!("warning: {w}")),
            );
            let errors = o["errors"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|e| e["message"].as_str().unwrap_or_default().to_string())
                .collect();
            verdicts.insert(
                (file, name),
                Verdict {
                    errors,
                    notes,
                    failed: false,
                },
            );
        }
    }
    Ok(verdicts)
}

// ---------------------------------------------------------------------------
// Timing

/// One timed run: wall time and the CPU time of the child processes.
struct Timing {
    secs: f64,
    cpu: Option<f64>,
}

/// Clock ticks per second (`getconf CLK_TCK`, else 100).
pub(crate) fn clock_ticks() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .unwrap_or(100.0)
}

/// User and system time of this process's waited-for children, in ticks
/// (`cutime` and `cstime` of `/proc/self/stat`).
fn children_ticks() -> Option<u64> {
    let stat = fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Field 16 (cutime) and 17 (cstime); `rest` starts at field 3.
    let cutime: u64 = fields.get(13)?.parse().ok()?;
    let cstime: u64 = fields.get(14)?.parse().ok()?;
    Some(cutime + cstime)
}

fn timed(ticks: f64, f: impl FnOnce() -> Result<()>) -> Result<Timing> {
    let before = children_ticks();
    let start = Instant::now();
    f()?;
    let secs = start.elapsed().as_secs_f64();
    let cpu = before
        .zip(children_ticks())
        .map(|(a, b)| b.saturating_sub(a) as f64 / ticks);
    Ok(Timing { secs, cpu })
}

// ---------------------------------------------------------------------------
// The repository

/// The corpus folder, and a note for the report.
pub(crate) fn corpus_dir(root: &Path) -> (PathBuf, String) {
    let corpus = std::env::var_os("SCHEMA_GEN_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/corpus/crds"));
    match fs::canonicalize(&corpus) {
        Ok(dir) if dir.is_dir() => {
            let note = format!("CRDs: the corpus ({})", dir.display());
            (dir, note)
        }
        _ => {
            println!(
                "no corpus at {} (set SCHEMA_GEN_CORPUS_DIR): using the CRDs in examples/",
                corpus.display()
            );
            (
                root.join("examples"),
                "CRDs: examples/ (no corpus found)".to_string(),
            )
        }
    }
}

/// The YAML and JSON files under `dir`, sorted, except `index.json`.
fn manifest_files(dir: &Path) -> Result<Vec<PathBuf>> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<()> {
        for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                walk(&path, found)?;
            } else if path
                .extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
                && path.file_name().is_some_and(|n| n != "index.json")
            {
                found.push(path);
            }
        }
        Ok(())
    }
    let mut found = Vec::new();
    walk(dir, &mut found)?;
    found.sort();
    Ok(found)
}

/// A file of the corpus that `schema-gen check` accepts.
pub(crate) struct CorpusCrdFile {
    /// Its path.
    pub(crate) path: PathBuf,
    /// Its path below the corpus folder.
    pub(crate) rel: PathBuf,
    /// Its CustomResourceDefinitions (as `schema-gen fmt -o json` reads them).
    pub(crate) crds: Vec<Value>,
}

/// The CRD files of `corpus` (sorted by path) that `schema-gen check`
/// accepts; a note for each file with CRDs that it does not.
pub(crate) fn accepted_crd_files(
    schema_gen: &Path,
    corpus: &Path,
    notes: &mut Vec<String>,
) -> Result<Vec<CorpusCrdFile>> {
    let mut files = Vec::new();
    for path in manifest_files(corpus)? {
        let rel = path.strip_prefix(corpus).unwrap_or(&path).to_path_buf();
        let fmt = Command::new(schema_gen)
            .arg("fmt")
            .arg(&path)
            .args(["-o", "json"])
            .stderr(Stdio::null())
            .output()
            .context("running schema-gen fmt")?;
        if !fmt.status.success() {
            continue;
        }
        let Ok(doc) = serde_json::from_slice::<Value>(&fmt.stdout) else {
            continue;
        };
        let docs = match doc["kind"].as_str() {
            Some("List") => doc["items"].as_array().cloned().unwrap_or_default(),
            _ => vec![doc],
        };
        let crds: Vec<Value> = docs
            .into_iter()
            .filter(|d| d["kind"] == "CustomResourceDefinition")
            .collect();
        if crds.is_empty() {
            continue;
        }
        let check = Command::new(schema_gen)
            .arg("check")
            .arg(&path)
            .output()
            .context("running schema-gen check")?;
        if !check.status.success() {
            notes.push(format!(
                "skipped {}: schema-gen check does not accept it",
                rel.display()
            ));
            continue;
        }
        files.push(CorpusCrdFile { path, rel, crds });
    }
    Ok(files)
}

/// The CRD files of `corpus` that `schema-gen check` accepts, copied into
/// `repo/crds/`, with their served versions (each group, kind and version
/// once: a later file repeating one is skipped for it).
fn load_crds(
    schema_gen: &Path,
    corpus: &Path,
    bench: &Path,
    notes: &mut Vec<String>,
) -> Result<Vec<CrdFile>> {
    let mut seen = HashSet::new();
    let mut files = Vec::new();
    for CorpusCrdFile { path, rel, crds } in accepted_crd_files(schema_gen, corpus, notes)? {
        let mut versions = Vec::new();
        for crd in &crds {
            for v in crd_versions(crd) {
                let key = (v.group.clone(), v.kind.to_lowercase(), v.version.clone());
                if seen.insert(key) {
                    versions.push(v);
                } else {
                    notes.push(format!(
                        "skipped {} in {}: an earlier file has it",
                        v.label(),
                        rel.display()
                    ));
                }
            }
        }
        if versions.is_empty() {
            continue;
        }
        let dest = Path::new("repo").join("crds").join(&rel);
        fs::create_dir_all(
            bench
                .join(&dest)
                .parent()
                .context("a CRD path has a parent")?,
        )?;
        fs::copy(&path, bench.join(&dest))
            .with_context(|| format!("copying {}", path.display()))?;
        files.push(CrdFile {
            path: dest.to_string_lossy().into_owned(),
            versions,
            objects: Vec::new(),
        });
    }
    if files.is_empty() {
        bail!("no CRDs under {}", corpus.display());
    }
    Ok(files)
}

/// The served versions of a CRD (v1, or v1beta1 as written) with their
/// schemas.
pub(crate) fn crd_versions(crd: &Value) -> Vec<CrdVersion> {
    let spec = &crd["spec"];
    let group = spec["group"].as_str().unwrap_or_default().to_string();
    let kind = spec["names"]["kind"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let namespaced = spec["scope"].as_str() != Some("Cluster");
    let shared = spec["validation"]["openAPIV3Schema"].as_object();
    let mut named: Vec<(String, Option<&Map<String, Value>>)> = Vec::new();
    match spec["versions"].as_array() {
        Some(vs) if !vs.is_empty() => {
            for v in vs {
                if v["served"] == false {
                    continue;
                }
                let schema = v["schema"]["openAPIV3Schema"].as_object().or(shared);
                named.push((v["name"].as_str().unwrap_or_default().to_string(), schema));
            }
        }
        _ => named.push((
            spec["version"].as_str().unwrap_or_default().to_string(),
            shared,
        )),
    }
    named
        .into_iter()
        .filter_map(|(version, schema)| {
            let schema = Value::Object(schema?.clone());
            let dir = format!(
                "repo/objects/{group}/{}_{}",
                kind.to_lowercase(),
                version.to_lowercase()
            );
            Some(CrdVersion {
                group: group.clone(),
                kind: kind.clone(),
                version,
                namespaced,
                schema,
                dir,
            })
        })
        .collect()
}

/// Writes every version's objects: `valid.yaml` (`n` objects) and one file
/// per case; returns the objects.
fn generate(files: &mut [CrdFile], bench: &Path, n: usize) -> Result<Vec<Object>> {
    let mut patterns = Patterns::default();
    let mut objects = Vec::new();
    for (fi, file) in files.iter_mut().enumerate() {
        let mut written = Vec::new();
        for (vi, v) in file.versions.iter().enumerate() {
            fs::create_dir_all(bench.join(&v.dir))?;
            let mut valid = String::new();
            for i in 0..n {
                let seed = seed(&[&v.group, &v.kind, &v.version, &i.to_string()]);
                let name = format!("obj-{i}");
                let obj = build_object(v, &name, &mut Gen::new(seed, &mut patterns, true));
                valid.push_str("---\n");
                valid.push_str(&yaml(&obj));
                objects.push(Object {
                    file: format!("{}/valid.yaml", v.dir),
                    name,
                    crd: (fi, vi),
                    case: None,
                    field: String::new(),
                });
            }
            let path = format!("{}/valid.yaml", v.dir);
            fs::write(bench.join(&path), valid)?;
            written.push(path);
            for (ci, (case, _)) in CASES.iter().enumerate() {
                let seed = seed(&[&v.group, &v.kind, &v.version, case]);
                let mut g = Gen::new(seed, &mut patterns, false);
                let Some((obj, field)) = invalid_object(v, ci, &mut g) else {
                    continue;
                };
                let name = obj["metadata"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                let path = format!("{}/{case}.yaml", v.dir);
                fs::write(bench.join(&path), format!("---\n{}", yaml(&obj)))?;
                written.push(path.clone());
                objects.push(Object {
                    file: path,
                    name,
                    crd: (fi, vi),
                    case: Some(ci),
                    field,
                });
            }
        }
        file.objects = written;
    }
    Ok(objects)
}

/// FNV-1a of the parts.
pub(crate) fn seed(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// SplitMix64.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    pub(crate) fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }
}

/// Compiled patterns, by source (`None`: does not compile).
#[derive(Default)]
pub(crate) struct Patterns(HashMap<String, Option<goregex::GoRegex>>);

impl Patterns {
    fn get(&mut self, pattern: &str) -> Option<&goregex::GoRegex> {
        self.0
            .entry(pattern.to_string())
            .or_insert_with(|| goregex::compile(pattern).ok())
            .as_ref()
    }
}

/// Strings tried, in order, for a string field (after the format's own
/// example): the first few that fit the field's pattern and lengths are
/// the choices.
const STRINGS: [&str; 52] = [
    "example",
    "example-1",
    "a",
    "abc",
    "web",
    "default",
    "example.com",
    "app.example.com",
    "Example",
    "EXAMPLE",
    "ExampleName",
    "example_1",
    "1",
    "10",
    "0",
    "1.0",
    "1.0.0",
    "v1",
    "v1.0.0",
    "10s",
    "1m",
    "1h",
    "5m0s",
    "100ms",
    "1Gi",
    "100Mi",
    "500m",
    "10%",
    "https://example.com",
    "http://example.com/path",
    "/path",
    "/",
    "10.0.0.1",
    "10.0.0.0/8",
    "::1",
    "user@example.com",
    "key=value",
    "a:b",
    "a/b",
    "example/app:v1",
    "docker.io/library/nginx:1.25",
    "2024-01-01T00:00:00Z",
    "2024-01-01",
    "123e4567-e89b-12d3-a456-426614174000",
    "ZXhhbXBsZQ==",
    "*",
    "*.example.com",
    "TCP",
    "Ready",
    "us-east-1",
    "0 0 * * *",
    "example text",
];

/// Strings tried, in order, for a pattern mismatch.
const MISMATCHES: [&str; 10] = [
    "Invalid Value!",
    "not valid!",
    "-",
    " ",
    "UPPER_CASE",
    "__",
    "0",
    "a",
    "...",
    "",
];

/// A string example of a format.
fn format_example(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "2024-01-01T00:00:00Z",
        "date" => "2024-01-01",
        "duration" => "10s",
        "uri" | "url" => "https://example.com/path",
        "email" => "user@example.com",
        "hostname" => "example.com",
        "ipv4" | "ip" => "10.0.0.1",
        "ipv6" => "::1",
        "cidr" => "10.0.0.0/8",
        "uuid" => "123e4567-e89b-12d3-a456-426614174000",
        "byte" => "ZXhhbXBsZQ==",
        "mac" => "00:00:5e:00:53:01",
        "password" => "secret",
        _ => return None,
    })
}

/// Builds values from schema nodes.
pub(crate) struct Gen<'p> {
    rng: Rng,
    patterns: &'p mut Patterns,
    /// Whether optional properties are included (at random) at all.
    optional: bool,
    /// How many more nodes optional properties may add.
    budget: usize,
    /// Property paths the next value must have (from a parent's CEL rule).
    force_next: Vec<String>,
}

/// Below this depth no optional property is added.
const MAX_DEPTH: usize = 7;

fn is(node: &Value, ext: &str) -> bool {
    node[ext] == true
}

fn has_rules(node: &Value) -> bool {
    node["x-kubernetes-validations"]
        .as_array()
        .is_some_and(|r| !r.is_empty())
        || ["oneOf", "anyOf", "allOf", "not"]
            .iter()
            .any(|k| node.get(*k).is_some())
}

impl<'p> Gen<'p> {
    pub(crate) fn new(seed: u64, patterns: &'p mut Patterns, optional: bool) -> Self {
        let mut rng = Rng(seed);
        let budget = if optional { 30 + rng.below(170) } else { 0 };
        Gen {
            rng,
            patterns,
            optional,
            budget,
            force_next: Vec::new(),
        }
    }

    /// A value for `node` at `depth` (the root's properties are at 1);
    /// with `free` false an object gets its required properties only.
    fn value(&mut self, node: &Value, depth: usize) -> Value {
        self.value_in(node, depth, true)
    }

    fn value_in(&mut self, node: &Value, depth: usize, free: bool) -> Value {
        let forced = std::mem::take(&mut self.force_next);
        self.budget = self.budget.saturating_sub(1);
        if let Some(e) = node["enum"].as_array().filter(|e| !e.is_empty()) {
            let choices: Vec<&Value> = e.iter().filter(|v| !v.is_null()).collect();
            if !choices.is_empty() {
                return choices[self.rng.below(choices.len())].clone();
            }
        }
        if is(node, "x-kubernetes-int-or-string") {
            return self.integer(node).map_or_else(|| json!("1"), Value::from);
        }
        let ty = node["type"].as_str().unwrap_or_else(|| {
            if node.get("properties").is_some()
                || node.get("additionalProperties").is_some()
                || is(node, "x-kubernetes-preserve-unknown-fields")
            {
                "object"
            } else if node.get("items").is_some() {
                "array"
            } else {
                "string"
            }
        });
        match ty {
            "object" => self.object(node, depth, free, forced),
            "array" => self.array(node, depth),
            "integer" => Value::from(self.integer(node).unwrap_or(1)),
            "number" => self.number(node),
            "boolean" => Value::Bool(self.rng.percent(50)),
            _ => Value::String(self.string(node)),
        }
    }

    fn object(&mut self, node: &Value, depth: usize, free: bool, forced: Vec<String>) -> Value {
        let mut out = Map::new();
        let props = node["properties"].as_object();
        if let Some(props) = props {
            let mut wanted: Vec<&str> = string_list(&node["required"]);
            // A oneOf/anyOf of required sets: the first branch's.
            for junctor in ["oneOf", "anyOf"] {
                if let Some(branch) = node[junctor]
                    .as_array()
                    .and_then(|b| b.iter().find(|b| b.get("required").is_some()))
                {
                    wanted.extend(string_list(&branch["required"]));
                }
            }
            // Rules over the properties: only the required ones, and for
            // each rule the first path it asks `has()` of (which satisfies
            // the common "one of these must be set" rules), as well as the
            // paths a parent's rules asked for.
            let mut paths: Vec<String> = forced;
            paths.extend(rules(node).filter_map(first_has).map(str::to_string));
            let mut below: HashMap<&str, Vec<String>> = HashMap::new();
            for p in &paths {
                let (first, rest) = p.split_once('.').unwrap_or((p, ""));
                if let Some((name, _)) = props.get_key_value(first) {
                    wanted.push(name.as_str());
                    if !rest.is_empty() {
                        below
                            .entry(name.as_str())
                            .or_default()
                            .push(rest.to_string());
                    }
                }
            }
            let free = free && self.optional && !has_rules(node) && depth <= MAX_DEPTH;
            let chance = match depth {
                0 | 1 => 80,
                2 => 60,
                3 => 45,
                4 => 30,
                _ => 20,
            };
            let max = node["maxProperties"].as_u64().unwrap_or(u64::MAX) as usize;
            let min = node["minProperties"].as_u64().unwrap_or(0) as usize;
            for (name, child) in props {
                let required = wanted.contains(&name.as_str());
                let optional = free && self.budget > 0 && self.rng.percent(chance);
                if required || (optional && out.len() < max) {
                    self.force_next = below.remove(name.as_str()).unwrap_or_default();
                    out.insert(name.clone(), self.value(child, depth + 1));
                }
            }
            for (name, child) in props {
                if out.len() >= min {
                    break;
                }
                if !out.contains_key(name) {
                    out.insert(name.clone(), self.value(child, depth + 1));
                }
            }
        } else if let Some(add) = node["additionalProperties"].as_object() {
            let add = Value::Object(add.clone());
            let min = node["minProperties"].as_u64().unwrap_or(0) as usize;
            let n = min.max(usize::from(self.optional && self.rng.percent(70)));
            for i in 0..n {
                out.insert(format!("key-{}", i + 1), self.value(&add, depth + 1));
            }
        }
        if is(node, "x-kubernetes-embedded-resource") {
            for (k, v) in [
                ("apiVersion", json!("v1")),
                ("kind", json!("ConfigMap")),
                ("metadata", json!({"name": "embedded"})),
            ] {
                out.entry(k).or_insert(v);
            }
        }
        Value::Object(out)
    }

    fn array(&mut self, node: &Value, depth: usize) -> Value {
        let items = &node["items"];
        let min = node["minItems"].as_u64().unwrap_or(0) as usize;
        let max = node["maxItems"].as_u64().map_or(usize::MAX, |m| m as usize);
        let want = if self.optional {
            1 + self.rng.below(2)
        } else {
            1
        };
        let n = want.max(min).min(max);
        let list_type = node["x-kubernetes-list-type"].as_str();
        let keys = string_list(&node["x-kubernetes-list-map-keys"]);
        let unique = list_type == Some("set") || node["uniqueItems"] == true;
        let identity = |v: &Value| -> Value {
            if list_type == Some("map") {
                Value::Array(keys.iter().map(|k| v[*k].clone()).collect())
            } else {
                v.clone()
            }
        };
        // Rules over the items: their required properties only.
        let free = !has_rules(node);
        let mut out: Vec<Value> = Vec::new();
        let mut tries = 0;
        while out.len() < n && tries < n + 8 {
            tries += 1;
            let mut v = self.value_in(items, depth + 1, free);
            if list_type == Some("map") {
                // The keys must be there.
                for k in &keys {
                    if v.get(*k).is_none() {
                        let child = &items["properties"][*k];
                        let kv = self.value(child, depth + 2);
                        if let Some(m) = v.as_object_mut() {
                            m.insert((*k).to_string(), kv);
                        }
                    }
                }
            }
            if (list_type == Some("map") || unique)
                && out.iter().any(|o| identity(o) == identity(&v))
            {
                continue;
            }
            out.push(v);
        }
        Value::Array(out)
    }

    /// An integer within the node's bounds (and a multiple of
    /// `multipleOf`), if there is one.
    fn integer(&mut self, node: &Value) -> Option<i64> {
        let mut lo = node["minimum"].as_f64().map(|m| m.ceil() as i64);
        if node["exclusiveMinimum"] == true {
            lo = lo.map(|m| m + 1);
        }
        let mut hi = node["maximum"].as_f64().map(|m| m.floor() as i64);
        if node["exclusiveMaximum"] == true {
            hi = hi.map(|m| m - 1);
        }
        let mut v = 1 + self.rng.below(5) as i64;
        if let Some(lo) = lo {
            v = v.max(lo);
        }
        if let Some(hi) = hi {
            v = v.min(hi);
        }
        if let Some(m) = node["multipleOf"].as_f64().filter(|m| *m >= 1.0) {
            let m = m as i64;
            v = (v + m - 1).div_euclid(m) * m;
            if hi.is_some_and(|hi| v > hi) {
                v -= m;
            }
        }
        (lo.is_none_or(|lo| v >= lo) && hi.is_none_or(|hi| v <= hi)).then_some(v)
    }

    fn number(&mut self, node: &Value) -> Value {
        if let Some(v) = self.integer(node) {
            return Value::from(v);
        }
        let lo = node["minimum"].as_f64().unwrap_or(0.0);
        let hi = node["maximum"].as_f64().unwrap_or(lo + 1.0);
        json!((lo + hi) / 2.0)
    }

    fn string(&mut self, node: &Value) -> String {
        if let Some(lit) = rules(node).find_map(rule_literal) {
            return lit;
        }
        let min = node["minLength"].as_u64().unwrap_or(0) as usize;
        let max = node["maxLength"]
            .as_u64()
            .map_or(usize::MAX, |m| m as usize);
        let pattern = node["pattern"].as_str();
        let first = node["format"]
            .as_str()
            .and_then(format_example)
            .or_else(|| rules(node).find_map(rule_example));
        let mut fits: Vec<&str> = Vec::new();
        for s in first.into_iter().chain(STRINGS) {
            let len = s.chars().count();
            if len < min || len > max {
                continue;
            }
            let matches = match pattern {
                Some(p) => self.patterns.get(p).is_none_or(|re| re.is_match(s)),
                None => true,
            };
            if matches {
                fits.push(s);
                if fits.len() == 3 || first.is_some() {
                    break;
                }
            }
        }
        if !fits.is_empty() {
            return fits[self.rng.below(fits.len())].to_string();
        }
        // Nothing fits: the right length at least.
        let mut s = "example".to_string();
        while s.chars().count() < min {
            s.push('a');
        }
        s.chars().take(max.min(s.len())).collect()
    }

    /// A string the node's pattern does not match, within its lengths if
    /// possible.
    fn mismatch(&mut self, node: &Value) -> Option<String> {
        let re = self.patterns.get(node["pattern"].as_str()?)?;
        let min = node["minLength"].as_u64().unwrap_or(0) as usize;
        let max = node["maxLength"]
            .as_u64()
            .map_or(usize::MAX, |m| m as usize);
        let candidates: Vec<&str> = MISMATCHES.into_iter().filter(|s| !re.is_match(s)).collect();
        candidates
            .iter()
            .find(|s| (min..=max).contains(&s.chars().count()))
            .or(candidates.first())
            .map(|s| (*s).to_string())
    }
}

/// The node's CEL rules.
fn rules(node: &Value) -> impl Iterator<Item = &str> {
    node["x-kubernetes-validations"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["rule"].as_str())
}

/// The path below `self` that a rule first asks `has()` of (not negated):
/// `a.b` of `has(self.a.b)`. Not for conditionals (`?:`), whose first
/// `has()` is usually the condition.
fn first_has(rule: &str) -> Option<&str> {
    if rule.contains('?') {
        return None;
    }
    // Which open parentheses are negated groups (`!(`).
    let mut groups: Vec<bool> = Vec::new();
    let mut last = ' ';
    for (i, c) in rule.char_indices() {
        if rule[i..].starts_with("has(self.") {
            let negated = last == '!' || groups.contains(&true);
            let after = &rule[i + "has(self.".len()..];
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(after.len());
            if !negated && end > 0 {
                return Some(&after[..end]);
            }
        }
        match c {
            '(' => groups.push(last == '!'),
            ')' => {
                groups.pop();
            }
            _ => {}
        }
        if !c.is_whitespace() {
            last = c;
        }
    }
    None
}

/// A string that a rule on a string is likely to accept: the first literal
/// of `self in ['a', ...]`, or an example for the conversion it applies.
fn rule_example(rule: &str) -> Option<&'static str> {
    let conversions = [
        ("duration(self)", "10s"),
        ("timestamp(self)", "2024-01-01T00:00:00Z"),
        ("quantity(self)", "1Gi"),
        ("isQuantity(self)", "1Gi"),
        ("url(self)", "https://example.com/path"),
        ("isURL(self)", "https://example.com/path"),
        ("cidr(self)", "10.0.0.0/8"),
        ("isCIDR(self)", "10.0.0.0/8"),
        ("ip(self)", "10.0.0.1"),
        ("isIP(self)", "10.0.0.1"),
    ];
    conversions
        .iter()
        .find(|(f, _)| rule.contains(f))
        .map(|(_, e)| *e)
}

/// The first string literal of a rule of the form `self in ['a', ...]`.
fn rule_literal(rule: &str) -> Option<String> {
    let at = rule.find("self in [")?;
    let before = rule[..at].trim_end();
    if before.ends_with('!') || before.ends_with("!(") {
        return None;
    }
    let rest = &rule[at + "self in [".len()..];
    let quote = rest
        .trim_start()
        .chars()
        .next()
        .filter(|c| matches!(c, '\'' | '"'))?;
    let body = &rest.trim_start()[1..];
    Some(body[..body.find(quote)?].to_string())
}

fn string_list(v: &Value) -> Vec<&str> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The root's properties that objects are built for (not the type meta,
/// the metadata or the status).
fn top_properties(schema: &Value) -> impl Iterator<Item = (&String, &Value)> {
    schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !matches!(k.as_str(), "apiVersion" | "kind" | "metadata" | "status"))
}

/// An object of the version: type meta, metadata, and the root's other
/// properties (required ones and `spec` always, others at random).
pub(crate) fn build_object(v: &CrdVersion, name: &str, g: &mut Gen<'_>) -> Value {
    let mut obj = Map::new();
    obj.insert(
        "apiVersion".into(),
        json!(format!("{}/{}", v.group, v.version)),
    );
    obj.insert("kind".into(), json!(v.kind));
    let mut meta = Map::new();
    meta.insert("name".into(), json!(name));
    if v.namespaced {
        meta.insert("namespace".into(), json!(NAMESPACE));
    }
    obj.insert("metadata".into(), Value::Object(meta));
    let required = string_list(&v.schema["required"]);
    for (k, child) in top_properties(&v.schema) {
        if k == "spec" || required.contains(&k.as_str()) || (g.optional && g.rng.percent(30)) {
            obj.insert(k.clone(), g.value(child, 1));
        }
    }
    Value::Object(obj)
}

/// A step from a schema node to a child.
#[derive(Clone)]
enum Seg {
    Prop(String),
    Item,
    Entry,
}

impl Seg {
    fn schema<'a>(&self, node: &'a Value) -> &'a Value {
        match self {
            Seg::Prop(name) => &node["properties"][name.as_str()],
            Seg::Item => &node["items"],
            Seg::Entry => &node["additionalProperties"],
        }
    }
}

/// The object path of `segs` (`spec.ports[0].name`).
fn dotted(segs: &[Seg]) -> String {
    let mut out = String::new();
    for s in segs {
        match s {
            Seg::Prop(n) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(n);
            }
            Seg::Item => out.push_str("[0]"),
            Seg::Entry => out.push_str(".key-1"),
        }
    }
    out
}

/// The first node (breadth first from the root's properties, not below
/// the status) that `pred` accepts, preferring one no ancestor of which has
/// CEL rules or junctors (which the materialized path might break).
fn find_target(schema: &Value, mut pred: impl FnMut(&Value) -> bool) -> Option<Vec<Seg>> {
    let mut queue: std::collections::VecDeque<(&Value, Vec<Seg>, bool)> = top_properties(schema)
        .map(|(k, child)| (child, vec![Seg::Prop(k.clone())], true))
        .collect();
    let mut fallback = None;
    let mut visited = 0;
    while let Some((node, path, clean)) = queue.pop_front() {
        visited += 1;
        if visited > 50_000 || path.len() > 12 {
            break;
        }
        if pred(node) {
            if clean {
                return Some(path);
            }
            fallback.get_or_insert(path.clone());
        }
        let clean = clean && !has_rules(node);
        let mut push = |seg: Seg| {
            let child = seg.schema(node);
            if child.is_object() {
                let mut p = path.clone();
                p.push(seg);
                queue.push_back((child, p, clean));
            }
        };
        for k in node["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            push(Seg::Prop(k.clone()));
        }
        push(Seg::Item);
        push(Seg::Entry);
    }
    fallback
}

/// The value at `path` in `obj`, created (with the generator's values)
/// where missing.
fn materialize<'v>(
    mut v: &'v mut Value,
    mut node: &Value,
    path: &[Seg],
    g: &mut Gen<'_>,
) -> Option<&'v mut Value> {
    for (depth, seg) in path.iter().enumerate() {
        let child = seg.schema(node);
        v = match seg {
            Seg::Prop(_) | Seg::Entry => {
                let key = match seg {
                    Seg::Prop(n) => n.clone(),
                    _ => "key-1".to_string(),
                };
                if !v.is_object() {
                    *v = Value::Object(Map::new());
                }
                let Value::Object(m) = v else { return None };
                m.entry(key).or_insert_with(|| g.value(child, depth + 1))
            }
            Seg::Item => {
                if v.as_array().is_none_or(|a| a.is_empty()) {
                    *v = Value::Array(vec![g.value(child, depth + 1)]);
                }
                let Value::Array(a) = v else { return None };
                a.first_mut()?
            }
        };
        node = child;
    }
    Some(v)
}

/// The invalid object of case `ci` for the version, and the field it is
/// about; `None` when the schema has no place for the mistake.
pub(crate) fn invalid_object(
    v: &CrdVersion,
    ci: usize,
    g: &mut Gen<'_>,
) -> Option<(Value, String)> {
    let (case, _) = CASES[ci];
    let mut obj = build_object(v, &format!("invalid-{case}"), g);
    let schema = &v.schema;
    let scalar = |n: &Value| {
        matches!(
            n["type"].as_str(),
            Some("string" | "integer" | "number" | "boolean")
        ) && !is(n, "x-kubernetes-int-or-string")
            && n.get("enum").is_none()
    };
    let has_default = |n: &Value, name: &str| n["properties"][name].get("default").is_some();
    let required_without_default = |n: &Value| -> Option<String> {
        string_list(&n["required"])
            .into_iter()
            .find(|r| n["properties"].get(*r).is_some() && !has_default(n, r))
            .map(str::to_string)
    };
    let required_with_default = |n: &Value| -> Option<String> {
        string_list(&n["required"])
            .into_iter()
            .find(|r| has_default(n, r))
            .map(str::to_string)
    };
    let field = match case {
        "wrong-type" => {
            let path = find_target(schema, scalar)?;
            let bad = match path
                .last()
                .map(|s| s.schema(walk(schema, &path[..path.len() - 1])))
            {
                Some(n) if n["type"] == "string" => json!(12345),
                Some(n) if n["type"] == "boolean" => json!("not-a-bool"),
                _ => json!("not-a-number"),
            };
            *materialize(&mut obj, schema, &path, g)? = bad;
            dotted(&path)
        }
        "enum" => {
            let path = find_target(schema, |n| {
                n["type"] == "string" && n["enum"].as_array().is_some_and(|e| !e.is_empty())
            })?;
            *materialize(&mut obj, schema, &path, g)? = json!("not-in-enum");
            dotted(&path)
        }
        "maximum" => {
            let path = find_target(schema, |n| {
                matches!(n["type"].as_str(), Some("integer" | "number")) && n["maximum"].is_number()
            })?;
            let node = walk(schema, &path);
            let bad = match node["maximum"].as_i64() {
                Some(m) => json!(m.saturating_add(1)),
                None => json!(node["maximum"].as_f64().unwrap_or(0.0) + 1.0),
            };
            *materialize(&mut obj, schema, &path, g)? = bad;
            dotted(&path)
        }
        "pattern" => {
            let mut bad = None;
            let path = find_target(schema, |n| {
                n["type"] == "string"
                    && n.get("enum").is_none()
                    && g.mismatch(n).inspect(|s| bad = Some(s.clone())).is_some()
            })?;
            let bad = g.mismatch(walk(schema, &path)).or(bad)?;
            *materialize(&mut obj, schema, &path, g)? = json!(bad);
            dotted(&path)
        }
        "unknown-field" => {
            let path = find_target(schema, |n| {
                n["properties"].as_object().is_some_and(|p| !p.is_empty())
                    && n.get("additionalProperties").is_none()
                    && !is(n, "x-kubernetes-preserve-unknown-fields")
            })?;
            let m = materialize(&mut obj, schema, &path, g)?.as_object_mut()?;
            m.insert("unknownField".into(), json!("value"));
            format!("{}.unknownField", dotted(&path))
        }
        "missing-required" | "defaulted-required" => {
            let pick = |n: &Value| {
                if case == "missing-required" {
                    required_without_default(n)
                } else {
                    required_with_default(n)
                }
            };
            let path = find_target(schema, |n| pick(n).is_some())?;
            let name = pick(walk(schema, &path))?;
            let m = materialize(&mut obj, schema, &path, g)?.as_object_mut()?;
            m.remove(&name);
            format!("{}.{name}", dotted(&path))
        }
        "list-map-duplicate" => {
            let path = find_target(schema, |n| {
                n["x-kubernetes-list-type"] == "map"
                    && n["maxItems"].as_u64().is_none_or(|m| m >= 2)
            })?;
            let a = materialize(&mut obj, schema, &path, g)?.as_array_mut()?;
            let first = a.first()?.clone();
            a.truncate(1);
            a.push(first);
            format!("{}[1]", dotted(&path))
        }
        "metadata-name" => {
            obj["metadata"]["name"] = json!("Invalid_Name");
            "metadata.name".to_string()
        }
        _ => return None,
    };
    Some((obj, field))
}

/// The schema node at `path`.
fn walk<'a>(mut node: &'a Value, path: &[Seg]) -> &'a Value {
    for s in path {
        node = s.schema(node);
    }
    node
}

// ---------------------------------------------------------------------------
// JSON Schema for kubeconform

/// Writes one JSON Schema per group, kind and version under `schemas/`,
/// named as [`SCHEMA_TEMPLATE`] looks them up; returns how many.
fn write_schemas(files: &[CrdFile], bench: &Path) -> Result<usize> {
    let mut n = 0;
    for v in files.iter().flat_map(|f| &f.versions) {
        write_schema(
            &bench.join("schemas"),
            &v.group,
            &v.kind,
            &v.version,
            &v.schema,
        )?;
        n += 1;
    }
    Ok(n)
}

/// Writes the JSON Schema of one group, kind and version's
/// `openAPIV3Schema` (see [`to_json_schema`]) under `dir`, where
/// [`SCHEMA_TEMPLATE`] (with `schemas/` for `dir`) looks it up. The core
/// group (`""`) is `v1` there: kubeconform's `{{ .Group }}` is the part
/// of `apiVersion` before its `/`, or all of it.
pub(crate) fn write_schema(
    dir: &Path,
    group: &str,
    kind: &str,
    version: &str,
    schema: &Value,
) -> Result<()> {
    let dir = dir.join(if group.is_empty() { version } else { group });
    fs::create_dir_all(&dir)?;
    let name = format!("{kind}_{version}.json").to_lowercase();
    let text = serde_json::to_string_pretty(&to_json_schema(schema))? + "\n";
    fs::write(dir.join(&name), text).with_context(|| format!("writing {name}"))
}

/// A CRD version's `openAPIV3Schema` as kubeconform's documentation
/// converts it to JSON Schema:
///
/// - every JSON object below the root that has a `properties` key and no
///   `additionalProperties` key gets `additionalProperties: false` (what
///   makes unknown fields errors). The walk descends through object values
///   only, not through arrays, so the branches of `allOf`, `anyOf`, `oneOf`
///   are left as they are; the root keeps accepting other properties.
/// - then every object-valued member with `format: int-or-string` becomes
///   `oneOf: [{type: string}, {type: integer}]`; here the walk goes into
///   array elements too (their members, not the elements themselves).
///
/// Nothing else changes: the `x-kubernetes-*` extensions, `nullable` and
/// the other OpenAPI keywords stay, for the JSON Schema validator to ignore.
pub(crate) fn to_json_schema(schema: &Value) -> Value {
    let mut out = schema.clone();
    if let Value::Object(root) = &mut out {
        for child in root.values_mut() {
            deny_additional_properties(child);
        }
    }
    replace_int_or_string(&mut out);
    out
}

/// Whether some `properties` map of the schema has a member named
/// `properties`.
pub(crate) fn property_named_properties(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            m.get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| p.contains_key("properties"))
                || m.values().any(property_named_properties)
        }
        Value::Array(a) => a.iter().any(property_named_properties),
        _ => false,
    }
}

fn deny_additional_properties(v: &mut Value) {
    if let Value::Object(m) = v {
        if m.contains_key("properties") && !m.contains_key("additionalProperties") {
            m.insert("additionalProperties".into(), Value::Bool(false));
        }
        for child in m.values_mut() {
            deny_additional_properties(child);
        }
    }
}

fn replace_int_or_string(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for child in m.values_mut() {
                if child["format"] == "int-or-string" {
                    *child = json!({"oneOf": [{"type": "string"}, {"type": "integer"}]});
                } else {
                    replace_int_or_string(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(replace_int_or_string),
        _ => {}
    }
}

// ---------------------------------------------------------------------------
// YAML

/// A JSON value as block-style YAML (strings always double-quoted, so that
/// no YAML 1.1 reader takes `no` or `y` for a boolean).
pub(crate) fn yaml(v: &Value) -> String {
    let mut out = String::new();
    if is_block(v) {
        block(v, 0, false, &mut out);
    } else {
        out.push_str(&scalar(v));
        out.push('\n');
    }
    out
}

fn is_block(v: &Value) -> bool {
    match v {
        Value::Object(m) => !m.is_empty(),
        Value::Array(a) => !a.is_empty(),
        _ => false,
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Object(_) => "{}".to_string(),
        Value::Array(_) => "[]".to_string(),
        other => other.to_string(),
    }
}

fn key(k: &str) -> String {
    const WORDS: [&str; 12] = [
        "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "<<", "=",
    ];
    let plain = k
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
        && !WORDS.contains(&k.to_ascii_lowercase().as_str());
    if plain {
        k.to_string()
    } else {
        Value::String(k.to_string()).to_string()
    }
}

/// Writes a non-empty map or sequence at `indent`; `inline`: the first line
/// continues the current one (after `- `).
fn block(v: &Value, indent: usize, inline: bool, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            for (i, (k, val)) in m.iter().enumerate() {
                if !(inline && i == 0) {
                    out.push_str(&pad);
                }
                out.push_str(&key(k));
                out.push(':');
                match val {
                    Value::Object(_) if is_block(val) => {
                        out.push('\n');
                        block(val, indent + 2, false, out);
                    }
                    Value::Array(_) if is_block(val) => {
                        out.push('\n');
                        block(val, indent, false, out);
                    }
                    _ => {
                        out.push(' ');
                        out.push_str(&scalar(val));
                        out.push('\n');
                    }
                }
            }
        }
        Value::Array(a) => {
            for (i, item) in a.iter().enumerate() {
                if !(inline && i == 0) {
                    out.push_str(&pad);
                }
                out.push_str("- ");
                if is_block(item) {
                    block(item, indent + 2, true, out);
                } else {
                    out.push_str(&scalar(item));
                    out.push('\n');
                }
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------
// The report

struct Report<'a> {
    o: &'a Options,
    files: &'a [CrdFile],
    objects: &'a [Object],
    total_bytes: u64,
    kubeconform: Option<&'a Kubeconform>,
    ours: &'a HashMap<(String, String), Verdict>,
    theirs: Option<&'a HashMap<(String, String), Verdict>>,
    ours_runs: &'a [Timing],
    theirs_runs: &'a [Timing],
    notes: &'a [String],
}

/// At most this many characters of a message in a table cell.
const CELL: usize = 150;

/// Table cell text: the first two messages, shortened, `|` escaped.
fn cell(v: Option<&Verdict>) -> String {
    let Some(v) = v else {
        return "(no result)".to_string();
    };
    let lines = if v.errors.is_empty() {
        &v.notes
    } else {
        &v.errors
    };
    let mut parts: Vec<String> = lines
        .iter()
        .take(2)
        .map(|l| {
            let mut s: String = l.chars().take(CELL).collect();
            if l.chars().count() > CELL {
                s.push('…');
            }
            s
        })
        .collect();
    if lines.len() > 2 {
        parts.push(format!("(+{} more)", lines.len() - 2));
    }
    let verdict = if v.failed {
        "**error**"
    } else if v.rejects() {
        "**rejects**"
    } else {
        "accepts"
    };
    let text = if parts.is_empty() {
        verdict.to_string()
    } else {
        format!("{verdict}: {}", parts.join("; "))
    };
    text.replace('|', "\\|").replace('\n', " ")
}

impl Report<'_> {
    fn render(&self) -> String {
        let mut out = String::new();
        let kc = self.kubeconform;
        let _ = writeln!(out, "\n# bench-gate: schema-gen validate vs kubeconform\n");
        let versions: usize = self.files.iter().map(|f| f.versions.len()).sum();
        let valid = self.objects.iter().filter(|o| o.case.is_none()).count();
        let _ = writeln!(
            out,
            "Repository `target/bench-gate/repo`: {} CRD files, {versions} CRD versions; {} \
             objects in {} files, {} KB ({valid} valid: {} per version, built from the schema; \
             {} invalid: the cases below).",
            self.files.len(),
            self.objects.len(),
            self.files.iter().map(|f| f.objects.len()).sum::<usize>(),
            self.total_bytes / 1024,
            self.o.objects,
            self.objects.len() - valid,
        );
        for n in self.notes {
            let _ = writeln!(out, "- {n}");
        }
        match kc {
            Some(k) => {
                let _ = writeln!(
                    out,
                    "- kubeconform {} ({KUBECONFORM_MODULE}, built with {}), schemas converted \
                     to JSON Schema under `target/bench-gate/schemas/`",
                    k.version, k.go
                );
            }
            None => {
                let _ = writeln!(out, "- kubeconform: not run (no Go on PATH)");
            }
        }
        self.unloadable_schemas(&mut out);

        let _ = writeln!(out, "\n## Time\n");
        let _ = writeln!(
            out,
            "Median of {} runs [min-max], wall clock; CPU: user+system time of the processes. \
             schema-gen: one `schema-gen validate --crd CRD OBJ...` per CRD file ({} \
             invocations, {} at a time); kubeconform: one `kubeconform -schema-location '{}' \
             -strict -summary -output json repo/objects` (its default 4 goroutines).\n",
            self.o.runs,
            self.files.len(),
            self.o.jobs,
            SCHEMA_TEMPLATE
        );
        let _ = writeln!(
            out,
            "| tool | wall s | CPU s | objects/s |\n| --- | --- | --- | --- |"
        );
        let n = self.objects.len() as f64;
        let row = |out: &mut String, name: &str, runs: &[Timing]| -> Option<(Stats, Option<f64>)> {
            if runs.is_empty() {
                return None;
            }
            let wall = stats(runs.iter().map(|t| t.secs));
            let cpu = runs
                .iter()
                .map(|t| t.cpu)
                .collect::<Option<Vec<_>>>()
                .map(|c| stats(c.into_iter()).median);
            let _ = writeln!(
                out,
                "| {name} | {:.3} [{:.3}-{:.3}] | {} | {:.0} |",
                wall.median,
                wall.min,
                wall.max,
                measure::or_dash(cpu, 2),
                n / wall.median
            );
            Some((wall, cpu))
        };
        let ours = row(&mut out, "schema-gen validate", self.ours_runs);
        let theirs = row(&mut out, "kubeconform", self.theirs_runs);
        if let (Some((a, a_cpu)), Some((b, b_cpu))) = (&ours, &theirs) {
            let (ratio, faster) = if a.median <= b.median {
                (b.median / a.median, "schema-gen")
            } else {
                (a.median / b.median, "kubeconform")
            };
            let cpu = a_cpu
                .zip(*b_cpu)
                .map(|(a, b)| format!("; CPU time: {:.2}", b / a))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "\nkubeconform / schema-gen: wall time {:.2} ({faster} is {ratio:.2}x faster){cpu}",
                b.median / a.median
            );
        }

        let Some(theirs) = self.theirs else {
            self.invalid_table(&mut out, None);
            return out;
        };
        self.valid_section(&mut out, theirs);
        self.invalid_table(&mut out, Some(theirs));
        out
    }

    /// The CRD versions whose converted schema kubeconform cannot load, and
    /// why when the cause is the conversion's known one.
    fn unloadable_schemas(&self, out: &mut String) {
        let Some(theirs) = self.theirs else { return };
        let mut seen = HashSet::new();
        for o in self.objects {
            let key = (o.file.clone(), o.name.clone());
            if theirs.get(&key).is_some_and(|v| v.failed) && seen.insert(o.crd) {
                let v = &self.files[o.crd.0].versions[o.crd.1];
                let why = if property_named_properties(&v.schema) {
                    ": the schema has a property named `properties`, and the conversion gives \
                     that properties map `additionalProperties: false` as if it were a schema, \
                     which is not valid JSON Schema, so kubeconform reports every object of the \
                     version as `could not find schema`"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "- kubeconform cannot load the converted schema of {}{why}",
                    v.label()
                );
            }
        }
    }

    fn verdicts(
        &self,
        o: &Object,
        theirs: Option<&HashMap<(String, String), Verdict>>,
    ) -> (Option<Verdict>, Option<Verdict>) {
        let key = (o.file.clone(), o.name.clone());
        (
            self.ours.get(&key).cloned(),
            theirs.and_then(|t| t.get(&key).cloned()),
        )
    }

    fn label(&self, o: &Object) -> String {
        self.files[o.crd.0].versions[o.crd.1].label()
    }

    fn valid_section(&self, out: &mut String, theirs: &HashMap<(String, String), Verdict>) {
        let valid: Vec<&Object> = self.objects.iter().filter(|o| o.case.is_none()).collect();
        let (mut ours_ok, mut theirs_ok, mut theirs_failed) = (0, 0, 0);
        let mut differ = Vec::new();
        for o in &valid {
            let (a, b) = self.verdicts(o, Some(theirs));
            let a_ok = a.as_ref().is_some_and(|v| v.errors.is_empty());
            let b_ok = b.as_ref().is_some_and(|v| v.errors.is_empty());
            ours_ok += usize::from(a_ok);
            theirs_ok += usize::from(b_ok);
            theirs_failed += usize::from(b.as_ref().is_some_and(|v| v.failed));
            if a_ok != b_ok {
                differ.push((*o, a, b));
            }
        }
        let _ = writeln!(out, "\n## Objects built to be valid\n");
        let _ = writeln!(
            out,
            "schema-gen admits {ours_ok} of {}; kubeconform accepts {theirs_ok} and cannot \
             validate {theirs_failed} (no schema it can load); they disagree on {}. The generator \
             fills the required fields and a random choice of optional ones from the schema and \
             guesses at common CEL rules (the first `has()` of a rule, `self in [...]`, \
             `duration(self)`), but does not solve them: a rejection here can be the generator's \
             miss as well as a difference between the tools.",
            valid.len(),
            differ.len()
        );
        if !differ.is_empty() {
            // One example per CRD version.
            let mut seen = HashSet::new();
            let _ = writeln!(
                out,
                "\n| CRD version | object | schema-gen | kubeconform |\n| --- | --- | --- | --- |"
            );
            for (o, a, b) in &differ {
                if seen.insert(o.crd) {
                    let _ = writeln!(
                        out,
                        "| {} | {} | {} | {} |",
                        self.label(o),
                        o.name,
                        cell(a.as_ref()),
                        cell(b.as_ref())
                    );
                }
            }
            let _ = writeln!(
                out,
                "\n(the first object of each CRD version; {} disagreements in all)",
                differ.len()
            );
        }
    }

    fn invalid_table(&self, out: &mut String, theirs: Option<&HashMap<(String, String), Verdict>>) {
        let _ = writeln!(out, "\n## Invalid objects\n");
        let _ = writeln!(
            out,
            "Each case once per CRD version whose schema has a place for it (the first such \
             field, breadth first), in an object with only the required fields otherwise. \
             \"rejects\": errors, exit status 1. schema-gen prunes unknown fields with a warning, \
             as the API server does without strict field validation (`warns`). kubeconform \
             \"error\": it could not validate the object (no schema it can load).\n"
        );
        let _ = writeln!(
            out,
            "| case | what | objects | schema-gen rejects (warns) | kubeconform rejects (error) | only schema-gen | only kubeconform | neither |\n\
             | --- | --- | --- | --- | --- | --- | --- | --- |"
        );
        // objects, ours, ours warns, theirs, theirs failed, only ours, only theirs, neither
        let mut rows: BTreeMap<usize, [usize; 8]> = BTreeMap::new();
        for o in self.objects {
            let Some(ci) = o.case else { continue };
            let (a, b) = self.verdicts(o, theirs);
            let warns = a
                .as_ref()
                .is_some_and(|v| !v.rejects() && !v.notes.is_empty());
            let a = a.is_some_and(|v| v.rejects());
            let failed = b.as_ref().is_some_and(|v| v.failed);
            let b = b.is_some_and(|v| v.rejects());
            let r = rows.entry(ci).or_default();
            for (i, x) in [
                true,
                a,
                warns,
                b,
                failed,
                a && !b,
                b && !a,
                !a && !b && !failed,
            ]
            .into_iter()
            .enumerate()
            {
                r[i] += usize::from(x);
            }
        }
        for (ci, r) in &rows {
            let (case, what) = CASES[*ci];
            let k = |x: String| if theirs.is_some() { x } else { "-".to_string() };
            let _ = writeln!(
                out,
                "| {case} | {what} | {} | {} ({}) | {} | {} | {} | {} |",
                r[0],
                r[1],
                r[2],
                k(format!("{} ({})", r[3], r[4])),
                k(r[5].to_string()),
                k(r[6].to_string()),
                k(r[7].to_string()),
            );
        }
        let _ = writeln!(
            out,
            "\n### Per object\n\n| CRD version | case | field | schema-gen | kubeconform |\n\
             | --- | --- | --- | --- | --- |"
        );
        for o in self.objects {
            let Some(ci) = o.case else { continue };
            let (a, b) = self.verdicts(o, theirs);
            let _ = writeln!(
                out,
                "| {} | {} | `{}` | {} | {} |",
                self.label(o),
                CASES[ci].0,
                o.field,
                cell(a.as_ref()),
                if theirs.is_some() {
                    cell(b.as_ref())
                } else {
                    "-".to_string()
                }
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversion_denies_additional_properties_below_the_root_only() {
        let schema = json!({
            "type": "object",
            "properties": {
                "spec": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "anyOf": [{"properties": {"a": {"type": "string"}}}]
                },
                "data": {"type": "object", "additionalProperties": {"type": "string"}}
            }
        });
        let out = to_json_schema(&schema);
        assert!(out.get("additionalProperties").is_none());
        assert_eq!(out["properties"]["spec"]["additionalProperties"], false);
        assert!(
            out["properties"]["spec"]["anyOf"][0]
                .get("additionalProperties")
                .is_none()
        );
        assert_eq!(
            out["properties"]["data"]["additionalProperties"],
            json!({"type": "string"})
        );
    }

    #[test]
    fn conversion_replaces_int_or_string_formats() {
        let schema = json!({"properties": {"port": {"format": "int-or-string"}}});
        let out = to_json_schema(&schema);
        assert_eq!(
            out["properties"]["port"],
            json!({"oneOf": [{"type": "string"}, {"type": "integer"}]})
        );
    }

    #[test]
    fn cel_guesses() {
        assert_eq!(
            first_has("!has(self.a) || !(has(self.x) && has(self.y)) || has(self.b_1.c)"),
            Some("b_1.c")
        );
        assert_eq!(first_has("self.size() > 0"), None);
        assert_eq!(first_has("has(self.a) ? has(self.b) : true"), None);
        assert_eq!(
            rule_literal("self in ['HTTP', 'HTTPS']").as_deref(),
            Some("HTTP")
        );
        assert_eq!(
            rule_example("duration(self) > duration('1ms')"),
            Some("10s")
        );
    }

    #[test]
    fn yaml_is_block_style_and_quotes_strings() {
        let v = json!({"a": {"b": [1, {"c": "no", "d": []}], "y": {}}, "e": [[true]]});
        assert_eq!(
            yaml(&v),
            "a:\n  b:\n  - 1\n  - c: \"no\"\n    d: []\n  \"y\": {}\ne:\n- - true\n"
        );
    }
}
