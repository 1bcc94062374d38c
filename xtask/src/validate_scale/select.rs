//! The CRD versions `bench-validate-scale` builds objects of: a spread of
//! the corpus files' sizes, each CRD defined once, none a built-in kind's,
//! all with a schema kubeconform can load once converted.

use std::collections::HashSet;
use std::fs;

use anyhow::{Context, Result, bail};

use schema_core::rust::k8s::builtin_kinds;

use crate::bench_repo::convert::property_named_properties;
use crate::bench_repo::corpus::{CorpusCrdFile, CrdVersion, crd_versions};

/// How many CRD versions the repository has objects of.
const CRDS: usize = 20;

/// A CRD version the repository has objects of.
pub(super) struct Chosen {
    /// Its file, an index of the accepted files.
    pub(super) file: usize,
    pub(super) version: CrdVersion,
    /// The file's size.
    pub(super) bytes: u64,
}

/// [`CRDS`] CRD versions: of the accepted files, in order of size, those
/// that define no CRD an earlier file does (a `--crd` directory defines
/// each once) and that have a CRD whose storage version's schema
/// kubeconform can load (no property named `properties`, see
/// `bench-gate`); of these, files spread evenly over the sizes, one CRD
/// version of each, and more CRDs of the files with several when there are
/// too few files.
pub(super) fn select_crds(files: &[CorpusCrdFile], notes: &mut Vec<String>) -> Result<Vec<Chosen>> {
    let builtin: HashSet<(String, String)> = builtin_kinds()
        .iter()
        .map(|k| (k.group.to_string(), k.kind.to_string()))
        .collect();
    let mut names = HashSet::new();
    // (file, size, candidate versions)
    let mut eligible: Vec<(usize, u64, Vec<CrdVersion>)> = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let crd_names: Vec<String> = f
            .crds
            .iter()
            .map(|c| {
                c["metadata"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        if crd_names.iter().any(|n| names.contains(n)) {
            notes.push(format!(
                "left out {}: it defines a CRD an earlier file does",
                f.rel.display()
            ));
            continue;
        }
        let mut candidates = Vec::new();
        for crd in &f.crds {
            let storage = crd["spec"]["versions"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|v| v["storage"] == true && v["served"] != false)
                .and_then(|v| v["name"].as_str());
            let mut versions = crd_versions(crd);
            let Some(pos) = versions
                .iter()
                .position(|v| Some(v.version.as_str()) == storage)
                .or_else(|| versions.len().checked_sub(1))
            else {
                continue;
            };
            let v = versions.swap_remove(pos);
            if builtin.contains(&(v.group.clone(), v.kind.clone())) {
                continue;
            }
            if property_named_properties(&v.schema) {
                notes.push(format!(
                    "left out {} of {}: its converted schema has a `properties` property, \
                     which kubeconform cannot load",
                    v.label(),
                    f.rel.display()
                ));
                continue;
            }
            candidates.push(v);
        }
        if candidates.is_empty() {
            continue;
        }
        names.extend(crd_names);
        let size = fs::metadata(&f.path).map_or(0, |m| m.len());
        eligible.push((i, size, candidates));
    }
    eligible.sort_by_key(|e| e.1);
    let m = eligible.len();
    if m == 0 {
        bail!("no CRD of the corpus can be used");
    }
    // Evenly spread indices over the files sorted by size.
    let picks: Vec<usize> = if m <= CRDS {
        (0..m).collect()
    } else {
        (0..CRDS).map(|i| i * (m - 1) / (CRDS - 1)).collect()
    };
    let mut taken: Vec<(usize, usize)> = picks.iter().map(|&p| (p, 0)).collect();
    // Too few files: further CRDs of the picked files, round robin.
    let mut round = 1;
    while taken.len() < CRDS && picks.iter().any(|&p| eligible[p].2.len() > round) {
        for &p in &picks {
            if taken.len() < CRDS && eligible[p].2.len() > round {
                taken.push((p, round));
            }
        }
        round += 1;
    }
    taken.sort_unstable();
    let mut eligible: Vec<(usize, u64, Vec<Option<CrdVersion>>)> = eligible
        .into_iter()
        .map(|(f, size, vs)| (f, size, vs.into_iter().map(Some).collect()))
        .collect();
    let mut chosen = Vec::new();
    for (p, c) in taken {
        let (file, bytes, versions) = &mut eligible[p];
        let version = versions[c].take().context("a CRD version is taken once")?;
        chosen.push(Chosen {
            file: *file,
            version,
            bytes: *bytes,
        });
    }
    Ok(chosen)
}
