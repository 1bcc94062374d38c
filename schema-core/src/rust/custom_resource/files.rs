//! Files kept next to the code and generated from its types, the CRD YAML
//! files and their Markdown reference: written when asked, otherwise
//! compared with what the types generate. `schema-core` does no IO itself:
//! [`sync_crd_files`] and [`sync_doc_files`] take the reading and writing
//! as functions, and the [`sync_crds!`](crate::sync_crds) and
//! [`sync_docs!`](crate::sync_docs) macros pass `std::fs`'s from the
//! calling crate (typically a test).

use std::fmt;
use std::path::{Path, PathBuf};

use crate::model::wire::CustomResourceDefinition;
use crate::model::wire::codec::Wire;

/// The environment variable that makes [`sync_crds!`](crate::sync_crds)
/// write the files instead of checking them: `SCHEMA_GEN_UPDATE_CRDS=1`.
pub const UPDATE_CRDS_ENV: &str = "SCHEMA_GEN_UPDATE_CRDS";

/// The environment variable that makes [`sync_docs!`](crate::sync_docs)
/// write the reference documents instead of checking them:
/// `SCHEMA_GEN_UPDATE_DOCS=1`.
pub const UPDATE_DOCS_ENV: &str = "SCHEMA_GEN_UPDATE_DOCS";

/// The CRD as YAML, as the files hold it: a `---` line, then the document
/// (keys in the wire model's order).
pub fn crd_yaml(crd: &CustomResourceDefinition) -> String {
    format!("---\n{}", crate::model::yaml_writer::to_yaml(&crd.encode()))
}

/// controller-gen's file name for a CRD: `<group>_<plural>.yaml`.
pub fn crd_file_name(crd: &CustomResourceDefinition) -> String {
    let spec = crd.spec.as_ref();
    let group = spec.and_then(|s| s.group.as_deref()).unwrap_or_default();
    let plural = spec
        .and_then(|s| s.names.as_ref())
        .and_then(|n| n.plural.as_deref())
        .unwrap_or_default();
    format!("{group}_{plural}.yaml")
}

/// A file that is not as generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileProblem {
    /// The file does not exist.
    Missing(PathBuf),
    /// The file differs; a line diff of the changed region.
    Differs(PathBuf, String),
    /// Reading or writing failed.
    Io(PathBuf, String),
    /// The files could not be generated (a reference document for a CRD
    /// whose names cannot name a file).
    Generate(String),
}

/// Files that are missing or differ from the generated CRDs (or their
/// reference documents), or could not be read or written. Its `Debug` is
/// its message, so a test returning `Result<(), CrdFilesError>` prints the
/// diff.
#[derive(Clone, PartialEq, Eq)]
pub struct CrdFilesError {
    /// Every problem, in file order.
    pub problems: Vec<FileProblem>,
    /// What the files are (`CRD`, `reference document`), for the message.
    pub what: &'static str,
    /// The environment variable that writes them.
    pub update_env: &'static str,
}

impl fmt::Display for CrdFilesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut stale = false;
        for p in &self.problems {
            match p {
                FileProblem::Missing(path) => {
                    stale = true;
                    writeln!(f, "{}: missing", path.display())?;
                }
                FileProblem::Differs(path, diff) => {
                    stale = true;
                    writeln!(
                        f,
                        "{}: differs from the generated {}\n{diff}",
                        path.display(),
                        self.what
                    )?;
                }
                FileProblem::Io(path, e) => writeln!(f, "{}: {e}", path.display())?,
                FileProblem::Generate(e) => writeln!(f, "{e}")?,
            }
        }
        if stale {
            write!(
                f,
                "the {} files are out of date: run the test again with {}=1 to write them",
                self.what, self.update_env
            )?;
        }
        Ok(())
    }
}

impl fmt::Debug for CrdFilesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for CrdFilesError {}

/// A short line diff: the lines between the common head and tail, at most
/// 20 of each side.
fn diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
        .min(a.len().min(b.len()) - head);
    let mut out = format!("@@ line {} @@\n", head + 1);
    for (sign, lines) in [("-", &a), ("+", &b)] {
        let changed = lines.get(head..lines.len() - tail).unwrap_or_default();
        for l in changed.iter().take(20) {
            out.push_str(sign);
            out.push_str(l);
            out.push('\n');
        }
        if changed.len() > 20 {
            out.push_str(&format!("{sign}... ({} more lines)\n", changed.len() - 20));
        }
    }
    if old.lines().count() == new.lines().count() && head == a.len() {
        out.push_str("(line endings or a final newline differ)\n");
    }
    out
}

/// Writes (when `update`) or checks the YAML file of every CRD in `dir`,
/// named by [`crd_file_name`] with the content of [`crd_yaml`]. `read`
/// returns `Ok(None)` for a file that does not exist; `write` creates the
/// directory as needed. Returns the paths written or checked.
///
/// # Errors
///
/// Every file that is missing, differs or cannot be read or written.
pub fn sync_crd_files(
    dir: &Path,
    crds: &[CustomResourceDefinition],
    update: bool,
    read: impl FnMut(&Path) -> std::io::Result<Option<String>>,
    write: impl FnMut(&Path, &str) -> std::io::Result<()>,
) -> Result<Vec<PathBuf>, CrdFilesError> {
    let files: Vec<(String, String)> = crds
        .iter()
        .map(|crd| (crd_file_name(crd), crd_yaml(crd)))
        .collect();
    sync_files(dir, &files, update, read, write).map_err(|problems| CrdFilesError {
        problems,
        what: "CRD",
        update_env: UPDATE_CRDS_ENV,
    })
}

/// Writes (when `update`) or checks the Markdown API reference of `crds`
/// in `dir`: `README.md` and one `<group>.md` per API group, as
/// [`markdown`](crate::docs::markdown) renders them. As
/// [`sync_crd_files`] otherwise.
///
/// # Errors
///
/// Every file that is missing, differs or cannot be read or written, or
/// the reason the documents cannot be rendered.
pub fn sync_doc_files(
    dir: &Path,
    crds: &[CustomResourceDefinition],
    update: bool,
    read: impl FnMut(&Path) -> std::io::Result<Option<String>>,
    write: impl FnMut(&Path, &str) -> std::io::Result<()>,
) -> Result<Vec<PathBuf>, CrdFilesError> {
    let error = |problems| CrdFilesError {
        problems,
        what: "reference document",
        update_env: UPDATE_DOCS_ENV,
    };
    let files = crate::docs::markdown(crds)
        .map_err(|e| error(vec![FileProblem::Generate(e.to_string())]))?;
    sync_files(dir, &files, update, read, write).map_err(error)
}

/// Writes or checks `files` (paths relative to `dir`, and contents).
fn sync_files(
    dir: &Path,
    files: &[(String, String)],
    update: bool,
    mut read: impl FnMut(&Path) -> std::io::Result<Option<String>>,
    mut write: impl FnMut(&Path, &str) -> std::io::Result<()>,
) -> Result<Vec<PathBuf>, Vec<FileProblem>> {
    let mut problems = Vec::new();
    let mut paths = Vec::new();
    for (name, content) in files {
        let path = dir.join(name);
        if update {
            if let Err(e) = write(&path, content) {
                problems.push(FileProblem::Io(path.clone(), e.to_string()));
            }
        } else {
            match read(&path) {
                Ok(None) => problems.push(FileProblem::Missing(path.clone())),
                Ok(Some(old)) if old != *content => {
                    problems.push(FileProblem::Differs(path.clone(), diff(&old, content)));
                }
                Ok(Some(_)) => {}
                Err(e) => problems.push(FileProblem::Io(path.clone(), e.to_string())),
            }
        }
        paths.push(path);
    }
    if problems.is_empty() {
        Ok(paths)
    } else {
        Err(problems)
    }
}

/// In a test: keeps the YAML files of CRDs in a directory up to date.
/// With `SCHEMA_GEN_UPDATE_CRDS=1` in the environment it writes them;
/// otherwise it compares them with the generated CRDs and returns a
/// [`CrdFilesError`] (with a diff) when one is missing or differs.
/// Files are named `<group>_<plural>.yaml`, as controller-gen names them.
///
/// ```no_run
/// # use schema_core::StructuralSchema;
/// # use schema_core::rust::CustomResource;
/// # #[derive(Clone, Debug, serde::Serialize, serde::Deserialize, StructuralSchema)]
/// # #[schema(crd(group = "example.com", version = "v1", kind = "Pet"))]
/// # pub struct PetSpec { pub name: String }
/// #[test]
/// fn crds_are_up_to_date() -> Result<(), Box<dyn std::error::Error>> {
///     let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/crds");
///     schema_core::sync_crds!(dir, [Pet::crd()?])?;
///     Ok(())
/// }
/// ```
#[macro_export]
macro_rules! sync_crds {
    ($dir:expr, $crds:expr $(,)?) => {
        $crate::__sync_files!(
            $crate::rust::sync_crd_files,
            $crate::rust::UPDATE_CRDS_ENV,
            $dir,
            $crds
        )
    };
}

/// In a test: keeps the Markdown API reference of CRDs in a directory up
/// to date, as [`sync_crds!`](crate::sync_crds) keeps their YAML: with
/// `SCHEMA_GEN_UPDATE_DOCS=1` in the environment it writes `README.md` and
/// one `<group>.md` per API group ([`markdown`](crate::docs::markdown), the
/// renderer of `schema-gen docs`); otherwise it compares them and returns a
/// [`CrdFilesError`] with a diff when one is missing or differs.
///
/// ```no_run
/// # use schema_core::StructuralSchema;
/// # use schema_core::rust::CustomResource;
/// # #[derive(Clone, Debug, serde::Serialize, serde::Deserialize, StructuralSchema)]
/// # #[schema(crd(group = "example.com", version = "v1", kind = "Pet"))]
/// # pub struct PetSpec { pub name: String }
/// #[test]
/// fn reference_docs_are_up_to_date() -> Result<(), Box<dyn std::error::Error>> {
///     let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/api");
///     schema_core::sync_docs!(dir, [Pet::crd()?])?;
///     Ok(())
/// }
/// ```
#[macro_export]
macro_rules! sync_docs {
    ($dir:expr, $crds:expr $(,)?) => {
        $crate::__sync_files!(
            $crate::rust::sync_doc_files,
            $crate::rust::UPDATE_DOCS_ENV,
            $dir,
            $crds
        )
    };
}

/// What [`sync_crds!`](crate::sync_crds) and
/// [`sync_docs!`](crate::sync_docs) expand to: `$sync` with the update flag
/// from `$env` and `std::fs` reading and writing.
#[doc(hidden)]
#[macro_export]
macro_rules! __sync_files {
    ($sync:path, $env:path, $dir:expr, $crds:expr) => {
        $sync(
            ::std::path::Path::new(&$dir),
            &$crds,
            ::std::env::var_os($env).is_some_and(|v| v == "1"),
            |path: &::std::path::Path| match ::std::fs::read_to_string(path) {
                ::std::result::Result::Ok(s) => {
                    ::std::result::Result::Ok(::std::option::Option::Some(s))
                }
                ::std::result::Result::Err(e) if e.kind() == ::std::io::ErrorKind::NotFound => {
                    ::std::result::Result::Ok(::std::option::Option::None)
                }
                ::std::result::Result::Err(e) => ::std::result::Result::Err(e),
            },
            |path: &::std::path::Path, content: &str| {
                if let ::std::option::Option::Some(parent) = path.parent() {
                    ::std::fs::create_dir_all(parent)?;
                }
                ::std::fs::write(path, content)
            },
        )
    };
}

/// Includes Rust types generated by a build script (schema-gen's
/// `Config::compile`, which writes `<module>.rs` under `OUT_DIR`):
/// `schema_core::include_generated!("widgets")` expands to
/// `include!(concat!(env!("OUT_DIR"), "/widgets.rs"))`.
///
/// ```text
/// pub mod widgets {
///     schema_core::include_generated!("widgets");
/// }
/// ```
#[macro_export]
macro_rules! include_generated {
    ($module:literal) => {
        ::core::include!(::core::concat!(
            ::core::env!("OUT_DIR"),
            "/",
            $module,
            ".rs"
        ));
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diffs_show_the_changed_region() {
        let d = diff("a\nb\nc\nd\n", "a\nB\nc\nd\n");
        assert_eq!(d, "@@ line 2 @@\n-b\n+B\n");
        let d = diff("a\nb\n", "a\nb\nc\n");
        assert_eq!(d, "@@ line 3 @@\n+c\n");
        let d = diff("a\nb\nc\n", "a\nc\n");
        assert_eq!(d, "@@ line 2 @@\n-b\n");
    }
}
