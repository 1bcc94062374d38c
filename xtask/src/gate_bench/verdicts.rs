//! What each tool says about each object, from one untimed run with
//! machine-readable output.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::Value;

use super::repo::CrdFile;
use super::tools::{run_checked, run_kubeconform, validate_command};

/// A tool's verdicts, by object file and name.
pub(super) type Verdicts = HashMap<(String, String), Verdict>;

/// What one tool said about one object.
#[derive(Default, Clone)]
pub(super) struct Verdict {
    /// Errors: the object is rejected.
    pub(super) errors: Vec<String>,
    /// Notes that do not reject it (schema-gen: pruned fields, warnings).
    pub(super) notes: Vec<String>,
    /// The tool could not validate the object at all (kubeconform's
    /// `statusError`, such as a schema it cannot load); `errors` says why.
    pub(super) failed: bool,
}

impl Verdict {
    /// Rejected for what the object holds.
    pub(super) fn rejects(&self) -> bool {
        !self.errors.is_empty() && !self.failed
    }
}

/// kubeconform's verdict on every object, by file and name.
pub(super) fn kubeconform_verdicts(kubeconform: &Path, bench: &Path) -> Result<Verdicts> {
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

/// schema-gen's verdict on every object, by file and name
/// (`--output json`).
pub(super) fn ours_verdicts(
    schema_gen: &Path,
    files: &[CrdFile],
    bench: &Path,
) -> Result<Verdicts> {
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
