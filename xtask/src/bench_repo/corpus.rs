//! The corpus of CRDs the benchmarks read: its folder, the files of it that
//! `schema-gen check` accepts, and the served versions of a CRD.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result};
use serde_json::{Map, Value};

use crate::workspace::files_under;

/// One served version of a CRD, with its schema.
pub(crate) struct CrdVersion {
    /// The CRD's API group.
    pub(crate) group: String,
    /// The kind of its objects.
    pub(crate) kind: String,
    /// The version's name.
    pub(crate) version: String,
    /// Whether its objects live in namespaces (not cluster-scoped).
    pub(crate) namespaced: bool,
    /// The version's `openAPIV3Schema` (a v1beta1 CRD's shared one when
    /// the version has none of its own).
    pub(crate) schema: Value,
}

impl CrdVersion {
    /// `group/Kind version`, for notes and reports.
    pub(crate) fn label(&self) -> String {
        format!("{}/{} {}", self.group, self.kind, self.version)
    }
}

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
    files_under(dir, |path| {
        path.extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
            && path.file_name().is_some_and(|n| n != "index.json")
    })
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
            Some(CrdVersion {
                group: group.clone(),
                kind: kind.clone(),
                version,
                namespaced,
                schema,
            })
        })
        .collect()
}
