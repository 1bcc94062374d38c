//! `cargo xtask k8s-types [--check]`: writes
//! `schema-core/src/rust/k8s/types.rs`, the list of k8s-openapi types that
//! get a `StructuralSchema` implementation, from the k8s-openapi sources in
//! the Cargo registry (every non-generic type with a `schemars::JsonSchema`
//! implementation), grouped by the Kubernetes versions that have it, and
//! the kinds among them (the types implementing `k8s_openapi::Resource`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::workspace::{self, write_generated};

const OUT: &str = "schema-core/src/rust/k8s/types.rs";

pub fn run(check: bool) -> Result<()> {
    let src = k8s_openapi_src()?;
    let versions = version_dirs(&src)?;
    // type path -> versions (minor numbers) that have it
    let mut types: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut kinds: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for (minor, dir) in &versions {
        let mut found = Found::default();
        collect(dir, dir, &mut found)?;
        for path in found.types {
            types.entry(path).or_default().push(*minor);
        }
        for path in found.kinds {
            kinds.entry(path).or_default().push(*minor);
        }
    }
    let all: Vec<u32> = versions.iter().map(|(m, _)| *m).collect();
    let text = render(&types, &kinds, &all);
    write_generated(&workspace::root()?, OUT, &text, check, "k8s-types", || {
        format!("{} types, {} kinds", types.len(), kinds.len())
    })
}

/// The `src` directory of the k8s-openapi package in the lock file.
pub(crate) fn k8s_openapi_src() -> Result<PathBuf> {
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--all-features"])
        .current_dir(workspace::root()?)
        .output()
        .context("running cargo metadata")?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let meta: serde_json::Value = serde_json::from_slice(&output.stdout)?;
    let packages = meta["packages"]
        .as_array()
        .context("cargo metadata: no packages")?;
    for p in packages {
        if p["name"] == "k8s-openapi" {
            let manifest = p["manifest_path"]
                .as_str()
                .context("cargo metadata: no manifest_path")?;
            return Ok(Path::new(manifest)
                .parent()
                .context("manifest without a directory")?
                .join("src"));
        }
    }
    bail!("k8s-openapi is not in the dependency graph")
}

/// `(minor, src/v1_MINOR)` for every version directory, in order.
pub(crate) fn version_dirs(src: &Path) -> Result<Vec<(u32, PathBuf)>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(src)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(minor) = name.strip_prefix("v1_").and_then(|m| m.parse().ok()) {
            out.push((minor, entry.path()));
        }
    }
    out.sort();
    if out.is_empty() {
        bail!("no v1_* directories under {}", src.display());
    }
    Ok(out)
}

/// The public paths (`api::core::v1::Container`) found in one version's
/// sources.
#[derive(Default)]
struct Found {
    /// The types with a non-generic `JsonSchema` implementation.
    types: Vec<String>,
    /// Those of them that implement `Resource`: the kinds.
    kinds: Vec<String>,
}

/// Collects the types and kinds under `dir` into `out`.
fn collect(root: &Path, dir: &Path, out: &mut Found) -> Result<()> {
    let mut entries: Vec<_> = fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    let module: Vec<String> = dir
        .strip_prefix(root)?
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let mod_rs = fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
    for entry in entries {
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            collect(root, &path, out)?;
            continue;
        }
        let Some(file) = path.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
            continue;
        };
        if file == "mod" || path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = fs::read_to_string(&path)?;
        for line in text.lines() {
            let (list, rest) =
                if let Some(rest) = line.strip_prefix("impl crate::schemars::JsonSchema for ") {
                    (&mut out.types, rest)
                } else if let Some(rest) = line.strip_prefix("impl crate::Resource for ") {
                    (&mut out.kinds, rest)
                } else {
                    continue;
                };
            let Some(name) = rest.strip_suffix(" {") else {
                continue;
            };
            if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            // Only types re-exported by the module are reachable.
            if !mod_rs.contains(&format!("pub use self::{file}::{name};")) {
                continue;
            }
            let mut segs = module.clone();
            segs.push(name.to_string());
            list.push(segs.join("::"));
        }
    }
    Ok(())
}

/// Contiguous runs of `versions`.
pub(crate) fn runs(versions: &[u32]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &v in versions {
        match out.last_mut() {
            Some((_, end)) if *end + 1 == v => *end = v,
            _ => out.push((v, v)),
        }
    }
    out
}

fn render(
    types: &BTreeMap<String, Vec<u32>>,
    kinds: &BTreeMap<String, Vec<u32>>,
    all: &[u32],
) -> String {
    let mut s = String::new();
    s.push_str(
        "// @generated by `cargo xtask k8s-types` from the k8s-openapi sources; do not edit.\n\
         //! The k8s-openapi types with a [`StructuralSchema`](crate::rust::StructuralSchema)\n\
         //! implementation: every non-generic type with a `schemars::JsonSchema`\n\
         //! implementation, under the Kubernetes versions that have it; and the\n\
         //! kinds among them, the types implementing `k8s_openapi::Resource`.\n\n",
    );
    let each = render_groups(&mut s, types, all, "k8s_types", "g");
    s.push_str(
        "/// Calls `f` with every type above and its `schema_for` (for the tests).\n\
         #[cfg(test)]\n\
         pub(super) fn each(f: &mut dyn FnMut(&'static str, super::SchemaFn)) {\n",
    );
    s.push_str(&each);
    s.push_str("}\n\n");
    let each_kind = render_groups(&mut s, kinds, all, "k8s_kinds", "k");
    s.push_str(
        "/// Calls `f` with every kind above.\n\
         pub(super) fn kinds(f: &mut dyn FnMut(super::BuiltinKind)) {\n",
    );
    s.push_str(&each_kind);
    s.push_str("}\n");
    s
}

/// Writes one invocation of `macro_name` for each run of versions that
/// share paths of `paths`, each inside the k8s-openapi version macros that
/// select its run, and returns the calls of the groups' functions
/// (`{prefix}N(f);`), likewise gated.
fn render_groups(
    s: &mut String,
    paths: &BTreeMap<String, Vec<u32>>,
    all: &[u32],
    macro_name: &str,
    prefix: &str,
) -> String {
    let (first, last) = (all[0], all[all.len() - 1]);
    // version run -> paths
    let mut groups: BTreeMap<(u32, u32), Vec<&str>> = BTreeMap::new();
    for (path, versions) in paths {
        for run in runs(versions) {
            groups.entry(run).or_default().push(path);
        }
    }
    let mut each = String::new();
    for (i, ((from, to), paths)) in groups.iter().enumerate() {
        let open = version_gates(*from, *to, first, last);
        let label = if open.is_empty() {
            format!("Kubernetes 1.{first} and later")
        } else if from == to {
            format!("Kubernetes 1.{from} only")
        } else if *to == last {
            format!("Kubernetes 1.{from} and later")
        } else {
            format!("Kubernetes 1.{from} to 1.{to}")
        };
        s.push_str(&format!("// {label}.\n"));
        let mut call = format!("{prefix}{i}(f);");
        for o in open.iter().rev() {
            call = format!("{o} {{ {call} }}");
        }
        each.push_str(&format!("    {call}\n"));
        for o in &open {
            s.push_str(o);
            s.push_str(" {\n");
        }
        s.push_str(&format!("super::{macro_name}! {{ {prefix}{i}:\n"));
        for p in paths {
            s.push_str(&format!("    {p},\n"));
        }
        s.push_str("}\n");
        for _ in &open {
            s.push_str("}\n");
        }
        s.push('\n');
    }
    each
}

/// The k8s-openapi version macros that select the Kubernetes versions 1.`from`
/// to 1.`to` when the versions are 1.`first` to 1.`last`, outermost first
/// (none for all of them).
pub(crate) fn version_gates(from: u32, to: u32, first: u32, last: u32) -> Vec<String> {
    let mut open = Vec::new();
    if from > first {
        open.push(format!("k8s_openapi::k8s_if_ge_1_{from}!"));
    }
    if to < last {
        open.push(format!("k8s_openapi::k8s_if_le_1_{to}!"));
    }
    open
}
