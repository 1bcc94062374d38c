//! The repository of `bench-gate`: the accepted corpus CRD files under
//! `repo/crds/`, and per served version `repo/objects/GROUP/KIND_VERSION/`
//! with `valid.yaml` and one file per invalid case; the versions' schemas
//! converted for kubeconform under `schemas/`.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::bench_repo::cases::{CASES, invalid_object};
use crate::bench_repo::convert::write_schema;
use crate::bench_repo::corpus::{CorpusCrdFile, CrdVersion, accepted_crd_files, crd_versions};
use crate::bench_repo::generate::{Gen, Patterns, build_object, seed};
use crate::bench_repo::yaml::yaml;

/// One CRD file of the repository and what was made for it.
pub(super) struct CrdFile {
    /// Relative to the bench directory.
    pub(super) path: String,
    pub(super) versions: Vec<CrdVersion>,
    /// The object files of its versions, relative to the bench directory.
    pub(super) objects: Vec<String>,
}

/// One object of the repository.
pub(super) struct Object {
    pub(super) file: String,
    pub(super) name: String,
    /// `CrdFile` and `CrdVersion` indices.
    pub(super) crd: (usize, usize),
    /// The case, for an invalid object.
    pub(super) case: Option<usize>,
    /// The field the case is about.
    pub(super) field: String,
}

/// The CRD files of `corpus` that `schema-gen check` accepts, copied into
/// `repo/crds/`, with their served versions (each group, kind and version
/// once: a later file repeating one is skipped for it).
pub(super) fn load_crds(
    schema_gen: &Path,
    corpus: &Path,
    bench: &Path,
    notes: &mut Vec<String>,
) -> Result<Vec<CrdFile>> {
    let mut seen = HashSet::new();
    let mut files = Vec::new();
    for CorpusCrdFile { path, rel, crds } in accepted_crd_files(schema_gen, corpus, notes)? {
        let mut versions = Vec::new();
        for crd in &crds {
            for v in crd_versions(crd) {
                let key = (v.group.clone(), v.kind.to_lowercase(), v.version.clone());
                if seen.insert(key) {
                    versions.push(v);
                } else {
                    notes.push(format!(
                        "skipped {} in {}: an earlier file has it",
                        v.label(),
                        rel.display()
                    ));
                }
            }
        }
        if versions.is_empty() {
            continue;
        }
        let dest = Path::new("repo").join("crds").join(&rel);
        fs::create_dir_all(
            bench
                .join(&dest)
                .parent()
                .context("a CRD path has a parent")?,
        )?;
        fs::copy(&path, bench.join(&dest))
            .with_context(|| format!("copying {}", path.display()))?;
        files.push(CrdFile {
            path: dest.to_string_lossy().into_owned(),
            versions,
            objects: Vec::new(),
        });
    }
    if files.is_empty() {
        bail!("no CRDs under {}", corpus.display());
    }
    Ok(files)
}

/// Writes every version's objects: `valid.yaml` (`n` objects) and one file
/// per case; returns the objects.
pub(super) fn generate(files: &mut [CrdFile], bench: &Path, n: usize) -> Result<Vec<Object>> {
    let mut patterns = Patterns::default();
    let mut objects = Vec::new();
    for (fi, file) in files.iter_mut().enumerate() {
        let mut written = Vec::new();
        for (vi, v) in file.versions.iter().enumerate() {
            let dir = objects_dir(v);
            fs::create_dir_all(bench.join(&dir))?;
            let mut valid = String::new();
            for i in 0..n {
                let seed = seed(&[&v.group, &v.kind, &v.version, &i.to_string()]);
                let name = format!("obj-{i}");
                let obj = build_object(v, &name, &mut Gen::new(seed, &mut patterns, true));
                valid.push_str("---\n");
                valid.push_str(&yaml(&obj));
                objects.push(Object {
                    file: format!("{dir}/valid.yaml"),
                    name,
                    crd: (fi, vi),
                    case: None,
                    field: String::new(),
                });
            }
            let path = format!("{dir}/valid.yaml");
            fs::write(bench.join(&path), valid)?;
            written.push(path);
            for (ci, (case, _)) in CASES.iter().enumerate() {
                let seed = seed(&[&v.group, &v.kind, &v.version, case]);
                let mut g = Gen::new(seed, &mut patterns, false);
                let Some((obj, field)) = invalid_object(v, ci, &mut g) else {
                    continue;
                };
                let name = obj["metadata"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                let path = format!("{dir}/{case}.yaml");
                fs::write(bench.join(&path), format!("---\n{}", yaml(&obj)))?;
                written.push(path.clone());
                objects.push(Object {
                    file: path,
                    name,
                    crd: (fi, vi),
                    case: Some(ci),
                    field,
                });
            }
        }
        file.objects = written;
    }
    Ok(objects)
}

/// Writes one JSON Schema per group, kind and version under `schemas/`,
/// named as [`SCHEMA_TEMPLATE`] looks them up; returns how many.
pub(super) fn write_schemas(files: &[CrdFile], bench: &Path) -> Result<usize> {
    let mut n = 0;
    for v in files.iter().flat_map(|f| &f.versions) {
        write_schema(
            &bench.join("schemas"),
            &v.group,
            &v.kind,
            &v.version,
            &v.schema,
        )?;
        n += 1;
    }
    Ok(n)
}

/// The folder of a version's objects, relative to the bench directory.
fn objects_dir(v: &CrdVersion) -> String {
    format!(
        "repo/objects/{}/{}_{}",
        v.group,
        v.kind.to_lowercase(),
        v.version.to_lowercase()
    )
}
