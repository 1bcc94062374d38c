//! The workspace's files: its root, the files below a folder, and the
//! generated files the tasks keep up to date.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// The workspace root (the parent of `xtask/`).
pub fn root() -> Result<PathBuf> {
    Ok(Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .context("xtask has a parent directory")?
        .to_path_buf())
}

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

/// Writes `text` into the generated file `rel` (below the workspace `root`)
/// and says so with its `summary`; with `check`, fails instead unless the
/// file holds `text` already (`cargo xtask TASK` writes it).
pub fn write_generated(
    root: &Path,
    rel: &str,
    text: &str,
    check: bool,
    task: &str,
    summary: impl FnOnce() -> String,
) -> Result<()> {
    let out = root.join(rel);
    if check {
        let current = fs::read_to_string(&out).unwrap_or_default();
        if current != text {
            bail!("{rel} is out of date: run `cargo xtask {task}`");
        }
        println!("{rel} is up to date");
    } else {
        fs::write(&out, text).with_context(|| format!("writing {}", out.display()))?;
        println!("wrote {rel} ({})", summary());
    }
    Ok(())
}
