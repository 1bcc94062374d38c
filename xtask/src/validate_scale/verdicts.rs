//! What each tool says of each object of `bench-validate-scale`'s
//! repository, from one untimed run with JSON output.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::Value;

use super::runs::{kubeconform_command, ours_command};
use crate::measure;

/// What a tool said of one object.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Said {
    Valid,
    Invalid,
    /// Not validated (no schema, say).
    Failed,
}

/// A tool's verdicts by file, kind and object name, and its summary line.
pub(super) struct Verdicts {
    pub(super) by_object: HashMap<(String, String, String), Said>,
    /// Documents it could not validate that have no name to match.
    pub(super) unmatched: usize,
    pub(super) summary: String,
}

/// schema-gen's verdicts (`-o json`, 2 jobs): invalid when it reports
/// errors or a rejection.
pub(super) fn ours_verdicts(schema_gen: &Path, bench: &Path, strict: bool) -> Result<Verdicts> {
    let mut cmd = ours_command(schema_gen, bench, "repo", 2);
    cmd.args(["-o", "json"]);
    if strict {
        cmd.arg("--strict");
    }
    let out = cmd.output().context("running schema-gen validate")?;
    measure::expect_validated("schema-gen validate", out.status, &out.stderr)?;
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
pub(super) fn kubeconform_verdicts(kubeconform: &Path, bench: &Path) -> Result<Verdicts> {
    let out = kubeconform_command(kubeconform, bench, 2, true)
        .output()
        .context("running kubeconform")?;
    measure::expect_validated("kubeconform", out.status, &out.stderr)?;
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
