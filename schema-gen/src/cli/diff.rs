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
use super::diagnostics::plural;
use super::input::{crds_of, read_crds};
use super::reports::json_text;
use super::validate::sarif_uri;
use super::{EXIT_ERRORS, EXIT_OK, EXIT_UNPROCESSABLE, Io, git};

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
    let report = diff(&old.0, &new.0, &options);
    let text = match req.format {
        DiffFormat::Text => text(&report),
        DiffFormat::Json => json_text(&json_report(&report)),
        DiffFormat::Sarif => sarif(&report, &old, &new),
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

/// One finding a line (its `Display`), or `no changes`.
fn text(report: &DiffReport) -> String {
    if report.is_empty() {
        return "no changes\n".into();
    }
    report.all().map(|f| format!("{f}\n")).collect()
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

/// `{"findings": [...], "errors", "warnings", "infos"}`.
fn json_report(report: &DiffReport) -> Value {
    json!({
        "findings": report.all().map(finding_json).collect::<Vec<_>>(),
        "errors": report.errors(),
        "warnings": report.warnings(),
        "infos": report.infos(),
    })
}

/// A SARIF 2.1.0 log: a result per finding, placed at the CRD's document
/// in NEW (in OLD for a CRD that NEW lacks), the field as a logical
/// location; the rules are every rule of `diff`.
fn sarif(report: &DiffReport, old: &Side, new: &Side) -> String {
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
    let results: Vec<Value> = report
        .all()
        .map(|f| {
            let index = rules::ALL.iter().position(|r| r.id == f.rule);
            let mut location = json!({});
            if let Some((file, at)) = new_places.get(&f.crd).or_else(|| old_places.get(&f.crd)) {
                location["physicalLocation"] =
                    json!({"artifactLocation": {"uri": sarif_uri(file)}});
                if at.line > 0 {
                    location["physicalLocation"]["region"] =
                        json!({"startLine": at.line, "startColumn": at.column.max(1)});
                }
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
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "schema-gen",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rule_list,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&log).unwrap_or_default()
    )
}

/// SARIF's level of a severity.
fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}
