//! `cargo xtask compare-cli`: proof that two `schema-gen` binaries behave
//! the same, byte for byte.
//!
//! Before a refactoring that must not change what the command prints,
//! build the old code's binary (the baseline) and compare it with the new
//! one (the candidate, by default `cargo build --release -p schema-gen` of
//! this workspace). Both are run on a fixed matrix of invocations, from the
//! workspace root, with the same `argv[0]` (`schema-gen`), the same
//! environment and the same stdin; for each invocation their stdout,
//! stderr and exit status must be equal byte for byte.
//!
//! The matrix:
//! - `examples/`: `check` (text and JSON) on every file there, `fmt`,
//!   `openapi` and `rust` on the CRDs, `prune`, `default` and `validate`
//!   (with and without `--old`) on the Widget objects, `lint` with both rule
//!   sets, `convert ytt` with each `--to`, in YAML and JSON where the command
//!   has both, and the less common flags (`--version`, `--schema`,
//!   `--derive`, `--no-k8s-openapi`, `--group`/`--kind`/`--crd-version`);
//! - inputs on stdin (`-`), several files and multi-document files, a
//!   missing file, malformed YAML and JSON, an empty file, and argument
//!   errors and `--help` texts (clap's output is the command's output too);
//!   fixtures for these are written under `target/compare-cli/fixtures/`;
//! - every CRD file of the corpus (`--corpus DIR`, else
//!   `SCHEMA_GEN_CORPUS_DIR`, else `../shared/corpus/crds`; `*.yaml`,
//!   `*.yml` and `*.json` below it except `index.json`): `check` (text,
//!   JSON), `fmt` (YAML, JSON), `openapi --v2` and `--v3`, and `rust`. The
//!   corpus holds CRDs only (its `index.json` lists no sample objects), so
//!   `prune`, `default` and `validate` run on the examples and fixtures.
//!
//! Invocations run on two threads, each invocation's baseline and candidate
//! one after the other, with a timeout. Each differing invocation gets one
//! line (the command line, which streams differ and where the first
//! differing line is); both sides' outputs are kept under
//! `target/compare-cli/diff/`. The last line is
//! `compare-cli: N invocations, M differ`, and the exit status is 1 when
//! `M` is not 0.

use std::fmt;
use std::fs;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::{gen_bench, workspace};

/// Options of `cargo xtask compare-cli`.
pub const USAGE: &str = "\
  compare-cli --baseline OLD_BIN [--candidate NEW_BIN] [--corpus DIR] [--verbose]
         run a fixed matrix of schema-gen invocations (every subcommand and output
         mode on examples/, stdin, error cases, and the CRD corpus) with both
         binaries and compare stdout, stderr and exit status byte for byte; exit
         status 1 if any differ. The candidate defaults to the release build of
         this workspace. --verbose lists every invocation";

/// At most this many invocations run at once.
const JOBS: usize = 2;

/// An invocation still running after this long is killed (and differs).
const TIMEOUT: Duration = Duration::from_secs(120);

/// The fixtures (`fixtures/`) and the outputs of differing invocations
/// (`diff/`), below the workspace root.
const WORK_DIR: &str = "target/compare-cli";

/// The corpus when neither `--corpus` nor `SCHEMA_GEN_CORPUS_DIR` is given,
/// relative to the workspace root.
const DEFAULT_CORPUS: &str = "../shared/corpus/crds";

/// The example files and what the matrix does with them; any other file in
/// `examples/` is only checked (and a notice asks to add it here).
const WIDGET_CRD: &str = "examples/widget-crd.yaml";
const BROKEN_CRD: &str = "examples/broken-crd.yaml";
const WIDGET: &str = "examples/widget.yaml";
const WIDGET_INVALID: &str = "examples/widget-invalid.yaml";
const VALUES_SCHEMA: &str = "examples/values.schema.json";
const YTT_SCHEMA: &str = "examples/ytt-schema.yml";
const EXAMPLES: [&str; 6] = [
    WIDGET_CRD,
    BROKEN_CRD,
    WIDGET,
    WIDGET_INVALID,
    VALUES_SCHEMA,
    YTT_SCHEMA,
];

/// The fixtures' folder (below [`WORK_DIR`]).
const FIXTURES: &str = "target/compare-cli/fixtures";

/// A second CRD: cluster-scoped, two served versions with different
/// schemas, defaults, a list map and CEL rules, a transition rule among them.
const GADGET_CRD: &str = include_str!("../fixtures/compare-cli/gadget-crd.yaml");

/// Gadgets of both versions: valid, failing a CEL rule and a duplicate
/// list-map key, and with a null and an unknown field to prune.
const GADGETS: &str = include_str!("../fixtures/compare-cli/gadgets.yaml");

/// The old objects of [`GADGETS`] for `validate --old`: the mode of the
/// first changes (a transition rule fails), the second was already invalid
/// (ratcheted).
const GADGETS_OLD: &str = include_str!("../fixtures/compare-cli/gadgets-old.yaml");

/// The Widget's schema as a bare structural schema (`--schema`, and the
/// bare-schema forms of `fmt`, `openapi` and `rust`).
const WIDGET_SCHEMA: &str = include_str!("../fixtures/compare-cli/widget-schema.yaml");

/// YAML that does not parse (an unclosed flow sequence).
const MALFORMED_YAML: &str = include_str!("../fixtures/compare-cli/malformed.yaml");

/// JSON that does not parse, not even as YAML (a bracket closed by a brace).
const MALFORMED_JSON: &str = include_str!("../fixtures/compare-cli/malformed.json");

/// One run of the command: its arguments and what it reads on stdin.
struct Invocation {
    args: Vec<String>,
    /// A file (relative to the workspace root) given on stdin.
    stdin: Option<String>,
}

impl Invocation {
    fn new(args: &[&str]) -> Self {
        Invocation {
            args: args.iter().map(|a| (*a).to_string()).collect(),
            stdin: None,
        }
    }

    fn stdin(mut self, file: &str) -> Self {
        self.stdin = Some(file.to_string());
        self
    }

    /// Whether this runs `command` on inputs (not only for its help).
    fn runs(&self, command: &str) -> bool {
        self.args.first().is_some_and(|a| a == command) && !self.args.iter().any(|a| a == "--help")
    }
}

impl fmt::Display for Invocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("schema-gen")?;
        for a in &self.args {
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || c == '\'') {
                write!(f, " {a:?}")?;
            } else {
                write!(f, " {a}")?;
            }
        }
        if let Some(s) = &self.stdin {
            write!(f, " < {s}")?;
        }
        Ok(())
    }
}

/// What one binary did with an invocation.
enum Outcome {
    Exited {
        status: ExitStatus,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
    },
    TimedOut,
}

impl Outcome {
    /// `exit N`, the signal that ended the process, or the timeout.
    fn status(&self) -> String {
        match self {
            Outcome::Exited { status, .. } => status
                .code()
                .map_or_else(|| status.to_string(), |c| format!("exit {c}")),
            Outcome::TimedOut => format!("timed out after {} s", TIMEOUT.as_secs()),
        }
    }
}

/// How one invocation went (the outputs themselves are not kept: those of
/// a differing invocation are written to `target/compare-cli/diff/`).
struct Comparison {
    /// The baseline's exit status ([`Outcome::status`]).
    status: String,
    /// Empty when the outcomes are identical.
    differences: Vec<String>,
}

/// The command-line options.
struct Options {
    baseline: PathBuf,
    candidate: Option<PathBuf>,
    corpus: Option<PathBuf>,
    verbose: bool,
}

/// Runs the comparison with the arguments after `compare-cli`.
pub fn run(args: &[String]) -> Result<()> {
    let Some(o) = parse(args)? else {
        println!("usage: cargo xtask\n{USAGE}");
        return Ok(());
    };
    let root = workspace::root()?;
    let cwd = std::env::current_dir()?;
    let baseline = executable(&cwd.join(&o.baseline))?;

    // The matrix first: a wrong --corpus fails before a long build.
    write_fixtures(&root)?;
    let mut matrix = examples_matrix(&root)?;
    match corpus_dir(&root, &cwd, o.corpus.as_deref())? {
        Some(dir) => {
            let files = corpus_files(&root, &dir)?;
            println!(
                "compare-cli: {} CRD files in the corpus {}",
                files.len(),
                dir.display()
            );
            println!(
                "notice: the corpus provides no sample objects (its index.json lists CRD \
                 files only): prune, default and validate run on examples and fixtures only"
            );
            matrix.extend(corpus_matrix(&files));
        }
        None => println!(
            "notice: no corpus at {} (set SCHEMA_GEN_CORPUS_DIR or --corpus): \
             corpus invocations skipped",
            root.join(DEFAULT_CORPUS).display()
        ),
    }
    let diff_dir = root.join(WORK_DIR).join("diff");
    match fs::remove_dir_all(&diff_dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(e).with_context(|| format!("removing {}", diff_dir.display()));
        }
        _ => {}
    }

    let candidate = match &o.candidate {
        Some(c) => executable(&cwd.join(c))?,
        None => executable(&gen_bench::build_schema_gen(&root)?)?,
    };
    check_every_command_runs(&candidate, &matrix)?;
    println!(
        "compare-cli: {} invocations on {JOBS} threads\n  baseline  {}\n  candidate {}",
        matrix.len(),
        baseline.display(),
        candidate.display()
    );

    let start = Instant::now();
    let sides = Sides {
        root: &root,
        baseline: &baseline,
        candidate: &candidate,
        diff_dir: &diff_dir,
    };
    let results = run_matrix(&sides, &matrix);
    let elapsed = start.elapsed();
    let mut differ = 0;
    for (inv, result) in matrix.iter().zip(&results) {
        match result {
            Ok(c) if c.differences.is_empty() => {
                if o.verbose {
                    println!("same ({}): {inv}", c.status);
                }
            }
            Ok(c) => {
                differ += 1;
                println!("DIFFERS: {inv}: {}", c.differences.join("; "));
            }
            Err(e) => {
                differ += 1;
                println!("DIFFERS: {inv}: could not run: {e:#}");
            }
        }
    }
    if differ > 0 {
        println!(
            "outputs of the differing invocations: {}",
            diff_dir.display()
        );
    }
    println!(
        "compare-cli: the invocations ran in {:.1} s",
        elapsed.as_secs_f64()
    );
    println!("compare-cli: {} invocations, {differ} differ", matrix.len());
    if differ > 0 {
        std::process::exit(1);
    }
    Ok(())
}

/// Parses the options; `None` for `--help`.
fn parse(args: &[String]) -> Result<Option<Options>> {
    let (mut baseline, mut candidate, mut corpus, mut verbose) = (None, None, None, false);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .map(PathBuf::from)
                .with_context(|| format!("{name} needs a value\n{USAGE}"))
        };
        match name {
            "--baseline" => baseline = Some(value()?),
            "--candidate" => candidate = Some(value()?),
            "--corpus" => corpus = Some(value()?),
            "--verbose" | "-v" => verbose = true,
            "--help" | "-h" => return Ok(None),
            _ => bail!("unknown option {arg:?}\n{USAGE}"),
        }
    }
    let baseline = baseline.with_context(|| format!("--baseline is required\n{USAGE}"))?;
    Ok(Some(Options {
        baseline,
        candidate,
        corpus,
        verbose,
    }))
}

/// `path` made absolute, if it is a file.
fn executable(path: &Path) -> Result<PathBuf> {
    if !path.is_file() {
        bail!("{} is not a file", path.display());
    }
    std::path::absolute(path).with_context(|| format!("resolving {}", path.display()))
}

/// Writes the fixtures the matrix reads (multi-document files are made of
/// the examples, so they follow them).
fn write_fixtures(root: &Path) -> Result<()> {
    let dir = root.join(FIXTURES);
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let example = |name: &str| -> Result<String> {
        let text =
            fs::read_to_string(root.join(name)).with_context(|| format!("reading {name}"))?;
        Ok(if text.ends_with('\n') {
            text
        } else {
            text + "\n"
        })
    };
    let stream = |parts: &[&str]| parts.join("---\n");
    let files = [
        ("malformed.yaml", MALFORMED_YAML.to_string()),
        ("malformed.json", MALFORMED_JSON.to_string()),
        ("empty.yaml", String::new()),
        ("schema.yaml", WIDGET_SCHEMA.to_string()),
        ("gadget-crd.yaml", GADGET_CRD.to_string()),
        ("gadgets.yaml", GADGETS.to_string()),
        ("gadgets-old.yaml", GADGETS_OLD.to_string()),
        ("crds.yaml", stream(&[&example(WIDGET_CRD)?, GADGET_CRD])),
        (
            "crds-broken.yaml",
            stream(&[&example(WIDGET_CRD)?, &example(BROKEN_CRD)?]),
        ),
        (
            "widgets.yaml",
            stream(&[&example(WIDGET)?, &example(WIDGET_INVALID)?]),
        ),
        (
            "widgets-old.yaml",
            stream(&[&example(WIDGET_INVALID)?, &example(WIDGET)?]),
        ),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    let missing = dir.join("does-not-exist.yaml");
    if missing.exists() {
        fs::remove_file(&missing).with_context(|| format!("removing {}", missing.display()))?;
    }
    Ok(())
}

/// A fixture's path relative to the workspace root.
fn fixture(name: &str) -> String {
    format!("{FIXTURES}/{name}")
}

/// `validate --crd CRD --old OLD NEW` and `more` arguments.
fn with_old(crd: &str, old: &str, new: &str, more: &[&str]) -> Invocation {
    Invocation::new(&[&["validate", "--crd", crd, "--old", old, new][..], more].concat())
}

/// The invocations on `examples/`, the fixtures and the command line itself.
fn examples_matrix(root: &Path) -> Result<Vec<Invocation>> {
    let mut m = Vec::new();
    let inv = Invocation::new;

    // `check` on every file of examples/ (CRDs or not), text and JSON.
    let mut examples = Vec::new();
    for entry in fs::read_dir(root.join("examples")).context("reading examples/")? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            let name = entry.file_name().to_string_lossy().into_owned();
            examples.push(format!("examples/{name}"));
        }
    }
    examples.sort();
    for e in &examples {
        if !EXAMPLES.contains(&e.as_str()) {
            println!("notice: {e} is only checked: give it its commands in compare_cli.rs");
        }
    }
    for e in EXAMPLES {
        if !examples.iter().any(|x| x == e) {
            bail!("{e} is missing: update compare_cli.rs");
        }
    }
    for e in &examples {
        m.push(inv(&["check", e]));
        m.push(inv(&["check", "--output", "json", e]));
    }
    m.push(inv(&["check", WIDGET_CRD, BROKEN_CRD]));
    m.push(inv(&["check", "-o", "json", WIDGET_CRD, BROKEN_CRD]));

    // The CRDs: fmt, openapi, rust.
    let crds = [WIDGET_CRD, BROKEN_CRD];
    for c in crds {
        m.push(inv(&["fmt", c]));
        m.push(inv(&["fmt", "--output", "json", c]));
        m.push(inv(&["openapi", c, "--v2"]));
        m.push(inv(&["openapi", c, "--v3"]));
        m.push(inv(&["rust", c]));
        m.push(inv(&["rust", c, "--no-docs"]));
    }
    m.push(inv(&["fmt", "-o", "yaml", WIDGET_CRD]));
    m.push(inv(&["openapi", WIDGET_CRD, "--v3", "--version", "v1"]));
    m.push(inv(&["openapi", WIDGET_CRD, "--v2", "--version", "v9"]));
    m.push(inv(&["rust", WIDGET_CRD, "--no-k8s-openapi"]));
    m.push(inv(&[
        "rust",
        WIDGET_CRD,
        "--derive",
        "PartialEq",
        "--derive",
        "Eq",
    ]));
    m.push(inv(&["rust", WIDGET_CRD, "--version", "v1", "--no-docs"]));

    // Objects: prune, default, validate.
    for obj in [WIDGET, WIDGET_INVALID] {
        for cmd in ["prune", "default", "validate"] {
            m.push(inv(&[cmd, "--crd", WIDGET_CRD, obj]));
            m.push(inv(&[cmd, "--crd", WIDGET_CRD, obj, "--output", "json"]));
        }
    }
    m.push(with_old(WIDGET_CRD, WIDGET, WIDGET_INVALID, &[]));
    m.push(with_old(
        WIDGET_CRD,
        WIDGET,
        WIDGET_INVALID,
        &["--output", "json"],
    ));
    m.push(with_old(WIDGET_CRD, WIDGET, WIDGET, &[]));
    m.push(inv(&[
        "prune",
        "--crd",
        WIDGET_CRD,
        "--version",
        "v1",
        WIDGET,
    ]));
    m.push(inv(&[
        "validate",
        "--crd",
        WIDGET_CRD,
        WIDGET,
        WIDGET_INVALID,
    ]));
    let schema = fixture("schema.yaml");
    for cmd in ["prune", "default", "validate"] {
        m.push(inv(&[cmd, "--schema", &schema, WIDGET_INVALID]));
    }
    m.push(inv(&["prune", "--schema", &schema, WIDGET, "-o", "json"]));
    // A bare schema where a CRD or a schema is read.
    m.push(inv(&["check", &schema]));
    m.push(inv(&["check", &schema, "-o", "json"]));
    m.push(inv(&["fmt", &schema]));
    m.push(inv(&["fmt", &schema, "-o", "json"]));
    m.push(inv(&["openapi", &schema, "--v2"]));
    m.push(inv(&["openapi", &schema, "--v3"]));
    m.push(inv(&["rust", &schema]));

    // lint: both rule sets, text and JSON.
    for rule_set in ["cluster-app", "cluster-app-strict"] {
        m.push(inv(&["lint", "--rule-set", rule_set, VALUES_SCHEMA]));
        m.push(inv(&[
            "lint",
            "--rule-set",
            rule_set,
            VALUES_SCHEMA,
            "--output",
            "json",
        ]));
    }
    m.push(inv(&["lint", VALUES_SCHEMA]));

    // convert ytt: each --to, YAML and JSON.
    for to in ["openapi-v3", "crd", "defaults"] {
        m.push(inv(&["convert", "ytt", YTT_SCHEMA, "--to", to]));
        m.push(inv(&[
            "convert", "ytt", YTT_SCHEMA, "--to", to, "--output", "json",
        ]));
    }
    m.push(inv(&[
        "convert",
        "ytt",
        YTT_SCHEMA,
        "--to",
        "crd",
        "--group",
        "apps.example.net",
        "--kind",
        "Settings",
        "--crd-version",
        "v2",
    ]));
    m.push(inv(&["convert", "ytt", YTT_SCHEMA]));
    m.push(inv(&["convert", "ytt", YTT_SCHEMA, "--to", "nothing"]));

    // stdin.
    m.push(inv(&["check", "-"]).stdin(WIDGET_CRD));
    m.push(inv(&["check", "-o", "json", "-"]).stdin(BROKEN_CRD));
    m.push(inv(&["fmt", "-", "-o", "json"]).stdin(WIDGET_CRD));
    m.push(inv(&["openapi", "-", "--v3"]).stdin(WIDGET_CRD));
    m.push(inv(&["rust", "-"]).stdin(WIDGET_CRD));
    m.push(inv(&["prune", "--crd", WIDGET_CRD, "-"]).stdin(WIDGET));
    m.push(inv(&["default", "--crd", "-", WIDGET]).stdin(WIDGET_CRD));
    m.push(inv(&["validate", "--crd", WIDGET_CRD, "-", "-o", "json"]).stdin(WIDGET_INVALID));
    m.push(
        inv(&[
            "validate",
            "--crd",
            WIDGET_CRD,
            "--old",
            "-",
            WIDGET_INVALID,
        ])
        .stdin(WIDGET),
    );
    m.push(inv(&["validate", "--crd", WIDGET_CRD, "--old", "-", "-"]).stdin(WIDGET));
    m.push(inv(&["lint", "-", "--rule-set", "cluster-app-strict"]).stdin(VALUES_SCHEMA));
    m.push(inv(&["convert", "ytt", "-", "--to", "defaults"]).stdin(YTT_SCHEMA));
    m.push(inv(&["check", "-"]).stdin(&fixture("empty.yaml")));

    // Multi-document inputs.
    let crds = fixture("crds.yaml");
    let crds_broken = fixture("crds-broken.yaml");
    let gadget_crd = fixture("gadget-crd.yaml");
    let gadgets = fixture("gadgets.yaml");
    let gadgets_old = fixture("gadgets-old.yaml");
    let widgets = fixture("widgets.yaml");
    let widgets_old = fixture("widgets-old.yaml");
    for f in [&crds, &crds_broken] {
        m.push(inv(&["check", f]));
        m.push(inv(&["check", f, "-o", "json"]));
        m.push(inv(&["fmt", f]));
        m.push(inv(&["fmt", f, "-o", "json"]));
        m.push(inv(&["openapi", f, "--v2"]));
        m.push(inv(&["openapi", f, "--v3"]));
        m.push(inv(&["rust", f]));
    }
    m.push(inv(&["openapi", &crds, "--v3", "--version", "v1alpha1"]));
    m.push(inv(&["rust", &gadget_crd, "--version", "v1alpha1"]));
    m.push(inv(&["fmt", &widgets, "-o", "json"]));
    for cmd in ["prune", "default", "validate"] {
        m.push(inv(&[cmd, "--crd", &crds, &widgets, &gadgets]));
        m.push(inv(&[
            cmd, "--crd", &crds, &widgets, &gadgets, "-o", "json",
        ]));
    }
    m.push(inv(&[
        "validate",
        "--crd",
        &gadget_crd,
        "--version",
        "v1",
        &gadgets,
    ]));
    m.push(with_old(&gadget_crd, &gadgets_old, &gadgets, &[]));
    m.push(with_old(
        &gadget_crd,
        &gadgets_old,
        &gadgets,
        &["-o", "json"],
    ));
    m.push(with_old(WIDGET_CRD, &widgets_old, &widgets, &[]));
    // Old and new object counts differ.
    m.push(with_old(WIDGET_CRD, WIDGET, &widgets, &[]));
    m.push(inv(&["prune", "--crd", &gadget_crd, WIDGET]));

    // Inputs that cannot be processed: missing, malformed, empty.
    let missing = fixture("does-not-exist.yaml");
    let malformed = fixture("malformed.yaml");
    let malformed_json = fixture("malformed.json");
    let empty = fixture("empty.yaml");
    for f in [&missing, &malformed] {
        m.push(inv(&["check", f]));
        m.push(inv(&["check", "-o", "json", f]));
        m.push(inv(&["fmt", f]));
        m.push(inv(&["openapi", f, "--v3"]));
        m.push(inv(&["rust", f]));
        m.push(inv(&["prune", "--crd", f, WIDGET]));
        m.push(inv(&["default", "--crd", WIDGET_CRD, f]));
        m.push(inv(&["validate", "--crd", WIDGET_CRD, f, "-o", "json"]));
        m.push(inv(&["validate", "--crd", WIDGET_CRD, "--old", f, WIDGET]));
        m.push(inv(&["lint", f]));
        m.push(inv(&["convert", "ytt", f, "--to", "defaults"]));
    }
    m.push(inv(&["check", WIDGET_CRD, &missing, BROKEN_CRD]));
    m.push(inv(&["check", &malformed_json]));
    m.push(inv(&["fmt", &malformed_json, "-o", "json"]));
    m.push(inv(&["lint", &malformed_json]));
    m.push(inv(&["check", &empty]));
    m.push(inv(&["fmt", &empty]));
    m.push(inv(&["validate", "--crd", WIDGET_CRD, &empty]));

    // The command line itself: help, version, argument errors.
    m.push(inv(&[]));
    m.push(inv(&["--help"]));
    m.push(inv(&["--version"]));
    m.push(inv(&["help", "validate"]));
    for cmd in [
        "check",
        "fmt",
        "openapi",
        "prune",
        "default",
        "validate",
        "rust",
        "lint",
        "convert",
        "explain",
        "diff",
        "docs",
        "completions",
    ] {
        m.push(inv(&[cmd, "--help"]));
    }
    m.push(inv(&["convert", "ytt", "--help"]));
    m.push(inv(&["frobnicate"]));
    m.push(inv(&["check"]));
    m.push(inv(&["check", "-o", "xml", WIDGET_CRD]));
    m.push(inv(&["openapi", WIDGET_CRD]));
    m.push(inv(&["openapi", WIDGET_CRD, "--v2", "--v3"]));
    m.push(inv(&["prune", WIDGET]));
    m.push(inv(&[
        "prune", "--crd", WIDGET_CRD, "--schema", &schema, WIDGET,
    ]));
    m.push(inv(&[
        "default",
        "--schema",
        &schema,
        "--version",
        "v1",
        WIDGET,
    ]));
    m.push(inv(&["lint", "--rule-set", "strict", VALUES_SCHEMA]));
    m.push(inv(&["convert", "cue", YTT_SCHEMA]));

    // `explain`, `diff`, `docs` (its messages: the documents are files)
    // and `completions`.
    let crds = fixture("crds.yaml");
    let crds_broken = fixture("crds-broken.yaml");
    m.push(inv(&["explain", WIDGET_CRD]));
    m.push(inv(&["explain", &crds, "widgets"]));
    m.push(inv(&["explain", &crds, "widgets.spec", "--recursive"]));
    m.push(inv(&["explain", &crds, "widgets", "-o", "json"]));
    m.push(inv(&["explain", &crds, "widgets", "-o", "kubectl"]));
    m.push(inv(&[
        "explain",
        &crds,
        "widgets",
        "--kube-version",
        "1.30",
    ]));
    m.push(inv(&["explain", &crds, "widgets.spek"]));
    m.push(inv(&["explain", &crds_broken, "widgets"]));
    m.push(inv(&["explain", &missing, "widgets"]));
    for format in ["text", "json", "sarif"] {
        m.push(inv(&["diff", WIDGET_CRD, WIDGET_CRD, "-o", format]));
        m.push(inv(&["diff", WIDGET_CRD, &gadget_crd, "-o", format]));
        m.push(inv(&["diff", &crds, WIDGET_CRD, "-o", format]));
        m.push(inv(&[
            "diff",
            WIDGET_CRD,
            BROKEN_CRD,
            "-o",
            format,
            "--objects",
            WIDGET,
        ]));
    }
    m.push(inv(&["diff", &missing, WIDGET_CRD]));
    m.push(inv(&["diff", &malformed, WIDGET_CRD]));
    m.push(inv(&["docs", &missing, "--out", WORK_DIR]));
    m.push(inv(&["docs", &malformed, "--out", WORK_DIR]));
    for shell in ["bash", "zsh", "fish"] {
        m.push(inv(&["completions", shell]));
    }
    Ok(m)
}

/// Fails when `candidate --help` lists a command that no invocation of
/// `matrix` runs: every command's output is compared.
fn check_every_command_runs(candidate: &Path, matrix: &[Invocation]) -> Result<()> {
    let help = std::process::Command::new(candidate)
        .arg("--help")
        .output()
        .with_context(|| format!("running {} --help", candidate.display()))?;
    let help = String::from_utf8_lossy(&help.stdout);
    let commands = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next());
    for command in commands {
        if command != "help" && !matrix.iter().any(|i| i.runs(command)) {
            bail!("`schema-gen {command}` is never run: give it invocations in compare_cli.rs");
        }
    }
    Ok(())
}

/// The corpus folder: `--corpus` (which must exist), else
/// `SCHEMA_GEN_CORPUS_DIR`, else `../shared/corpus/crds` beside the
/// workspace (`None` when that one is absent). A default corpus stays
/// relative to the workspace root, where the binaries run, so that the
/// file names they print are short.
fn corpus_dir(root: &Path, cwd: &Path, flag: Option<&Path>) -> Result<Option<PathBuf>> {
    if let Some(dir) = flag {
        let dir = std::path::absolute(cwd.join(dir))?;
        if !dir.is_dir() {
            bail!("--corpus {}: no such directory", dir.display());
        }
        return Ok(Some(dir));
    }
    let dir = match std::env::var_os("SCHEMA_GEN_CORPUS_DIR") {
        Some(d) => std::path::absolute(cwd.join(d))?,
        None => PathBuf::from(DEFAULT_CORPUS),
    };
    Ok(root.join(&dir).is_dir().then_some(dir))
}

/// Every CRD file below `dir` (`*.yaml`, `*.yml`, `*.json`, except the
/// corpus's `index.json`), sorted, as paths the binaries are given.
fn corpus_files(root: &Path, dir: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let read =
            fs::read_dir(root.join(&d)).with_context(|| format!("reading {}", d.display()))?;
        for entry in read {
            let entry = entry?;
            let path = d.join(entry.file_name());
            if entry.file_type()?.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
                && entry.file_name() != "index.json"
            {
                let path = path
                    .to_str()
                    .with_context(|| format!("{} is not UTF-8", path.display()))?;
                out.push(path.to_string());
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The invocations on each corpus file.
fn corpus_matrix(files: &[String]) -> Vec<Invocation> {
    let mut m = Vec::new();
    for f in files {
        m.push(Invocation::new(&["check", f]));
        m.push(Invocation::new(&["check", "--output", "json", f]));
        m.push(Invocation::new(&["fmt", f]));
        m.push(Invocation::new(&["fmt", "--output", "json", f]));
        m.push(Invocation::new(&["openapi", f, "--v2"]));
        m.push(Invocation::new(&["openapi", f, "--v3"]));
        m.push(Invocation::new(&["rust", f]));
    }
    m
}

/// The two binaries and where they run.
struct Sides<'a> {
    /// The workspace root: the working directory of every invocation.
    root: &'a Path,
    baseline: &'a Path,
    candidate: &'a Path,
    /// Where the outputs of differing invocations go.
    diff_dir: &'a Path,
}

/// Runs every invocation with both binaries on [`JOBS`] threads; the
/// results in matrix order.
fn run_matrix(sides: &Sides<'_>, matrix: &[Invocation]) -> Vec<Result<Comparison>> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Result<Comparison>)>> = Mutex::new(Vec::new());
    let progress = std::io::stderr().is_terminal();
    thread::scope(|s| {
        for _ in 0..JOBS {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(inv) = matrix.get(i) else { break };
                    let result = compare(sides, i, inv);
                    if let Ok(mut r) = results.lock() {
                        r.push((i, result));
                    }
                    let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if progress {
                        eprint!("\r{n}/{}", matrix.len());
                        if n == matrix.len() {
                            eprintln!();
                        }
                    }
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Runs invocation number `index` with the baseline, then the candidate,
/// and compares; keeps both outputs when they differ.
fn compare(sides: &Sides<'_>, index: usize, inv: &Invocation) -> Result<Comparison> {
    let baseline = execute(sides.root, sides.baseline, inv)?;
    let candidate = execute(sides.root, sides.candidate, inv)?;
    let mut differences = Vec::new();
    match (&baseline, &candidate) {
        (
            Outcome::Exited {
                status: bs,
                stdout: bo,
                stderr: be,
            },
            Outcome::Exited {
                status: cs,
                stdout: co,
                stderr: ce,
            },
        ) => {
            let (bo, co) = (without_timings(bo), without_timings(co));
            let (be, ce) = (without_timings(be), without_timings(ce));
            if bo != co {
                differences.push(format!("stdout differs, {}", first_difference(&bo, &co)));
            }
            if be != ce {
                differences.push(format!("stderr differs, {}", first_difference(&be, &ce)));
            }
            if bs != cs {
                differences.push(format!(
                    "exit status differs: baseline {}, candidate {}",
                    baseline.status(),
                    candidate.status()
                ));
            }
        }
        _ => differences.push(format!(
            "no result: baseline {}, candidate {}",
            baseline.status(),
            candidate.status()
        )),
    }
    if !differences.is_empty() {
        keep_outputs(sides.diff_dir, index, inv, [&baseline, &candidate])?;
    }
    Ok(Comparison {
        status: baseline.status(),
        differences,
    })
}

/// `output` with the wall times `validate` reports (`"seconds": 0.0123`
/// in JSON, `(0.01 s)` closing its text summary) written as `_`: they
/// differ from one run to the next.
fn without_timings(output: &[u8]) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(output) else {
        return output.to_vec();
    };
    let lines = text.split_inclusive('\n').map(|line| {
        let (body, end) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        let timing = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.');
        if let Some((key, value)) = body.split_once("\"seconds\": ")
            && timing(value.trim_end_matches(','))
        {
            let comma = if value.ends_with(',') { "," } else { "" };
            return format!("{key}\"seconds\": _{comma}{end}");
        }
        if let Some((summary, seconds)) = body.rsplit_once(" (")
            && seconds.strip_suffix(" s)").is_some_and(timing)
        {
            return format!("{summary} (_ s){end}");
        }
        line.to_string()
    });
    lines.collect::<String>().into_bytes()
}

/// Runs `bin` with `inv` in `root`, with `argv[0]` `schema-gen`, stdin the
/// invocation's file (or nothing), and [`TIMEOUT`].
fn execute(root: &Path, bin: &Path, inv: &Invocation) -> Result<Outcome> {
    let input = match &inv.stdin {
        Some(f) => Some(fs::read(root.join(f)).with_context(|| format!("reading {f}"))?),
        None => None,
    };
    let mut cmd = Command::new(bin);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::arg0(&mut cmd, "schema-gen");
    cmd.current_dir(root)
        .args(&inv.args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .with_context(|| format!("running {}", bin.display()))?;
    if let (Some(mut pipe), Some(input)) = (child.stdin.take(), input) {
        // The command may exit without reading it all.
        thread::spawn(move || pipe.write_all(&input));
    }
    // Each stream is read to its end on a thread of its own; both ends
    // arrive here, or the deadline does.
    let (tx, rx) = mpsc::channel();
    for (stream, pipe) in [
        (
            0,
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ),
        (
            1,
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ),
    ] {
        let tx = tx.clone();
        thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            let _ = tx.send((stream, bytes));
        });
    }
    drop(tx);
    let deadline = Instant::now() + TIMEOUT;
    let mut streams: [Option<Vec<u8>>; 2] = [None, None];
    while streams.iter().any(Option::is_none) {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok((stream, bytes)) => streams[stream] = Some(bytes),
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return Ok(Outcome::TimedOut);
            }
        }
    }
    let status = child
        .wait()
        .with_context(|| format!("waiting for {}", bin.display()))?;
    let [stdout, stderr] = streams.map(Option::unwrap_or_default);
    Ok(Outcome::Exited {
        status,
        stdout,
        stderr,
    })
}

/// Where two different outputs first differ: the line (1-based) and both
/// sides of it, around the first differing character.
fn first_difference(baseline: &[u8], candidate: &[u8]) -> String {
    let mut b = baseline.split(|&c| c == b'\n');
    let mut c = candidate.split(|&c| c == b'\n');
    let mut line = 1;
    loop {
        match (b.next(), c.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (None, None) => return "in no line".to_string(),
            (x, y) => {
                let x = x.map(String::from_utf8_lossy);
                let y = y.map(String::from_utf8_lossy);
                let column = match (&x, &y) {
                    (Some(x), Some(y)) => {
                        x.chars().zip(y.chars()).take_while(|(a, b)| a == b).count()
                    }
                    _ => 0,
                };
                let side = |s: Option<&str>| {
                    s.map_or_else(|| "(end of output)".to_string(), |s| excerpt(s, column))
                };
                return format!(
                    "first at line {line}: baseline {} | candidate {}",
                    side(x.as_deref()),
                    side(y.as_deref())
                );
            }
        }
    }
}

/// `line` quoted, shortened to a window around character `column`.
fn excerpt(line: &str, column: usize) -> String {
    const BEFORE: usize = 40;
    const WIDTH: usize = 100;
    let chars: Vec<char> = line.chars().collect();
    let start = column.saturating_sub(BEFORE);
    let end = (start + WIDTH).min(chars.len());
    let text: String = chars.get(start..end).unwrap_or_default().iter().collect();
    format!(
        "{}{text:?}{}",
        if start > 0 { "…" } else { "" },
        if end < chars.len() { "…" } else { "" }
    )
}

/// Writes both sides' outputs of a differing invocation to `dir`
/// (`NNN.cmd`, `NNN.baseline.stdout`, ...).
fn keep_outputs(dir: &Path, index: usize, inv: &Invocation, outcomes: [&Outcome; 2]) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let stem = format!("{index:03}");
    fs::write(dir.join(format!("{stem}.cmd")), format!("{inv}\n"))?;
    for (side, outcome) in ["baseline", "candidate"].into_iter().zip(outcomes) {
        let status = format!("{}\n", outcome.status());
        fs::write(dir.join(format!("{stem}.{side}.status")), status)?;
        if let Outcome::Exited { stdout, stderr, .. } = outcome {
            fs::write(dir.join(format!("{stem}.{side}.stdout")), stdout)?;
            fs::write(dir.join(format!("{stem}.{side}.stderr")), stderr)?;
        }
    }
    Ok(())
}
