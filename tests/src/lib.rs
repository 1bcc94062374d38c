//! Shared helpers of the integration tests: locating the shared data
//! (conformance cases and the CRD corpus) and reading it.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use schema_core::model::structural::Structural;
use serde_json::{Map, Value, json};

pub mod fuzz;
pub mod go;
pub mod oracle;
pub mod ours;
mod walk;

pub use walk::files_below;

/// Writes one line straight to the process's standard output, past the
/// test harness's capture of `print!`: a suite's summary lines and notices
/// show in every run, not only in a failing test's output.
pub fn report_line(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(format!("{line}\n").as_bytes());
    let _ = out.flush();
}

/// `println!` for a suite's summary lines: formats its arguments and
/// writes them with [`report_line`], whether or not the harness captures
/// the test's output.
#[macro_export]
macro_rules! report {
    ($($arg:tt)*) => {
        $crate::report_line(&::std::format!($($arg)*))
    };
}

/// Prints `line` with [`report_line`] the first time this process sees it:
/// a missing shared folder or tool is named once, however many tests need
/// it.
pub fn notice(line: &str) {
    static SEEN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let first = SEEN
        .lock()
        .map_or(true, |mut seen| seen.insert(line.to_string()));
    if first {
        report_line(line);
    }
}

/// The workspace root (the folder of the top `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Whether a missing shared folder must fail the run
/// (`SCHEMA_GEN_REQUIRE_SHARED=1`, set by CI).
pub fn shared_required() -> bool {
    std::env::var("SCHEMA_GEN_REQUIRE_SHARED").is_ok_and(|v| v == "1")
}

/// Resolves a shared data folder: `env_var` if set, else
/// `../shared/<rel>` beside the workspace. Returns `None` (after printing
/// one notice) when it does not exist and the shared data is optional;
/// panics when it is required.
pub fn shared_dir(env_var: &str, rel: &str) -> Option<PathBuf> {
    let dir = std::env::var_os(env_var)
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("..").join("shared").join(rel));
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        !shared_required(),
        "shared data folder {} is missing and SCHEMA_GEN_REQUIRE_SHARED=1",
        dir.display()
    );
    notice(&format!(
        "notice: {} not found (set {env_var}); tests that need it are skipped",
        dir.display()
    ));
    None
}

/// The conformance folder (`SCHEMA_GEN_CONFORMANCE_DIR` or `../shared/conformance`).
pub fn conformance_dir() -> Option<PathBuf> {
    shared_dir("SCHEMA_GEN_CONFORMANCE_DIR", "conformance")
}

/// The conformance suites kept in this repository (`tests/conformance`),
/// run beside the shared ones.
pub fn repo_conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance")
}

/// The CRD corpus folder (`SCHEMA_GEN_CORPUS_DIR` or `../shared/corpus/crds`).
pub fn corpus_dir() -> Option<PathBuf> {
    shared_dir("SCHEMA_GEN_CORPUS_DIR", "corpus/crds")
}

/// The CRD corpus: its folder and every CRD file in it.
pub struct Corpus {
    /// The corpus folder.
    pub dir: PathBuf,
    /// Every YAML and JSON file below it (its `index.json` left out),
    /// sorted.
    pub files: Vec<CorpusFile>,
}

/// One file of the corpus.
pub struct CorpusFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its path relative to the corpus folder, as reports name it.
    pub name: String,
}

impl Corpus {
    /// The corpus of [`corpus_dir`], or `None` (after its notice) when
    /// there is none. Panics when the folder holds no CRD file.
    pub fn open() -> Option<Corpus> {
        let dir = corpus_dir()?;
        let files: Vec<CorpusFile> = files_below(&dir, &["yaml", "yml", "json"])
            .into_iter()
            .filter(|path| path.file_name().is_none_or(|n| n != "index.json"))
            .map(|path| {
                let name = path
                    .strip_prefix(&dir)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                CorpusFile { path, name }
            })
            .collect();
        assert!(!files.is_empty(), "no CRDs under {}", dir.display());
        Some(Corpus { dir, files })
    }
}

/// The workspace's own example folder.
pub fn examples_dir() -> PathBuf {
    workspace_root().join("examples")
}

/// A value for `s` with every property present (and one entry in every
/// map), each scalar a value its own constraints and rules accept where
/// that is easy to tell (enum values, minimum lengths and bounds, the
/// format or the CEL function that reads it).
pub fn sample_object(s: &Structural) -> Value {
    sample(s, 0)
}

fn sample(s: &Structural, depth: usize) -> Value {
    if depth > 64 {
        return Value::Null;
    }
    let vv = s.value_validation.as_deref();
    // An enum value of the node's kind (one of another kind, as an array
    // node's string values, can never be met: the node's own sample then).
    let t = s.generic.type_.as_str();
    let fits = |e: &&Value| match e {
        Value::String(_) => t == "string" || t.is_empty(),
        Value::Number(_) => matches!(t, "integer" | "number") || t.is_empty(),
        Value::Bool(_) => t == "boolean" || t.is_empty(),
        Value::Array(_) => t == "array" || t.is_empty(),
        Value::Object(_) => t == "object" || t.is_empty(),
        Value::Null => true,
    };
    if let Some(e) = vv.and_then(|v| v.enum_.iter().find(fits)) {
        return e.clone();
    }
    if s.extensions.int_or_string {
        return json!(1);
    }
    let mut v = match s.generic.type_.as_str() {
        "object" => {
            let mut m = Map::new();
            for (k, p) in &s.properties {
                m.insert(k.clone(), sample(p, depth + 1));
            }
            if let Some(ap) = s
                .generic
                .additional_properties
                .as_ref()
                .and_then(|a| a.structural.as_deref())
            {
                m.insert("key".into(), sample(ap, depth + 1));
            }
            Value::Object(m)
        }
        "array" => match s.items.as_deref() {
            Some(i) => json!([sample(i, depth + 1)]),
            None => json!([]),
        },
        "string" => {
            let format = vv.map_or("", |v| v.format.as_str());
            // A string its own rules can parse.
            let rules: String = s
                .x_validations
                .iter()
                .filter_map(|r| r.rule.as_deref())
                .collect();
            let hint = if rules.contains("duration(self") {
                "duration"
            } else if rules.contains("url(self") {
                "url"
            } else if rules.contains("ip(self") || rules.contains("isIP(self") {
                "ip"
            } else if rules.contains("cidr(self") || rules.contains("isCIDR(self") {
                "cidr"
            } else if rules.contains("quantity(self") {
                "quantity"
            } else {
                format
            };
            match hint {
                "url" => json!("https://example.com/a"),
                "ip" => json!("10.0.0.1"),
                "cidr" => json!("10.0.0.0/8"),
                "quantity" => json!("1"),
                "date-time" => json!("2024-01-01T00:00:00Z"),
                "date" => json!("2024-01-01"),
                "duration" => json!("1s"),
                "byte" => json!("aGk="),
                _ => {
                    let n = vv.and_then(|v| v.min_length).unwrap_or(1).max(1);
                    json!("a".repeat(usize::try_from(n).unwrap_or(1)))
                }
            }
        }
        "integer" => json!(
            vv.and_then(|v| v.minimum.as_ref())
                .and_then(serde_json::Number::as_i64)
                .unwrap_or(1)
                .max(1)
        ),
        "number" => json!(1.5),
        "boolean" => json!(true),
        _ => json!({}),
    };
    if s.extensions.embedded_resource
        && let Value::Object(m) = &mut v
    {
        m.insert("apiVersion".into(), json!("v1"));
        m.insert("kind".into(), json!("Sample"));
        m.insert("metadata".into(), json!({"name": "sample"}));
    }
    v
}
/// The README's Rust examples, compiled and run as doctests.
#[doc = include_str!("../../README.md")]
pub mod readme {}
