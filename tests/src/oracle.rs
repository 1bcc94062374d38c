//! The oracle (`oracle/`): the API server's own schema code as a long-lived
//! subprocess, one per Kubernetes version, asked one JSON line at a time;
//! and the comparison of its answers with ours ([`crate::ours`]).

#![allow(clippy::panic, clippy::expect_used)] // a test helper: a broken oracle ends the run

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, PoisonError};

use serde_json::Value;

use crate::go::{go_build, go_command, go_target_dir, oracle_dir};

/// One build of the oracle: a Kubernetes version and its module file.
#[derive(Clone, Debug)]
pub struct OracleVersion {
    /// `major.minor`, e.g. `1.37`.
    pub kube: String,
    /// The module file it builds with: `go.mod` or `kube-<version>.mod`.
    pub modfile: String,
}

/// The versions the oracle builds for: `go.mod` (the version named on its
/// `k8s.io/apiextensions-apiserver` requirement) and every
/// `kube-<major>.<minor>.mod` beside it.
pub fn oracle_versions() -> Vec<OracleVersion> {
    let dir = oracle_dir();
    let mut out = Vec::new();
    if let Ok(text) = std::fs::read_to_string(dir.join("go.mod"))
        && let Some(kube) = kube_version_of(&text)
    {
        out.push(OracleVersion {
            kube,
            modfile: "go.mod".into(),
        });
    }
    let mut extra: Vec<OracleVersion> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let kube = name
                .strip_prefix("kube-")?
                .strip_suffix(".mod")?
                .to_string();
            Some(OracleVersion {
                kube,
                modfile: name,
            })
        })
        .collect();
    extra.sort_by(|a, b| a.kube.cmp(&b.kube));
    out.extend(extra);
    out
}

/// `1.37` from `k8s.io/apiextensions-apiserver v0.37.0` in a go.mod.
fn kube_version_of(gomod: &str) -> Option<String> {
    let line = gomod.lines().find(|l| {
        l.trim_start()
            .starts_with("k8s.io/apiextensions-apiserver ")
    })?;
    let v = line.split_whitespace().nth(1)?.strip_prefix("v0.")?;
    let minor = v.split('.').next()?;
    Some(format!("1.{minor}"))
}

/// A running oracle.
pub struct Oracle {
    /// The version it was built for.
    pub version: OracleVersion,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Oracle {
    /// Builds (when its sources or module file changed; Go's cache decides)
    /// and starts the oracle of `version`. `None`, after a notice, when Go
    /// is missing and optional (see [`crate::go::go_command`]).
    ///
    /// # Panics
    ///
    /// When the build fails or the process cannot start.
    pub fn start(version: &OracleVersion) -> Option<Oracle> {
        let go = go_command("the differential tests against the API server's code")?;
        let out = go_target_dir().join(format!("oracle-{}", version.kube));
        let modfile = format!("-modfile={}", version.modfile);
        let mut flags = vec!["-ldflags=-checklinkname=0"];
        if version.modfile != "go.mod" {
            flags.push(&modfile);
        }
        // One build per version and process: the tests that start an
        // oracle run on parallel threads, and one must not rewrite the
        // binary another is starting.
        static BUILT: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());
        let mut built = BUILT.lock().unwrap_or_else(PoisonError::into_inner);
        if !built.contains(&out) {
            if let Err(e) = go_build(&go, &oracle_dir(), ".", &out, &flags) {
                panic!("{e}");
            }
            built.insert(out.clone());
        }
        drop(built);
        Some(Self::spawn(version.clone(), out))
    }

    fn spawn(version: OracleVersion, exe: PathBuf) -> Oracle {
        let mut child = Command::new(&exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Oracle {
            version,
            child,
            stdin,
            stdout,
        }
    }

    /// The oracle's answer to one request.
    ///
    /// # Panics
    ///
    /// When the process is gone or answers with something that is not JSON.
    pub fn ask(&mut self, req: &Value) -> Value {
        let mut line = serde_json::to_vec(req).expect("a request encodes");
        line.push(b'\n');
        self.stdin
            .write_all(&line)
            .and_then(|()| self.stdin.flush())
            .expect("the oracle reads requests");
        let mut answer = String::new();
        let n = self
            .stdout
            .read_line(&mut answer)
            .expect("the oracle answers");
        assert!(n > 0, "the oracle exited");
        serde_json::from_str(&answer).expect("the oracle answers in JSON")
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The part of an answer both sides give: field errors as type, field and
/// detail; for `admit`, no `warnings` (the
/// server's are its registry's create and update warnings, ours are notes
/// on what admission changed); for the published documents (`publish`,
/// `build_openapi`), the definitions of the CRD's models and everything
/// they refer to, without the REST `paths`, their `parameters` and the
/// definitions only operations use (`DeleteOptions`, `Status`, `Patch`,
/// ...), which describe the API server's endpoints, not the schemas.
pub fn comparable(req: &Value, answer: &mut Value) {
    // Field errors are compared as type, field and detail; the message
    // adds the bad value, which upstream renders from its internal Go
    // structs (Go field names, every zero field) where ours renders JSON.
    for key in ["errors", "celErrors"] {
        if let Some(Value::Array(errs)) = answer.get_mut(key) {
            for e in errs {
                if let Some(m) = e.as_object_mut() {
                    m.shift_remove("message");
                }
            }
        }
    }
    match req["op"].as_str() {
        Some("admit") => {
            if let Some(m) = answer.as_object_mut() {
                m.shift_remove("warnings");
            }
        }
        Some("publish" | "build_openapi") => {
            if let Some(doc) = answer.get_mut("document") {
                *doc = models_only(doc);
            }
            if let Some(Value::Object(docs)) = answer.get_mut("documents") {
                for doc in docs.values_mut() {
                    *doc = models_only(doc);
                }
            }
        }
        _ => {}
    }
}

/// A Swagger 2.0 or OpenAPI 3 document reduced to its model definitions:
/// those outside `io.k8s.` (the built-in API and apimachinery types the
/// operations use) and what they reach by `$ref`.
fn models_only(doc: &Value) -> Value {
    let (key, defs) = if let Some(d) = doc.get("definitions") {
        ("definitions", d)
    } else if let Some(d) = doc.pointer("/components/schemas") {
        ("schemas", d)
    } else {
        return Value::Null;
    };
    let Some(defs) = defs.as_object() else {
        return Value::Null;
    };
    let mut keep: std::collections::BTreeSet<String> = defs
        .keys()
        .filter(|k| !k.starts_with("io.k8s.api.") && !k.starts_with("io.k8s.apimachinery."))
        .cloned()
        .collect();
    let mut todo: Vec<String> = keep.iter().cloned().collect();
    while let Some(name) = todo.pop() {
        let mut refs = Vec::new();
        if let Some(d) = defs.get(&name) {
            collect_refs(d, &mut refs);
        }
        for r in refs {
            if defs.contains_key(&r) && keep.insert(r.clone()) {
                todo.push(r);
            }
        }
    }
    let kept: serde_json::Map<String, Value> = keep
        .into_iter()
        .filter_map(|k| defs.get(&k).map(|v| (k, v.clone())))
        .collect();
    serde_json::json!({ key: kept })
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == "$ref"
                    && let Some(r) = x.as_str()
                {
                    out.push(r.rsplit('/').next().unwrap_or(r).to_string());
                } else {
                    collect_refs(x, out);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, out)),
        _ => {}
    }
}

/// How often a request whose answers differ is asked again: upstream's
/// answer is not always the same (Go's map iteration order decides where
/// a rule over a map stops and what it costs, and which of several errors
/// comes first), so ours must equal one of the answers upstream can give.
pub const REASKS: usize = 24;

/// The differences between upstream's and our comparable answers to
/// `req`, empty when ours equals one of the answers upstream gives when
/// asked up to [`REASKS`] more times.
pub fn compare(oracle: &mut Oracle, req: &Value) -> Vec<String> {
    let mut ours = crate::ours::answer(req);
    comparable(req, &mut ours);
    let mut first = Vec::new();
    for attempt in 0..=REASKS {
        let mut theirs = oracle.ask(req);
        comparable(req, &mut theirs);
        let d = differences(&theirs, &ours);
        if d.is_empty() {
            return d;
        }
        if attempt == 0 {
            first = d;
        }
    }
    first
}

/// The differences between the oracle's answer and ours, one line each
/// with its JSON path; empty when they agree. Numbers are equal when their
/// values are (Go writes `1.0` as `1`); lists of field errors (`errors`,
/// `celErrors`) are compared as multisets, since upstream's order follows
/// Go map iteration in places; `warnings` likewise.
pub fn differences(theirs: &Value, ours: &Value) -> Vec<String> {
    let mut out = Vec::new();
    diff_at("", theirs, ours, &mut out);
    out
}

fn diff_at(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.as_f64() == y.as_f64() => {}
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let p = format!("{path}/{k}");
                match y.get(k) {
                    Some(w) => {
                        if is_unordered(k) {
                            diff_unordered(&p, v, w, out);
                        } else {
                            diff_at(&p, v, w, out);
                        }
                    }
                    None => out.push(format!("{p}: upstream {v}, ours absent")),
                }
            }
            for (k, w) in y {
                if !x.contains_key(k) {
                    out.push(format!("{path}/{k}: upstream absent, ours {w}"));
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                diff_at(&format!("{path}/{i}"), v, w, out);
            }
        }
        (Value::String(x), Value::String(y))
            if x != y && without_type_ids(x) == without_type_ids(y) => {}
        _ if a == b => {}
        _ => out.push(format!("{path}: upstream {a}, ours {b}")),
    }
}

/// A message with the numbers of CEL's generated object type names
/// removed: upstream names a rule's object types `selfType` plus a random
/// number per compilation (`selfType886668195`), so two runs of upstream
/// itself differ there.
fn without_type_ids(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("selfType") {
        out.push_str(&rest[..i + "selfType".len()]);
        rest = rest[i + "selfType".len()..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

fn is_unordered(key: &str) -> bool {
    matches!(key, "errors" | "celErrors" | "warnings")
}

fn diff_unordered(path: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    let (Value::Array(x), Value::Array(y)) = (a, b) else {
        return diff_at(path, a, b, out);
    };
    let mut left: Vec<&Value> = y.iter().collect();
    let mut missing = Vec::new();
    for v in x {
        match left.iter().position(|w| differences(v, w).is_empty()) {
            Some(i) => {
                left.remove(i);
            }
            None => missing.push(v),
        }
    }
    for v in missing {
        out.push(format!("{path}: upstream has {v}, ours not"));
    }
    for w in left {
        out.push(format!("{path}: ours has {w}, upstream not"));
    }
}
