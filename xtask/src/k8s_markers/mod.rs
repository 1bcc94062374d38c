//! `cargo xtask k8s-markers [--check]`: writes
//! `schema-core/src/rust/k8s/markers.rs`, the schema keys controller-gen
//! derives from the Go markers of the Kubernetes types (list, map and
//! struct types, list-map keys, defaults, validations, `required`), for
//! every type k8s-openapi has, per Kubernetes version.
//!
//! Inputs: the marker data (`SCHEMA_GEN_K8S_MARKERS_DIR`, else
//! `../shared/reference/k8s-api-markers` beside the workspace: one
//! `v1_N.json` per release) and the k8s-openapi sources in the Cargo
//! registry (the schema names, properties and `required` lists of each
//! version). A k8s-openapi version without a marker file uses the newest
//! file there is. `--check` fails when the file is out of date; it passes
//! with a notice when the marker data is absent, unless
//! `SCHEMA_GEN_REQUIRE_SHARED=1` (as CI sets).

mod arguments;
mod extensions;
mod go;
mod node;
mod openapi;
mod registry;
mod render;
mod translate;
mod validation;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::k8s_types::{k8s_openapi_src, version_dirs};
use crate::workspace::{self, write_generated};
use go::{Release, TypeRef};
use translate::{EnumConsts, Issue, KNOWN_TYPES, Translator};

const OUT: &str = "schema-core/src/rust/k8s/markers.rs";
const DEFAULT_DIR: &str = "../shared/reference/k8s-api-markers";

/// The string constants of the `+k8s:enum` types (controller-gen's enum
/// values), which the marker data does not record: read from the Go
/// sources of the tags the marker files name (`types.go` of each package).
/// `DeviceAllocationMode`'s constants are conversions
/// (`DeviceAllocationMode("All")`), not string literals, so controller-gen
/// finds none and reports an error.
const ENUM_CONSTS: &EnumConsts = &[
    (
        35,
        "k8s.io/api/resource/v1",
        "AllocationConfigSource",
        &["FromClass", "FromClaim"],
    ),
    (35, "k8s.io/api/resource/v1", "DeviceAllocationMode", &[]),
    (
        35,
        "k8s.io/api/resource/v1",
        "DeviceTaintEffect",
        &["None", "NoSchedule", "NoExecute"],
    ),
    (
        35,
        "k8s.io/api/resource/v1",
        "DeviceTolerationOperator",
        &["Exists", "Equal"],
    ),
    (
        35,
        "k8s.io/api/resource/v1beta1",
        "AllocationConfigSource",
        &["FromClass", "FromClaim"],
    ),
    (
        35,
        "k8s.io/api/resource/v1beta1",
        "DeviceAllocationMode",
        &[],
    ),
    (
        35,
        "k8s.io/api/resource/v1beta1",
        "DeviceTaintEffect",
        &["None", "NoSchedule", "NoExecute"],
    ),
    (
        35,
        "k8s.io/api/resource/v1beta1",
        "DeviceTolerationOperator",
        &["Exists", "Equal"],
    ),
    (
        35,
        "k8s.io/api/resource/v1beta2",
        "AllocationConfigSource",
        &["FromClass", "FromClaim"],
    ),
    (
        35,
        "k8s.io/api/resource/v1beta2",
        "DeviceAllocationMode",
        &[],
    ),
    (
        35,
        "k8s.io/api/resource/v1beta2",
        "DeviceTaintEffect",
        &["None", "NoSchedule", "NoExecute"],
    ),
    (
        35,
        "k8s.io/api/resource/v1beta2",
        "DeviceTolerationOperator",
        &["Exists", "Equal"],
    ),
    (
        36,
        "k8s.io/api/resource/v1alpha3",
        "DeviceTaintEffect",
        &["None", "NoSchedule", "NoExecute"],
    ),
    (
        36,
        "k8s.io/api/scheduling/v1alpha2",
        "DisruptionMode",
        &["Pod", "PodGroup"],
    ),
];

pub fn run(check: bool) -> Result<()> {
    let root = workspace::root()?;
    let Some(dir) = markers_dir(&root, check)? else {
        return Ok(());
    };
    let files = marker_files(&dir)?;
    let src = k8s_openapi_src()?;
    let versions = version_dirs(&src)?;
    let crate_name = src
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "k8s-openapi".to_string());
    let table = build(&files, &versions, ENUM_CONSTS)?;
    let text = render::render(&table, &crate_name);
    write_generated(&root, OUT, &text, check, "k8s-markers", || {
        format!(
            "{} patches over {} versions; {} markers controller-gen rejects",
            table.patch_count(),
            table.versions.len(),
            table.issues.len()
        )
    })?;
    for (v, n) in &table.dropped {
        println!(
            "  1.{v}: {n} field patches left out (fields the k8s-openapi schema does not have)"
        );
    }
    Ok(())
}

/// The marker data folder; `None` (after a notice) when `--check` runs
/// without it and the shared data is optional.
fn markers_dir(root: &Path, check: bool) -> Result<Option<PathBuf>> {
    let dir = match std::env::var_os("SCHEMA_GEN_K8S_MARKERS_DIR") {
        Some(d) => PathBuf::from(d),
        None => root.join(DEFAULT_DIR),
    };
    if dir.is_dir() {
        return Ok(Some(dir));
    }
    let required = std::env::var("SCHEMA_GEN_REQUIRE_SHARED").is_ok_and(|v| v == "1");
    if check && !required {
        println!(
            "notice: {} not found (set SCHEMA_GEN_K8S_MARKERS_DIR): {OUT} not checked",
            dir.display()
        );
        return Ok(None);
    }
    bail!(
        "the Kubernetes API marker data is not at {}: set SCHEMA_GEN_K8S_MARKERS_DIR to the \
         folder with v1_N.json files (the shared data's reference/k8s-api-markers)",
        dir.display()
    )
}

/// `v1_N.json` files by minor version.
fn marker_files(dir: &Path) -> Result<BTreeMap<u32, PathBuf>> {
    let mut out = BTreeMap::new();
    for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(minor) = name
            .strip_prefix("v1_")
            .and_then(|n| n.strip_suffix(".json"))
            .and_then(|n| n.parse().ok())
        {
            out.insert(minor, path);
        }
    }
    if out.is_empty() {
        bail!("no v1_N.json marker files in {}", dir.display());
    }
    Ok(out)
}

/// The marker file a k8s-openapi version uses: its own, else the newest
/// when the version is newer than every file.
fn file_for(files: &BTreeMap<u32, PathBuf>, minor: u32) -> Result<u32> {
    if files.contains_key(&minor) {
        return Ok(minor);
    }
    match files.keys().next_back() {
        Some(&newest) if newest < minor => Ok(newest),
        _ => bail!("no marker file for Kubernetes 1.{minor} (v1_{minor}.json)"),
    }
}

/// Where one patch applies.
pub type Site = (String, Vec<String>);

/// Everything the generated file says.
#[derive(Debug, Default)]
pub struct Table {
    /// The k8s-openapi versions (minors), each with the marker file it
    /// uses and that file's source tags.
    pub versions: Vec<(u32, u32, String)>,
    /// (schema, path, key) → minor → value.
    pub atoms: BTreeMap<(String, Vec<String>, String), BTreeMap<u32, Value>>,
    /// Markers controller-gen rejects, with the versions they occur in.
    pub issues: BTreeMap<Issue, Vec<u32>>,
    /// k8s-openapi schema names without marker data, by version.
    pub uncovered: BTreeMap<String, Vec<u32>>,
    /// Field patches left out per version (no such k8s-openapi property).
    pub dropped: BTreeMap<u32, usize>,
}

impl Table {
    /// Records that the version `minor` has no marker data for `schema`.
    fn note_uncovered(&mut self, schema: &str, minor: u32) {
        self.uncovered
            .entry(schema.to_string())
            .or_default()
            .push(minor);
    }

    fn patch_count(&self) -> usize {
        let sites: std::collections::BTreeSet<(&String, &Vec<String>)> =
            self.atoms.keys().map(|(s, p, _)| (s, p)).collect();
        sites.len()
    }
}

/// `io.k8s.api.core.v1.Container` → `k8s.io/api/core/v1`, `Container`.
fn go_type_of(schema: &str) -> Option<TypeRef> {
    let (pkg, name) = schema.rsplit_once('.')?;
    let rest = pkg.strip_prefix("io.k8s.")?;
    Some(TypeRef {
        pkg: format!("k8s.io/{}", rest.replace('.', "/")),
        name: name.to_string(),
    })
}

fn build(
    files: &BTreeMap<u32, PathBuf>,
    versions: &[(u32, PathBuf)],
    enums: &EnumConsts,
) -> Result<Table> {
    let mut table = Table::default();
    let mut releases: BTreeMap<u32, Release> = BTreeMap::new();
    for (minor, dir) in versions {
        let file_minor = file_for(files, *minor)?;
        let rel = match releases.entry(file_minor) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(e) => {
                let path = &files[&file_minor];
                let text = fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                let rel =
                    Release::from_json(&text).with_context(|| format!("{}", path.display()))?;
                if rel.minor != file_minor {
                    bail!("{} holds Kubernetes 1.{}", path.display(), rel.minor);
                }
                e.insert(rel)
            }
        };
        let rel = &*rel;
        table
            .versions
            .push((*minor, file_minor, rel.source.clone()));
        let schemas = openapi::read_version(dir)?;
        let mut t = Translator::new(rel, enums);
        let mut dropped = 0;
        for (name, schema) in &schemas {
            let Some(r) = go_type_of(name) else {
                table.note_uncovered(name, *minor);
                continue;
            };
            if KNOWN_TYPES.iter().any(|(p, n)| *p == r.pkg && *n == r.name) {
                continue;
            }
            let Some(s) = (match rel.decl(&r) {
                Some(_) => t.struct_of(&r)?,
                None => None,
            }) else {
                table.note_uncovered(name, *minor);
                continue;
            };
            if s != r {
                // A defined type of another struct (`type A v1.B`): the
                // schema is B's; A's own markers would add to it.
                if rel
                    .decl(&r)
                    .is_some_and(|d| registry::has_schema_markers(d.markers()))
                {
                    bail!("{name}: markers on a defined struct type are not translated");
                }
            }
            let out = t.struct_out(&s)?;
            let mut put = |path: Vec<String>, key: String, value: Value| {
                table
                    .atoms
                    .entry((name.clone(), path, key))
                    .or_default()
                    .insert(*minor, value);
            };
            for (path, keys) in out.fields {
                if !schema.properties.contains(&path[0]) {
                    dropped += 1;
                    continue;
                }
                for (k, v) in keys {
                    put(path.clone(), k, v);
                }
            }
            for (k, v) in out.own {
                put(Vec::new(), k, v);
            }
            // `required`: controller-gen's for the fields the markers
            // know, k8s-openapi's for the others.
            let mut required: Vec<String> = schema
                .properties
                .iter()
                .filter(|p| {
                    if out.properties.contains(p) {
                        out.required.contains(p)
                    } else {
                        schema.required.contains(p)
                    }
                })
                .cloned()
                .collect();
            required.sort();
            // The runtime drops `metadata` from `required` before the
            // patches apply (k8s-openapi requires it everywhere), so a
            // list with it is always written.
            if required != schema.required || required.iter().any(|r| r == "metadata") {
                let value = if required.is_empty() {
                    Value::Null
                } else {
                    Value::Array(required.into_iter().map(Value::String).collect())
                };
                put(Vec::new(), "required".to_string(), value);
            }
        }
        if dropped > 0 {
            table.dropped.insert(*minor, dropped);
        }
        let mut issues = std::mem::take(&mut t.issues);
        issues.sort();
        issues.dedup();
        for issue in issues {
            table.issues.entry(issue).or_default().push(*minor);
        }
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_names_map_to_go_types() {
        assert_eq!(
            go_type_of("io.k8s.apimachinery.pkg.apis.meta.v1.Condition"),
            Some(TypeRef {
                pkg: "k8s.io/apimachinery/pkg/apis/meta/v1".to_string(),
                name: "Condition".to_string()
            })
        );
        assert_eq!(
            go_type_of("io.k8s.api.autoscaling.v2.HPAScalingRules").map(|r| r.pkg),
            Some("k8s.io/api/autoscaling/v2".to_string())
        );
    }

    #[test]
    fn versions_without_a_file_use_the_newest() {
        let files: BTreeMap<u32, PathBuf> = [(33, PathBuf::new()), (36, PathBuf::new())]
            .into_iter()
            .collect();
        assert_eq!(file_for(&files, 33).unwrap(), 33);
        assert_eq!(file_for(&files, 37).unwrap(), 36);
        assert!(file_for(&files, 34).is_err());
        assert!(file_for(&files, 32).is_err());
    }
}
