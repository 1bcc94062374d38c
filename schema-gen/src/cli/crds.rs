//! Reading CRDs from the command line's files: every command that takes
//! CRDs reads them here, in one of two ways.
//!
//! - [`load_schema_source`] (`--schema` or `--crd` of `prune`, `default`
//!   and `validate`): the schema objects are processed with. A file named
//!   on the command line must hold CRDs only, and a CRD name may be defined
//!   once; a directory's files that are not YAML, or documents that are
//!   not CRDs, are skipped with a warning (other manifests live next to
//!   CRDs).
//! - [`read_crds`] (`explain`, `docs`, `diff`): the CRDs of every document
//!   with their places; documents of other kinds are passed over with a
//!   warning, and every file or CRD that cannot be read is reported before
//!   the command gives up.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use schema_core::Options;
use schema_core::crd::catalog::{Catalog, ObjectSchema};
use schema_core::model::source::Location;
use schema_core::model::structural::Structural;
use schema_core::model::wire::input::{Input, read_input_owned};
use schema_core::model::wire::{CustomResourceDefinition, JsonSchemaProps};

use super::args::SchemaArgs;
use super::diagnostics::{at, read_error_message};
use super::input::{Loaded, display_name, expand_inputs, is_stdin, load};
use super::{EXIT_UNPROCESSABLE, Io};

/// The schema objects are processed with.
pub(super) enum SchemaSource {
    /// A bare schema (`--schema`): objects are not resource roots.
    Bare {
        /// The schema as written.
        props: Box<JsonSchemaProps>,
        /// What objects are pruned and defaulted with.
        schema: Box<ObjectSchema>,
    },
    /// The CRDs of the `--crd` files and directories.
    Crds(Catalog),
}

/// Reads the schema that `args` names, or says why it cannot. With
/// `crds_optional`, naming none is an empty catalog.
pub(super) fn load_schema_source(
    args: &SchemaArgs,
    options: &Options,
    crds_optional: bool,
    io: &mut Io<'_>,
) -> Result<SchemaSource, String> {
    if let Some(file) = &args.schema {
        return load_bare_schema(file, io);
    }
    if args.crd.is_empty() {
        if crds_optional {
            return Ok(SchemaSource::Crds(Catalog::new(Vec::new(), options)));
        }
        return Err("no schema: give --schema FILE or --crd FILE|DIR".to_string());
    }
    if args.crd.iter().filter(|f| is_stdin(f)).count() > 1 {
        return Err("--crd - can be given once: stdin is read once".to_string());
    }
    let inputs = expand_inputs(&args.crd)?;
    // CRD name -> the file that defines it.
    let mut defined: HashMap<String, String> = HashMap::new();
    let mut crds = Vec::new();
    for input in &inputs {
        let loaded = match load(&input.path, io) {
            Ok(l) => l,
            // A directory's file that is not YAML is left out, and said so.
            Err(msg) if input.from_dir => {
                let _ = writeln!(io.stderr, "warning: {msg}: skipped");
                continue;
            }
            Err(msg) => return Err(msg),
        };
        let name = &loaded.name;
        let before = crds.len();
        for mut doc in loaded.docs {
            let read = read_input_owned(std::mem::take(&mut doc.value));
            let crd = match read {
                Ok((input, _)) => input.crd().cloned(),
                Err(e) if !input.from_dir => return Err(read_error_message(name, &doc, &e)),
                Err(_) => None,
            };
            let Some(crd) = crd else {
                if input.from_dir {
                    // Other manifests (a kustomization, a chart's values)
                    // live next to CRDs.
                    let _ = writeln!(
                        io.stderr,
                        "{}: warning: not a CustomResourceDefinition: skipped",
                        at(name, doc.start)
                    );
                    continue;
                }
                return Err(format!(
                    "{}: expected a CustomResourceDefinition",
                    at(name, doc.start)
                ));
            };
            let crd_name = crd.name().unwrap_or_default().to_string();
            if let Some(first) = defined.insert(crd_name.clone(), at(name, doc.start)) {
                return Err(format!(
                    "{}: the CustomResourceDefinition {crd_name:?} is also defined at {first}",
                    at(name, doc.start)
                ));
            }
            crds.push(crd);
        }
        if crds.len() == before && !input.from_dir {
            return Err(format!("{name}: no CustomResourceDefinition found"));
        }
    }
    if crds.is_empty() {
        return Err(format!(
            "no CustomResourceDefinition found in {}",
            args.crd
                .iter()
                .map(|p| display_name(p))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(SchemaSource::Crds(Catalog::new(crds, options)))
}

/// The bare schema of `--schema`.
fn load_bare_schema(file: &Path, io: &mut Io<'_>) -> Result<SchemaSource, String> {
    let loaded = load(file, io)?;
    let name = &loaded.name;
    let Some(mut doc) = loaded.docs.into_iter().next() else {
        return Err(format!("{name}: no YAML or JSON document found"));
    };
    let (input, _) = read_input_owned(std::mem::take(&mut doc.value))
        .map_err(|e| read_error_message(name, &doc, &e))?;
    match input {
        Input::Schema(props) => {
            let structural = Structural::from_props(&props)
                .map_err(|e| format!("{name}: the schema is not structural: {e}"))?;
            Ok(SchemaSource::Bare {
                props,
                schema: Box::new(ObjectSchema::bare(structural)),
            })
        }
        _ => Err(format!(
            "{name}: expected a bare schema, found a CustomResourceDefinition (use --crd)"
        )),
    }
}

/// The CRDs of every document of `files`, each with its file's name and
/// its position; documents of other kinds are passed over with a warning.
/// On failure, the messages are printed and the exit code returned.
#[allow(clippy::type_complexity)]
pub(super) fn read_crds(
    files: &[PathBuf],
    io: &mut Io<'_>,
) -> Result<(Vec<CustomResourceDefinition>, Vec<(String, Location)>), i32> {
    let inputs = expand_inputs(files).map_err(|msg| {
        let _ = writeln!(io.stderr, "error: {msg}");
        EXIT_UNPROCESSABLE
    })?;
    let mut loaded = Vec::new();
    for input in &inputs {
        loaded.push(load(&input.path, io));
    }
    crds_of(loaded, io)
}

/// The CRDs of loaded files (or the messages of files that could not be
/// loaded), as [`read_crds`] gives them.
#[allow(clippy::type_complexity)]
pub(super) fn crds_of(
    files: Vec<Result<Loaded, String>>,
    io: &mut Io<'_>,
) -> Result<(Vec<CustomResourceDefinition>, Vec<(String, Location)>), i32> {
    let mut crds = Vec::new();
    let mut origins = Vec::new();
    let mut failed = false;
    for loaded in files {
        let loaded = match loaded {
            Ok(l) => l,
            Err(msg) => {
                let _ = writeln!(io.stderr, "error: {msg}");
                failed = true;
                continue;
            }
        };
        for mut doc in loaded.docs {
            if doc.value.is_null() {
                continue;
            }
            let kind = doc.value.get("kind").and_then(|k| k.as_str());
            if kind != Some("CustomResourceDefinition") {
                let what = kind.map_or_else(|| "no kind".to_string(), |k| format!("a {k}"));
                let _ = writeln!(
                    io.stderr,
                    "{}: warning: passed over: {what}, not a CustomResourceDefinition",
                    at(&loaded.name, doc.start)
                );
                continue;
            }
            match read_input_owned(std::mem::take(&mut doc.value)) {
                Ok((Input::CrdV1(crd), _)) | Ok((Input::CrdV1Beta1 { v1: crd, .. }, _)) => {
                    crds.push(*crd);
                    origins.push((loaded.name.clone(), doc.start));
                }
                Ok((Input::Schema(_), _)) => {}
                Err(e) => {
                    let _ = writeln!(io.stderr, "{}", read_error_message(&loaded.name, &doc, &e));
                    failed = true;
                }
            }
        }
    }
    if failed {
        return Err(EXIT_UNPROCESSABLE);
    }
    if crds.is_empty() {
        let _ = writeln!(io.stderr, "error: no CustomResourceDefinition in the input");
        return Err(EXIT_UNPROCESSABLE);
    }
    Ok((crds, origins))
}
