//! `cargo xtask bench-gen`: `schema-gen rust` side by side with kopium on
//! the largest corpus CRDs.
//!
//! First the generators themselves: the release `schema-gen rust FILE --out
//! OUT` and `kopium -f FILE > OUT`, each run N times on the three largest
//! corpus files (by bytes), interleaved. kopium emits one CRD version per
//! run, so both are given the same one: the storage version.
//!
//! Then the generated code of the largest file, compiled: throwaway crates
//! under `target/gen-bench/` (`baseline`: the union of the dependencies and
//! an empty library; `ours`; `kopium`), each with its own target directory.
//! One cold `cargo build` (dependencies included), then N rebuilds of the
//! crate alone after touching `src/lib.rs` with `cargo build` (incremental)
//! and `cargo check`, with the peak RSS of the largest process (rustc
//! compiling the crate).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::flags::BuildOptions;
use crate::measure::{self, BenchCrate, Sample, Stats, or_dash, stats};
use crate::workspace;

/// Options of `cargo xtask bench-gen`.
pub const USAGE: &str = "\
  bench-gen [--runs N] [--no-cold] [--generate-only]
         schema-gen rust vs kopium on the three largest corpus CRDs: generation
         time and output size; then the compile time and peak rustc RSS of the
         largest one's generated code. Crates (baseline, ours, kopium) and
         results.txt under target/gen-bench/";

/// How many corpus files the generators run on.
const FILES: usize = 3;

/// kopium's flags besides the file and version: the schema derived
/// (`JsonSchema` on every type, `CustomResource` with a schema) and the
/// descriptions as doc comments, as `schema-gen rust` does by default.
const KOPIUM_FLAGS: [&str; 1] = ["--auto"];

/// schema-core with its k8s-openapi impls, as the generated code needs it.
fn schema_core_dependency(schema_core: &Path) -> String {
    format!(
        "schema-core = {{ path = {:?}, features = [\"k8s-openapi\"] }}\n",
        schema_core.to_string_lossy()
    )
}

/// The dependencies of the `ours` crate.
fn ours_dependencies(schema_core: &Path) -> String {
    format!(
        "{}{}{}{}",
        schema_core_dependency(schema_core),
        measure::SERDE_DEP,
        measure::SERDE_JSON_DEP,
        measure::K8S_OPENAPI_DEP
    )
}

/// The dependencies of the `kopium` crate (what its output uses: the
/// derived schemas need k8s-openapi's `JsonSchema` impls, e.g. of
/// `IntOrString`).
fn kopium_dependencies() -> String {
    format!(
        "{}{}{}{}{}",
        measure::KUBE_DEP,
        measure::SCHEMARS_DEP,
        measure::SERDE_DEP,
        measure::SERDE_JSON_DEP,
        measure::K8S_OPENAPI_SCHEMARS_DEP
    )
}

/// One corpus file and what both generators made of it.
struct Input {
    path: PathBuf,
    bytes: u64,
    /// The CRD version both generate.
    version: String,
    /// Every version of the CRD.
    versions: Vec<String>,
    ours: Generated,
    kopium: Generated,
}

#[derive(Default)]
struct Generated {
    out: PathBuf,
    samples: Vec<Sample>,
    lines: usize,
}

/// One crate of the compile benchmark.
struct Crate {
    name: &'static str,
    krate: BenchCrate,
    lines: usize,
    cold: Option<f64>,
    /// Why it does not build, if it does not.
    error: Option<String>,
    build: Vec<Sample>,
    check: Vec<Sample>,
}

/// Runs the benchmark with the arguments after `bench-gen`.
pub fn run(args: &[String]) -> Result<()> {
    let o = BuildOptions::parse(args, USAGE, Vec::new())?;
    let root = workspace::root()?;
    let bench = root.join("target").join("gen-bench");
    fs::create_dir_all(bench.join("out"))?;
    let rss = measure::rss_file(&bench);
    let rss = rss.as_deref();

    let ours = build_schema_gen(&root)?;
    let kopium = find_kopium(&root)?;
    let kopium_version = output(Command::new(&kopium).arg("--version"))?;
    let corpus = std::env::var_os("SCHEMA_GEN_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/corpus/crds"));
    let corpus = fs::canonicalize(&corpus).unwrap_or(corpus);

    let mut inputs = Vec::new();
    for (path, bytes) in largest(&corpus, FILES)? {
        let versions = crd_versions(&ours, &path)?;
        let stem = path
            .file_stem()
            .context("a corpus file has a name")?
            .to_string_lossy()
            .into_owned();
        inputs.push(Input {
            version: versions.chosen.clone(),
            versions: versions.all,
            ours: Generated {
                out: bench.join("out").join(format!("{stem}.ours.rs")),
                ..Generated::default()
            },
            kopium: Generated {
                out: bench.join("out").join(format!("{stem}.kopium.rs")),
                ..Generated::default()
            },
            path,
            bytes,
        });
    }

    println!(
        "gen bench: {} vs {kopium_version} ({}), {} runs, jobs: {}, peak RSS: {}",
        ours.display(),
        kopium.display(),
        o.runs,
        measure::jobs(),
        measure::rss_method(rss)
    );
    // Once each (and the outputs checked), then the timed runs.
    let gen_runs = if o.generate_only { 1 } else { o.runs + 1 };
    for run in 0..gen_runs {
        if run > 0 {
            println!("generation run {run}/{}", o.runs);
        }
        for input in &mut inputs {
            let s = generate_ours(&ours, input, rss)?;
            let k = generate_kopium(&kopium, input, rss)?;
            if run > 0 {
                input.ours.samples.push(s);
                input.kopium.samples.push(k);
            }
        }
    }
    for input in &mut inputs {
        input.ours.lines = fs::read_to_string(&input.ours.out)?.lines().count();
        input.kopium.lines = fs::read_to_string(&input.kopium.out)?.lines().count();
    }

    // The compile benchmark on the largest input.
    let largest = inputs.first().context("the corpus has CRDs")?;
    let schema_core = root.join("schema-core");
    let mut crates = Vec::new();
    for (name, deps, lib) in [
        (
            "baseline",
            schema_core_dependency(&schema_core) + &kopium_dependencies(),
            "//! Empty: the dependency closure alone.\n".to_string(),
        ),
        (
            "ours",
            ours_dependencies(&schema_core),
            fs::read_to_string(&largest.ours.out)?,
        ),
        (
            "kopium",
            kopium_dependencies(),
            fs::read_to_string(&largest.kopium.out)?,
        ),
    ] {
        let krate = BenchCrate::new(&bench, "gen-bench", name);
        krate.write("bench-gen", &deps, &lib)?;
        crates.push(Crate {
            name,
            krate,
            lines: lib.lines().count(),
            cold: None,
            error: None,
            build: Vec::new(),
            check: Vec::new(),
        });
    }
    if o.generate_only {
        println!(
            "generated {} files under {} and {} crates under {}",
            2 * inputs.len(),
            bench.join("out").display(),
            crates.len(),
            bench.display()
        );
        return Ok(());
    }

    for c in &mut crates {
        let k = &c.krate;
        k.cargo(&["fetch", "--quiet"], &[])?;
        let built = if o.cold {
            k.clean()?;
            println!("{}: cold build", c.name);
            k.timed(&["build", "--quiet"], &[], None).map(|s| {
                c.cold = Some(s.secs);
            })
        } else {
            println!("{}: build", c.name);
            k.timed(&["build", "--quiet"], &[], None).map(drop)
        };
        // Warm-up of check, so that every timed run is a rebuild.
        let checked = built.and_then(|()| k.timed(&["check", "--quiet"], &[], None));
        if let Err(e) = checked {
            let e = format!("{e:#}");
            let log = bench.join(format!("{}-errors.txt", c.name));
            fs::write(&log, &e)?;
            println!(
                "{}: does not compile (all of it in {})\n{}",
                c.name,
                log.display(),
                first_errors(&e)
            );
            c.error = Some(e);
        }
    }
    for run in 0..o.runs {
        println!("compile run {}/{}", run + 1, o.runs);
        for c in crates.iter_mut().filter(|c| c.error.is_none()) {
            c.build
                .push(c.krate.timed(&["build", "--quiet"], &[], rss)?);
        }
        for c in crates.iter_mut().filter(|c| c.error.is_none()) {
            c.check
                .push(c.krate.timed(&["check", "--quiet"], &[], rss)?);
        }
    }

    let report = report(&o, &kopium_version, &inputs, &crates);
    measure::publish_report(&bench, "results.txt", &report)
}

/// `cargo build --release -p schema-gen`; the binary's path.
pub(crate) fn build_schema_gen(root: &Path) -> Result<PathBuf> {
    build_release(root, "schema-gen", "schema-gen")
}

/// Builds the binary `bin` of the workspace's package `package` with the
/// release profile; its path.
pub(crate) fn build_release(root: &Path, package: &str, bin: &str) -> Result<PathBuf> {
    println!("building {bin} (release)");
    let out = Command::new(env!("CARGO"))
        .current_dir(root)
        .args([
            "build",
            "--release",
            "-p",
            package,
            "--bin",
            bin,
            "--message-format=json-render-diagnostics",
        ])
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("running cargo build --release -p {package}"))?;
    if !out.status.success() {
        bail!("cargo build --release -p {package} failed");
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|m| m["target"]["name"] == bin)
        .find_map(|m| m["executable"].as_str().map(PathBuf::from))
        .with_context(|| format!("cargo built no {bin} executable"))
}

/// kopium from `PATH`, `~/.cargo/bin` or `target/bench-tools/bin`, else
/// installed into `target/bench-tools`.
fn find_kopium(root: &Path) -> Result<PathBuf> {
    let tools = root.join("target").join("bench-tools");
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        dirs.push(PathBuf::from(home).join("bin"));
    }
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(PathBuf::from(home).join(".cargo").join("bin"));
    }
    dirs.push(tools.join("bin"));
    if let Some(found) = dirs.iter().map(|d| d.join("kopium")).find(|p| p.is_file()) {
        return Ok(found);
    }
    println!(
        "kopium not found: installing it with `cargo install --locked --root target/bench-tools kopium`"
    );
    let status = Command::new(env!("CARGO"))
        .current_dir(root)
        .args(["install", "--locked", "--root"])
        .arg(&tools)
        .arg("kopium")
        .status()
        .context("running cargo install kopium")?;
    if !status.success() {
        bail!("cargo install kopium failed");
    }
    Ok(tools.join("bin").join("kopium"))
}

/// A command's standard output, trimmed.
fn output(cmd: &mut Command) -> Result<String> {
    let out = cmd
        .output()
        .with_context(|| format!("running {}", cmd.get_program().to_string_lossy()))?;
    if !out.status.success() {
        bail!(
            "{} failed:\n{}",
            cmd.get_program().to_string_lossy(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The `n` largest YAML files under `dir` (recursively), largest first.
fn largest(dir: &Path, n: usize) -> Result<Vec<(PathBuf, u64)>> {
    fn walk(dir: &Path, found: &mut Vec<(PathBuf, u64)>) -> Result<()> {
        for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
            let path = entry?.path();
            let meta = fs::metadata(&path)?;
            if meta.is_dir() {
                walk(&path, found)?;
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                found.push((path, meta.len()));
            }
        }
        Ok(())
    }
    let mut found = Vec::new();
    walk(dir, &mut found)?;
    found.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    found.truncate(n);
    if found.is_empty() {
        bail!(
            "no CRDs under {} (set SCHEMA_GEN_CORPUS_DIR)",
            dir.display()
        );
    }
    Ok(found)
}

struct Versions {
    all: Vec<String>,
    /// The storage version, else the first served one, else the first.
    chosen: String,
}

/// The versions of the CRD in `file`, read through `schema-gen fmt -o json`.
fn crd_versions(schema_gen: &Path, file: &Path) -> Result<Versions> {
    let json = output(
        Command::new(schema_gen)
            .arg("fmt")
            .arg(file)
            .args(["-o", "json"]),
    )?;
    let doc: Value = serde_json::from_str(&json)?;
    let crd = if doc["kind"] == "List" {
        &doc["items"][0]
    } else {
        &doc
    };
    let versions = crd["spec"]["versions"]
        .as_array()
        .with_context(|| format!("{} has no spec.versions", file.display()))?;
    let name = |v: &Value| v["name"].as_str().unwrap_or_default().to_string();
    let chosen = versions
        .iter()
        .find(|v| v["storage"] == true)
        .or_else(|| versions.iter().find(|v| v["served"] == true))
        .or(versions.first())
        .map(name)
        .with_context(|| format!("{} has no versions", file.display()))?;
    Ok(Versions {
        all: versions.iter().map(name).collect(),
        chosen,
    })
}

/// `schema-gen rust FILE --version V --out OUT`, timed (the output removed
/// first: it is only written when it changed).
fn generate_ours(schema_gen: &Path, input: &Input, rss: Option<&Path>) -> Result<Sample> {
    if input.ours.out.exists() {
        fs::remove_file(&input.ours.out)?;
    }
    let mut cmd = Command::new(schema_gen);
    cmd.arg("rust")
        .arg(&input.path)
        .args(["--version", &input.version, "--out"])
        .arg(&input.ours.out);
    measure::time_command(&cmd, Stdio::null(), rss)
}

/// `kopium --auto --api-version V -f FILE > OUT`, timed.
fn generate_kopium(kopium: &Path, input: &Input, rss: Option<&Path>) -> Result<Sample> {
    let mut cmd = Command::new(kopium);
    cmd.args(KOPIUM_FLAGS)
        .args(["--api-version", &input.version, "-f"])
        .arg(&input.path);
    let out = fs::File::create(&input.kopium.out)?;
    measure::time_command(&cmd, out.into(), rss)
}

/// The compiler's first error and what follows it, at most 40 lines.
fn first_errors(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("error"))
        .unwrap_or(0);
    lines[start..lines.len().min(start + 40)].join("\n")
}

/// A corpus file's folder and name.
fn short(path: &Path) -> PathBuf {
    let n = path.components().count();
    path.components().skip(n.saturating_sub(2)).collect()
}

fn report(o: &BuildOptions, kopium_version: &str, inputs: &[Input], crates: &[Crate]) -> String {
    let mut out = String::new();
    let ms = |s: &Stats| {
        format!(
            "{:>7.1} [{:.1}-{:.1}]",
            s.median * 1e3,
            s.min * 1e3,
            s.max * 1e3
        )
    };
    let _ = writeln!(
        out,
        "\nGeneration: `schema-gen rust FILE --version V -o OUT` vs `{kopium_version}` as \
         `kopium {} --api-version V -f FILE > OUT`\n(V: the storage version; kopium emits one \
         version per run). Median wall time of {} runs [min-max], ms; output lines; peak RSS, MB",
        KOPIUM_FLAGS.join(" "),
        o.runs
    );
    let w = inputs
        .iter()
        .map(|i| short(&i.path).as_os_str().len())
        .max()
        .unwrap_or(0);
    let header = format!(
        "{:<w$} {:>7} {:<9} | {:<24} {:>6} {:>5} | {:<24} {:>6} {:>5} | {:>13}",
        "file",
        "KB",
        "version",
        "ours ms",
        "lines",
        "RSS",
        "kopium ms",
        "lines",
        "RSS",
        "kopium / ours"
    );
    measure::write_header(&mut out, &header);
    for i in inputs {
        let ours = stats(i.ours.samples.iter().map(|s| s.secs));
        let kopium = stats(i.kopium.samples.iter().map(|s| s.secs));
        let _ = writeln!(
            out,
            "{:<w$} {:>7} {:<9} | {:<24} {:>6} {:>5} | {:<24} {:>6} {:>5} | {:>12.1}x",
            short(&i.path).display(),
            i.bytes / 1024,
            i.version,
            ms(&ours),
            i.ours.lines,
            or_dash(measure::median_rss_mb(&i.ours.samples), 0),
            ms(&kopium),
            i.kopium.lines,
            or_dash(measure::median_rss_mb(&i.kopium.samples), 0),
            kopium.median / ours.median
        );
        if i.versions.len() > 1 {
            let _ = writeln!(
                out,
                "  (the CRD has versions {}; both generated {} only)",
                i.versions.join(", "),
                i.version
            );
        }
    }

    if let Some(first) = inputs.first() {
        let _ = writeln!(
            out,
            "\nCompile: the generated code of {} ({}), as src/lib.rs of a crate; median wall \
             time of {} rebuilds after touching src/lib.rs [min-max], s; +base = minus the \
             baseline's (empty library, the union of the dependencies)",
            short(&first.path).display(),
            first.version,
            o.runs
        );
    }
    let header = format!(
        "{:<9} {:>7} | {:<20} {:>6} {:>6} | {:<20} {:>6} {:>6} | {:>8} {:>8}",
        "crate",
        "lines",
        "build s",
        "+base",
        "RSS MB",
        "check s",
        "+base",
        "RSS MB",
        "rlib KB",
        "cold s"
    );
    measure::write_header(&mut out, &header);
    let medians = |c: &Crate| {
        (!c.build.is_empty()).then(|| {
            [
                measure::median_secs(&c.build),
                measure::median_secs(&c.check),
            ]
        })
    };
    let base = crates
        .iter()
        .find(|c| c.name == "baseline")
        .and_then(medians);
    for c in crates {
        let _ = write!(out, "{:<9} {:>7}", c.name, c.lines);
        if c.error.is_some() {
            let _ = writeln!(out, " | does not compile (errors below)");
            continue;
        }
        for (m, samples) in [&c.build, &c.check].into_iter().enumerate() {
            let s = stats(samples.iter().map(|s| s.secs));
            let added = base
                .map(|b| format!("{:+.2}", s.median - b[m]))
                .unwrap_or_default();
            let _ = write!(
                out,
                " | {:<20} {:>6} {:>6}",
                format!("{:.2} [{:.2}-{:.2}]", s.median, s.min, s.max),
                added,
                or_dash(measure::median_rss_mb(samples), 0)
            );
        }
        let rlib = c
            .krate
            .rlib_kb()
            .map(|kb| kb.to_string())
            .unwrap_or_else(|| "-".to_string());
        let _ = writeln!(out, " | {rlib:>8} {:>8}", or_dash(c.cold, 1));
    }

    let find = |name: &str| crates.iter().find(|c| c.name == name && c.error.is_none());
    if let (Some(ours), Some(kopium)) = (find("ours"), find("kopium")) {
        let ratio = |a: Option<f64>, b: Option<f64>| or_dash(a.zip(b).map(|(a, b)| a / b), 2);
        let (a, k) = (medians(ours), medians(kopium));
        let added = |m: Option<[f64; 2]>, i: usize| m.zip(base).map(|(m, b)| m[i] - b[i]);
        let _ = writeln!(
            out,
            "ours / kopium (target: at most 0.25): build {} (+base {}), check {} (+base {}), \
             RSS build {}, RSS check {}",
            ratio(a.map(|m| m[0]), k.map(|m| m[0])),
            ratio(added(a, 0), added(k, 0)),
            ratio(a.map(|m| m[1]), k.map(|m| m[1])),
            ratio(added(a, 1), added(k, 1)),
            ratio(
                measure::median_rss_mb(&ours.build),
                measure::median_rss_mb(&kopium.build)
            ),
            ratio(
                measure::median_rss_mb(&ours.check),
                measure::median_rss_mb(&kopium.check)
            ),
        );
    }
    let _ = writeln!(
        out,
        "RSS: median peak resident set of the largest process (rustc on the crate); rlib: the \
         crate's debug rlib; cold: `cargo build` from an empty target directory, dependencies \
         included (one run)"
    );
    for c in crates {
        if let Some(e) = &c.error {
            let _ = writeln!(
                out,
                "\n{} does not compile; the first errors:\n{}",
                c.name,
                first_errors(e)
            );
        }
    }
    out
}
