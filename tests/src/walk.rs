//! Walking a folder for files by extension: the corpus and the
//! conformance cases, read by the tests and by the build script (which
//! includes this file by path).

use std::path::{Path, PathBuf};

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
