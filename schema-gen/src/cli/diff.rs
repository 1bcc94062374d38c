//! `schema-gen diff OLD NEW`: whether a change of CRDs is safe to roll
//! out. OLD and NEW are CRD files, directories of them, or `git:REV:PATH`;
//! CRDs are paired by name and compared by `schema_core::crd::diff`, and
//! the findings printed as text, JSON or a SARIF log. The exit status says
//! whether a finding reaches `--fail-on`.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::{Value, json};

use schema_core::crd::diff::{DiffOptions, DiffReport, Finding, Severity, diff, rules};
use schema_core::model::source::Location;
use schema_core::model::wire::CustomResourceDefinition;

use super::args::{DiffFormat, FailOn};
use super::crds::{crds_of, read_crds};
use super::diagnostics::{at, plural};
use super::input::{expand_inputs, load};
use super::reports::json_text;
use super::{EXIT_ERRORS, EXIT_OK, EXIT_UNPROCESSABLE, Io, git, sarif};

/// What `diff` was asked.
pub(super) struct Request<'a> {
    /// OLD: a file, directory or `git:REV:PATH`.
    pub old: &'a str,
    /// NEW: likewise.
    pub new: &'a str,
    /// `-o`.
    pub format: DiffFormat,
    /// `--fail-on`.
    pub fail_on: FailOn,
    /// `--stored-versions`.
    pub stored_versions: Option<Vec<String>>,
    /// `--objects`: stored objects to admit under OLD and NEW.
    pub objects: &'a [PathBuf],
}

/// Stored objects and where each is.
struct Objects {
    values: Vec<Value>,
    places: Vec<(String, Location)>,
}

/// Reads the documents of `--objects`.
fn read_objects(paths: &[PathBuf], io: &mut Io<'_>) -> Result<Objects, i32> {
    let mut objects = Objects {
        values: Vec::new(),
        places: Vec::new(),
    };
    let inputs = expand_inputs(paths).map_err(|msg| {
        let _ = writeln!(io.stderr, "error: {msg}");
        EXIT_UNPROCESSABLE
    })?;
    for input in &inputs {
        let loaded = load(&input.path, io).map_err(|msg| {
            let _ = writeln!(io.stderr, "error: {msg}");
            EXIT_UNPROCESSABLE
        })?;
        for doc in loaded.docs {
            if doc.value.is_object() {
                objects.places.push((loaded.name.clone(), doc.start));
                objects.values.push(doc.value);
            }
        }
    }
    Ok(objects)
}

/// The CRDs of one side and where each is defined.
type Side = (Vec<CustomResourceDefinition>, Vec<(String, Location)>);

/// Reads one side: `git:REV:PATH`, or files and directories.
fn read_side(arg: &str, io: &mut Io<'_>) -> Result<Side, i32> {
    match git::parse_spec(arg) {
        Some(Ok((rev, path))) => match git::load(rev, path) {
            Ok(files) => crds_of(files, io),
            Err(msg) => {
                let _ = writeln!(io.stderr, "error: {msg}");
                Err(EXIT_UNPROCESSABLE)
            }
        },
        Some(Err(msg)) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            Err(EXIT_UNPROCESSABLE)
        }
        None => read_crds(&[PathBuf::from(arg)], io),
    }
}

/// Runs `diff`.
pub(super) fn run(req: &Request<'_>, io: &mut Io<'_>) -> i32 {
    let old = match read_side(req.old, io) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let new = match read_side(req.new, io) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let options = DiffOptions {
        stored_versions: req.stored_versions.clone(),
    };
    let mut report = diff(&old.0, &new.0, &options);
    let mut evidence = Vec::new();
    if !req.objects.is_empty() {
        let objects = match read_objects(req.objects, io) {
            Ok(o) => o,
            Err(code) => return code,
        };
        for ev in schema_core::crd::diff::evidence(&old.0, &new.0, &objects.values) {
            let (file, at) = objects.places[ev.index].clone();
            evidence.push(Placed {
                file,
                at,
                object: ev.object,
                findings: ev.findings,
            });
        }
    }
    // The objects' findings count as the report's.
    report
        .rejected
        .extend(evidence.iter().flat_map(|e| e.findings.iter().cloned()));
    let text = match req.format {
        DiffFormat::Text => text(&report, &evidence),
        DiffFormat::Json => json_text(&json_report(&report, &evidence)),
        DiffFormat::Sarif => sarif(&report, &evidence, &old, &new),
    };
    if io.stdout.write_all(text.as_bytes()).is_err() {
        return EXIT_UNPROCESSABLE;
    }
    let _ = writeln!(io.stderr, "{}", summary(&report));
    let threshold = match req.fail_on {
        FailOn::Error => Severity::Error,
        FailOn::Warning => Severity::Warning,
    };
    if report.max_severity().is_some_and(|s| s >= threshold) {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}

/// `N errors, M warnings, K infos`.
fn summary(report: &DiffReport) -> String {
    let (e, w, i) = (report.errors(), report.warnings(), report.infos());
    format!(
        "{e} error{}, {w} warning{}, {i} info{}",
        plural(e),
        plural(w),
        plural(i)
    )
}

/// A stored object's findings, with where the object is.
struct Placed {
    file: String,
    at: Location,
    object: String,
    findings: Vec<Finding>,
}

/// Whether `f` is one of the objects' findings (counted in the report,
/// printed with the object).
fn is_object_finding(f: &Finding, evidence: &[Placed]) -> bool {
    evidence.iter().any(|e| e.findings.contains(f))
}

/// One finding a line (its `Display`), then each stored object's at its
/// place; or `no changes`.
fn text(report: &DiffReport, evidence: &[Placed]) -> String {
    if report.is_empty() {
        return "no changes\n".into();
    }
    let mut out: String = report
        .all()
        .filter(|f| !is_object_finding(f, evidence))
        .map(|f| format!("{f}\n"))
        .collect();
    for e in evidence {
        for f in &e.findings {
            out.push_str(&format!("{}: {}: {f}\n", at(&e.file, e.at), e.object));
        }
    }
    out
}

fn finding_json(f: &Finding) -> Value {
    json!({
        "rule": f.rule,
        "severity": f.severity.as_str(),
        "crd": f.crd,
        "version": f.version,
        "old_path": f.old_path,
        "new_path": f.new_path,
        "message": f.message,
        "ratcheted": f.ratcheted,
    })
}

/// `{"findings": [...], "objects": [...], "errors", "warnings", "infos"}`.
fn json_report(report: &DiffReport, evidence: &[Placed]) -> Value {
    let objects: Vec<Value> = evidence
        .iter()
        .map(|e| {
            json!({
                "file": e.file,
                "line": e.at.line,
                "column": e.at.column,
                "object": e.object,
                "findings": e.findings.iter().map(finding_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "findings": report
            .all()
            .filter(|f| !is_object_finding(f, evidence))
            .map(finding_json)
            .collect::<Vec<_>>(),
        "objects": objects,
        "errors": report.errors(),
        "warnings": report.warnings(),
        "infos": report.infos(),
    })
}

/// A SARIF 2.1.0 log: a result per finding, placed at the CRD's document
/// in NEW (in OLD for a CRD that NEW lacks), the field as a logical
/// location; the rules are every rule of `diff`.
fn sarif(report: &DiffReport, evidence: &[Placed], old: &Side, new: &Side) -> String {
    let place = |side: &Side| -> HashMap<String, (String, Location)> {
        side.0
            .iter()
            .zip(&side.1)
            .filter_map(|(crd, origin)| Some((crd.name()?.to_string(), origin.clone())))
            .rev()
            .collect()
    };
    let (old_places, new_places) = (place(old), place(new));
    let rule_list: Vec<Value> = rules::ALL
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "shortDescription": {"text": r.summary},
                "defaultConfiguration": {"level": level(r.severity)},
            })
        })
        .collect();
    let placed = |f: &Finding| {
        evidence
            .iter()
            .find(|e| e.findings.contains(f))
            .map(|e| (e.file.clone(), e.at))
    };
    let results: Vec<Value> = report
        .all()
        .map(|f| {
            let index = rules::ALL.iter().position(|r| r.id == f.rule);
            let mut location = json!({});
            let place = placed(f).or_else(|| {
                new_places
                    .get(&f.crd)
                    .or_else(|| old_places.get(&f.crd))
                    .cloned()
            });
            if let Some((file, at)) = &place {
                location["physicalLocation"] = sarif::physical_location(file, *at);
            }
            let field = f.new_path.as_ref().or(f.old_path.as_ref());
            let mut name = f.crd.clone();
            if let Some(v) = &f.version {
                name.push('/');
                name.push_str(v);
            }
            if let Some(p) = field {
                name.push('/');
                name.push_str(p);
            }
            location["logicalLocations"] = json!([{"fullyQualifiedName": name, "kind": "member"}]);
            let mut result = json!({
                "ruleId": f.rule,
                "level": level(f.severity),
                "message": {"text": f.message},
                "locations": [location],
            });
            if let Some(i) = index {
                result["ruleIndex"] = json!(i);
            }
            result
        })
        .collect();
    sarif::log(rule_list, results)
}

/// SARIF's level of a severity.
fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}
