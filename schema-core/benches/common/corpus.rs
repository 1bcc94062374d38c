//! Where the benchmarks read the shared corpus from.

use std::path::PathBuf;

/// The corpus directory: `SCHEMA_GEN_CORPUS_DIR`, or `../shared/corpus/crds`.
pub fn corpus() -> PathBuf {
    std::env::var_os("SCHEMA_GEN_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../shared/corpus/crds"
            ))
        })
}
