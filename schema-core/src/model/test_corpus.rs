//! The shared CRD corpus for the crate's own tests: `SCHEMA_GEN_CORPUS_DIR`,
//! else `../shared/corpus/crds` beside the workspace. Absent, the tests
//! that read it print a notice and check nothing of it, unless
//! `SCHEMA_GEN_REQUIRE_SHARED=1` (as CI sets) makes that a failure.

use std::path::PathBuf;

/// The corpus folder, or `None` (after the notice) when it is missing.
///
/// # Panics
///
/// When it is missing and `SCHEMA_GEN_REQUIRE_SHARED=1`.
pub(crate) fn dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("SCHEMA_GEN_CORPUS_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/crds"),
        PathBuf::from,
    );
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("SCHEMA_GEN_REQUIRE_SHARED").as_deref() != Ok("1"),
        "{test}: the corpus folder {} is missing and SCHEMA_GEN_REQUIRE_SHARED=1",
        dir.display()
    );
    eprintln!(
        "{test}: no corpus at {} (set SCHEMA_GEN_CORPUS_DIR): skipped",
        dir.display()
    );
    None
}
