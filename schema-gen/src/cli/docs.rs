//! `schema-gen docs`: API reference documents of the CRDs of files and
//! directories, as Markdown or a static HTML site, written under a
//! directory.

use std::path::{Component, Path, PathBuf};

use super::args::DocsFormat;
use super::crds::read_crds;
use super::diagnostics::{at, plural};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_UNPROCESSABLE, Io};

/// Runs `docs` on `files` (files, directories, `-`), writing under `out`.
pub(super) fn run(files: &[PathBuf], format: DocsFormat, out: &Path, io: &mut Io<'_>) -> i32 {
    let (crds, origins) = match read_crds(files, io) {
        Ok(read) => read,
        Err(code) => return code,
    };
    let place = |index: usize| {
        origins
            .get(index)
            .map_or_else(String::new, |(name, loc)| format!("{}: ", at(name, *loc)))
    };
    let model = match schema_core::docs::build(&crds) {
        Ok(m) => m,
        Err(e) => {
            let _ = writeln!(io.stderr, "{}error: {e}", place(e.index()));
            return EXIT_ERRORS;
        }
    };
    for p in &model.passed_over {
        let _ = writeln!(io.stderr, "{}warning: {p}", place(p.index));
    }
    let documents = match format {
        DocsFormat::Markdown => schema_core::docs::documents(&model),
        DocsFormat::Html => schema_core::docs::site(&model),
    };
    for (rel, content) in &documents {
        if let Err(msg) = write_document(out, rel, content) {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    }
    let _ = writeln!(
        io.stderr,
        "wrote {} file{} to {}",
        documents.len(),
        plural(documents.len()),
        out.display()
    );
    EXIT_OK
}

/// Writes one document at `rel` (a relative `/`-separated path) under
/// `out`, creating its directories.
fn write_document(out: &Path, rel: &str, content: &str) -> Result<(), String> {
    let rel = Path::new(rel);
    // The names come from checked group, version and kind names; a path
    // that would leave `out` is a bug, not something to write.
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(format!("internal error: document path {}", rel.display()));
    }
    let path = out.join(rel);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create the directory: {e}", dir.display()))?;
    }
    std::fs::write(&path, content).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}
