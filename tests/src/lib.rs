//! Shared helpers of the integration tests: locating the shared data
//! (conformance cases and the CRD corpus) and reading it.

use std::path::{Path, PathBuf};

/// Where the shared folder is expected, relative to the workspace root.
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Whether a missing shared folder must fail the run
/// (`SCHEMA_GEN_REQUIRE_SHARED=1`, set by CI).
pub fn shared_required() -> bool {
    std::env::var("SCHEMA_GEN_REQUIRE_SHARED").is_ok_and(|v| v == "1")
}

/// Resolves a shared data folder: `env_var` if set, else
/// `../shared/<rel>` beside the workspace. Returns `None` (after printing
/// one notice) when it does not exist and the shared data is optional;
/// panics when it is required.
pub fn shared_dir(env_var: &str, rel: &str) -> Option<PathBuf> {
    let dir = std::env::var_os(env_var)
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("..").join("shared").join(rel));
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        !shared_required(),
        "shared data folder {} is missing and SCHEMA_GEN_REQUIRE_SHARED=1",
        dir.display()
    );
    println!(
        "notice: {} not found (set {env_var}); tests that need it are skipped",
        dir.display()
    );
    None
}

/// The conformance folder (`SCHEMA_GEN_CONFORMANCE_DIR` or `../shared/conformance`).
pub fn conformance_dir() -> Option<PathBuf> {
    shared_dir("SCHEMA_GEN_CONFORMANCE_DIR", "conformance")
}

/// The CRD corpus folder (`SCHEMA_GEN_CORPUS_DIR` or `../shared/corpus/crds`).
pub fn corpus_dir() -> Option<PathBuf> {
    shared_dir("SCHEMA_GEN_CORPUS_DIR", "corpus/crds")
}

/// Every file with one of `exts` below `dir`, sorted.
pub fn files_below(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| exts.contains(&e))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The workspace's own example folder.
pub fn examples_dir() -> PathBuf {
    workspace_root().join("examples")
}

/// The README's Rust examples, compiled and run as doctests.
#[doc = include_str!("../../README.md")]
pub mod readme {}
