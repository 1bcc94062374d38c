//! Reading the command's input files (or stdin, named `-`): their bytes,
//! within the source reader's size limit, and their YAML or JSON
//! documents.

use std::io::Read;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

use schema_core::model::source::{self, Document, Limits};

use super::Io;

/// The name standing for stdin in messages.
pub(super) const STDIN_NAME: &str = "<stdin>";

/// One input file, read and parsed.
pub(super) struct Loaded {
    /// The file's name in messages.
    pub(super) name: String,
    /// Its documents (at least one).
    pub(super) docs: Vec<Document>,
}

/// The name of `file` in messages.
pub(super) fn display_name(file: &Path) -> String {
    if is_stdin(file) {
        STDIN_NAME.to_string()
    } else {
        file.display().to_string()
    }
}

/// Whether `file` is `-`, standing for stdin.
pub(super) fn is_stdin(file: &Path) -> bool {
    file.as_os_str() == "-"
}

/// The bytes of `file` (stdin for `-`); see [`read_limited`].
pub(super) fn read_bytes(file: &Path, stdin: &mut dyn Read) -> std::io::Result<Vec<u8>> {
    if is_stdin(file) {
        return read_limited(stdin);
    }
    // A file's length sizes the buffer, so it is read without regrowing.
    let f = std::fs::File::open(file)?;
    let max = Limits::default().max_bytes as u64 + 1;
    let len = f.metadata().map_or(0, |m| m.len()).min(max);
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    f.take(max).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The bytes of `reader`, at most one byte past the source reader's limit
/// so that an oversized input is reported as such.
pub(super) fn read_limited(reader: impl Read) -> std::io::Result<Vec<u8>> {
    let max = Limits::default().max_bytes as u64 + 1;
    let mut bytes = Vec::new();
    reader.take(max).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The bytes of `file` with its name in messages, or the message saying
/// why it cannot be read.
pub(super) fn read_named(file: &Path, io: &mut Io<'_>) -> Result<(String, Vec<u8>), String> {
    let name = display_name(file);
    match read_bytes(file, io.stdin) {
        Ok(bytes) => Ok((name, bytes)),
        Err(e) => Err(format!("{name}: cannot read: {e}")),
    }
}

/// One input as the command line names it, directories expanded.
pub(super) struct InputPath {
    /// The file (or `-`).
    pub(super) path: PathBuf,
    /// Whether it was found in a directory (rather than named).
    pub(super) from_dir: bool,
}

/// The extensions of the files a directory contributes.
const INPUT_EXTENSIONS: [&str; 3] = ["yaml", "yml", "json"];

/// The `--exclude` globs, compiled; or the message saying which one is
/// not a glob.
pub(super) fn exclusions(globs: &[String]) -> Result<GlobSet, String> {
    let mut set = GlobSetBuilder::new();
    for g in globs {
        let glob = Glob::new(g).map_err(|e| format!("--exclude {g:?}: {e}"))?;
        set.add(glob);
    }
    set.build().map_err(|e| format!("--exclude: {e}"))
}

/// `paths` with each directory replaced by its `*.yaml`, `*.yml` and
/// `*.json` files, recursively (hidden files and directories, `.git` or
/// `.github`, left out), in path order, without those whose path
/// below the directory `exclude` matches (`charts/**`, `*.json`: `*` also
/// matches `/`); or the message saying why a directory cannot be read.
pub(super) fn expand_inputs_excluding(
    paths: &[PathBuf],
    exclude: &GlobSet,
) -> Result<Vec<InputPath>, String> {
    let mut out = Vec::new();
    for path in paths {
        if is_stdin(path) || !path.is_dir() {
            out.push(InputPath {
                path: path.clone(),
                from_dir: false,
            });
            continue;
        }
        let mut found = Vec::new();
        let mut dirs = vec![path.clone()];
        while let Some(dir) = dirs.pop() {
            let entries = std::fs::read_dir(&dir)
                .map_err(|e| format!("{}: cannot read the directory: {e}", dir.display()))?;
            for entry in entries {
                let p = entry
                    .map_err(|e| format!("{}: cannot read the directory: {e}", dir.display()))?
                    .path();
                // Hidden entries (`.git`, `.github`) hold no manifests.
                if p.file_name()
                    .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."))
                {
                    continue;
                }
                if p.is_dir() {
                    dirs.push(p);
                } else if p
                    .extension()
                    .and_then(|x| x.to_str())
                    .is_some_and(|x| INPUT_EXTENSIONS.contains(&x))
                {
                    found.push(p);
                }
            }
        }
        found.retain(|p| {
            let below = p.strip_prefix(path).unwrap_or(p);
            !exclude.is_match(below)
        });
        found.sort();
        out.extend(found.into_iter().map(|path| InputPath {
            path,
            from_dir: true,
        }));
    }
    Ok(out)
}

/// [`expand_inputs_excluding`] without exclusions.
pub(super) fn expand_inputs(paths: &[PathBuf]) -> Result<Vec<InputPath>, String> {
    expand_inputs_excluding(paths, &GlobSet::empty())
}

/// `file` read and parsed into its documents, or the message saying why
/// it cannot be.
pub(super) fn load(file: &Path, io: &mut Io<'_>) -> Result<Loaded, String> {
    let (name, bytes) = read_named(file, io)?;
    parse_named(name, &bytes)
}

/// The documents of `bytes`, read from `name`.
pub(super) fn parse_named(name: String, bytes: &[u8]) -> Result<Loaded, String> {
    let docs =
        source::parse_documents(&name, bytes, &Limits::default()).map_err(|e| e.to_string())?;
    if docs.is_empty() {
        return Err(format!("{name}: no YAML or JSON document found"));
    }
    Ok(Loaded { name, docs })
}
