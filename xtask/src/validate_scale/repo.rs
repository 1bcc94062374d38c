//! `bench-validate-scale`'s repository: application bundles of built-in
//! objects (about half), objects of the chosen CRD versions in
//! multi-document files under `platform/` and single files under
//! `clusters/`, about 3% deliberately invalid; the probe of one object of
//! each type; the schemas kubeconform reads.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use schema_core::rust::k8s::builtin_kinds;

use super::apps::{App, CLUSTERS, ENVS, TEAMS, WORDS, app_bundle, break_builtin};
use super::select::Chosen;
use crate::bench_repo::cases::{CASES, invalid_object};
use crate::bench_repo::convert::write_schema;
use crate::bench_repo::generate::{Gen, Patterns, Rng, build_object, seed};
use crate::bench_repo::yaml::yaml;

/// Percent of the objects that are built-in kinds.
const BUILTIN_PERCENT: usize = 55;

/// Percent of the objects made invalid.
const INVALID_PERCENT: usize = 3;

/// The cases of `bench-gate`'s [`CASES`] used for CRD objects (not the
/// last, which the API server accepts).
const CRD_CASES: usize = 8;

/// One object of a repository.
pub(super) struct Object {
    /// Its file, relative to the bench directory.
    pub(super) file: String,
    pub(super) kind: String,
    pub(super) name: String,
    /// Built-in kind (not a CRD's).
    pub(super) builtin: bool,
    /// The mistake made in it, for an invalid object.
    pub(super) case: Option<&'static str>,
}

/// A generated repository.
pub(super) struct Repo {
    pub(super) objects: Vec<Object>,
    /// Files, and of them those with one object.
    pub(super) files: usize,
    pub(super) single: usize,
    pub(super) dirs: usize,
    pub(super) bytes: u64,
    /// Built-in kinds by `apiVersion` and kind, with their object counts.
    pub(super) kinds: BTreeMap<(String, String), usize>,
    /// Objects of each chosen CRD version.
    pub(super) per_crd: Vec<usize>,
}

/// The files of a repository as they are made.
struct Files {
    /// The repository's folder name (`repo`), the objects' file prefix.
    prefix: String,
    /// Text and object count of each file, by path below the repository.
    text: BTreeMap<String, (String, usize)>,
    objects: Vec<Object>,
    /// Built-in objects by `apiVersion` and kind.
    kinds: BTreeMap<(String, String), usize>,
}

impl Files {
    /// Adds `obj` to the file `path` (below the repository).
    fn add(&mut self, path: &str, obj: &Value, builtin: bool, case: Option<&'static str>) {
        let (text, count) = self.text.entry(path.to_string()).or_default();
        text.push_str("---\n");
        text.push_str(&yaml(obj));
        *count += 1;
        if builtin {
            let field = |k: &str| obj[k].as_str().unwrap_or_default().to_string();
            *self
                .kinds
                .entry((field("apiVersion"), field("kind")))
                .or_default() += 1;
        }
        self.objects.push(Object {
            file: format!("{}/{path}", self.prefix),
            kind: obj["kind"].as_str().unwrap_or_default().to_string(),
            name: obj["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            builtin,
            case,
        });
    }
}

/// CRD objects on their way into one multi-document file, with the
/// mistakes made in them.
type Batch = Vec<(Value, Option<&'static str>)>;

/// Writes a repository of `n` objects into `dir` (seeded: the same every
/// time for the same `n` and CRD versions).
pub(super) fn generate(chosen: &[Chosen], n: usize, dir: &Path) -> Result<Repo> {
    let mut r = Rng(seed(&["bench-validate-scale"]));
    let mut files = Files {
        prefix: dir
            .file_name()
            .context("the repository has a name")?
            .to_string_lossy()
            .into_owned(),
        text: BTreeMap::new(),
        objects: Vec::new(),
        kinds: BTreeMap::new(),
    };
    let builtins = n * BUILTIN_PERCENT / 100;

    // Applications: a bundle of built-in objects each.
    let mut i = 0;
    while files.objects.len() < builtins {
        let team = *r.pick(&TEAMS);
        let app = App::new(&mut r, team, i);
        let mut bundle = app_bundle(&mut r, &app);
        bundle.truncate(builtins - files.objects.len());
        let mut cases = Vec::new();
        for obj in &mut bundle {
            cases.push(if r.percent(INVALID_PERCENT) {
                Some(break_builtin(obj, &mut r))
            } else {
                None
            });
        }
        let layout = r.below(100);
        let base = format!("apps/{team}/{}", app.name);
        for (obj, case) in bundle.iter().zip(cases) {
            let kind = obj["kind"].as_str().unwrap_or_default().to_lowercase();
            let path = match layout {
                // A folder with a file per object.
                0..45 => format!("{base}/{kind}.yaml"),
                // One multi-document file.
                45..80 => format!("{base}.yaml"),
                // A folder with a file per concern.
                _ => {
                    let part = match kind.as_str() {
                        "deployment"
                        | "statefulset"
                        | "cronjob"
                        | "horizontalpodautoscaler"
                        | "poddisruptionbudget" => "workload",
                        "service" | "ingress" | "networkpolicy" => "network",
                        _ => "config",
                    };
                    format!("{base}/{part}.yaml")
                }
            };
            files.add(&path, obj, true, case);
        }
        i += 1;
    }

    // CRD objects: a weight for each version.
    let weights: Vec<usize> = chosen.iter().map(|_| 1 + r.below(5)).collect();
    let total: usize = weights.iter().sum();
    let mut patterns = Patterns::default();
    let mut per_crd = vec![0; chosen.len()];
    // Each version's open multi-document file: its objects and the size
    // it is closed at.
    let mut open: Vec<(Batch, usize, usize)> = chosen
        .iter()
        .map(|_| (Vec::new(), 1 + r.below(16), 0))
        .collect();
    let flush = |files: &mut Files, c: usize, batch: Batch, k: usize| {
        let v = &chosen[c].version;
        let path = format!(
            "platform/{}/{}/{}-{k}.yaml",
            v.group,
            v.kind.to_lowercase(),
            v.kind.to_lowercase()
        );
        for (obj, case) in &batch {
            files.add(&path, obj, false, *case);
        }
    };
    for j in 0..n - builtins {
        let mut at = r.below(total);
        let c = weights
            .iter()
            .position(|w| {
                let here = at < *w;
                at = at.saturating_sub(*w);
                here
            })
            .unwrap_or(0);
        per_crd[c] += 1;
        let v = &chosen[c].version;
        let kind = v.kind.to_lowercase();
        let seed = |extra: &str| seed(&[&v.group, &v.kind, &v.version, extra, &j.to_string()]);
        let (mut obj, case) = if r.percent(INVALID_PERCENT) {
            let ci = r.below(CRD_CASES);
            let made = invalid_object(v, ci, &mut Gen::new(seed("invalid"), &mut patterns, false))
                .map(|(o, _)| (o, ci));
            // Every version has a place for a bad name.
            let name_case = CASES
                .iter()
                .position(|c| c.0 == "metadata-name")
                .context("bench-gate has a metadata-name case")?;
            let (mut obj, ci) = match made {
                Some(m) => m,
                None => (
                    invalid_object(
                        v,
                        name_case,
                        &mut Gen::new(seed("name"), &mut patterns, false),
                    )
                    .context("a metadata-name case for every version")?
                    .0,
                    name_case,
                ),
            };
            obj["metadata"]["name"] = if ci == name_case {
                json!(format!("Invalid_Name_{j}"))
            } else {
                json!(format!("{kind}-invalid-{j}"))
            };
            (obj, Some(CASES[ci].0))
        } else {
            let name = format!("{}-{kind}-{j}", r.pick(&WORDS));
            let obj = build_object(v, &name, &mut Gen::new(seed("valid"), &mut patterns, true));
            (obj, None)
        };
        if v.namespaced {
            obj["metadata"]["namespace"] = json!(format!("{}-{}", r.pick(&TEAMS), r.pick(&ENVS)));
        }
        if r.percent(30) {
            let path = format!(
                "clusters/{}/{}/{}.yaml",
                r.pick(&CLUSTERS),
                v.group,
                obj["metadata"]["name"].as_str().unwrap_or("object")
            );
            files.add(&path, &obj, false, case);
        } else {
            let next_size = 1 + r.below(16);
            let (batch, size, k) = &mut open[c];
            batch.push((obj, case));
            if batch.len() >= *size {
                flush(&mut files, c, std::mem::take(batch), *k);
                *size = next_size;
                *k += 1;
            }
        }
    }
    for (c, (batch, _, k)) in open.into_iter().enumerate() {
        if !batch.is_empty() {
            flush(&mut files, c, batch, k);
        }
    }

    // Onto disk.
    let mut dirs = HashSet::new();
    let mut bytes = 0;
    let mut single = 0;
    for (path, (text, count)) in &files.text {
        let path = dir.join(path);
        let parent = path.parent().context("a file has a folder")?;
        if dirs.insert(parent.to_path_buf()) {
            fs::create_dir_all(parent)?;
        }
        fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        bytes += text.len() as u64;
        single += usize::from(*count == 1);
    }
    Ok(Repo {
        files: files.text.len(),
        single,
        dirs: dirs.len(),
        bytes,
        objects: files.objects,
        kinds: files.kinds,
        per_crd,
    })
}

/// A file of one valid object of each type (the chosen CRD versions, the
/// built-in kinds of [`app_bundle`]): `validate` on it costs what a run
/// costs whatever the number of objects (reading the CRDs, building the
/// admissions).
pub(super) fn write_probe(chosen: &[Chosen], dir: &Path) -> Result<()> {
    let mut r = Rng(seed(&["bench-validate-scale", "probe"]));
    let mut patterns = Patterns::default();
    let mut text = String::new();
    let mut seen = HashSet::new();
    // Bundles until every kind has come up (at most a few hundred).
    for i in 0..500 {
        let app = App::new(&mut r, "platform", i);
        for obj in app_bundle(&mut r, &app) {
            if seen.insert(obj["kind"].to_string()) {
                text.push_str("---\n");
                text.push_str(&yaml(&obj));
            }
        }
    }
    for c in chosen {
        let v = &c.version;
        let mut g = Gen::new(seed(&[&v.group, &v.kind, "probe"]), &mut patterns, true);
        let obj = build_object(v, "probe", &mut g);
        text.push_str("---\n");
        text.push_str(&yaml(&obj));
    }
    fs::create_dir_all(dir)?;
    fs::write(dir.join("probe.yaml"), text)?;
    let load = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "load", "namespace": "default"}, "data": {"a": "b"}});
    fs::write(dir.join("load.yaml"), format!("---\n{}", yaml(&load)))?;
    Ok(())
}

/// The JSON Schemas kubeconform reads: the chosen CRD versions' and the
/// built-in kinds' of the repository, converted as `bench-gate` converts
/// CRDs; how many.
pub(super) fn write_schemas(chosen: &[Chosen], repo: &Repo, dir: &Path) -> Result<usize> {
    let mut n = 0;
    for c in chosen {
        let v = &c.version;
        write_schema(dir, &v.group, &v.kind, &v.version, &v.schema)?;
        n += 1;
    }
    let kinds = builtin_kinds();
    for (api_version, kind) in repo.kinds.keys() {
        let k = kinds
            .iter()
            .find(|k| k.api_version == api_version && k.kind == kind)
            .with_context(|| format!("no built-in kind {api_version} {kind}"))?;
        let schema = k
            .schema()
            .with_context(|| format!("the schema of {api_version} {kind}"))?
            .to_value();
        write_schema(dir, k.group, k.kind, k.version, &schema)?;
        n += 1;
    }
    Ok(n)
}
