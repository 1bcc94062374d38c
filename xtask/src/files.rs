//! The files below a folder.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// The files below `dir`, in its subfolders too, that `keep` accepts,
/// sorted.
pub fn files_under(dir: &Path, keep: impl Fn(&Path) -> bool) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
            } else if keep(&path) {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}
