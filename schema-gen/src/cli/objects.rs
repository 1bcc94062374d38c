//! `schema-gen prune` and `schema-gen default`: objects processed with a
//! bare schema or the CRD version each belongs to; and reading that schema
//! (`--schema` or `--crd`), which `validate` shares.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use schema_core::Options;
use schema_core::crd::catalog::{Catalog, ObjectSchema};
use schema_core::model::structural::Structural;
use schema_core::model::wire::JsonSchemaProps;
use schema_core::model::wire::input::{Input, read_input_owned};

use super::args::{DocumentFormat, SchemaArgs};
use super::diagnostics::{at, read_error_message};
use super::input::{display_name, expand_inputs, is_stdin, load};
use super::reports::{ObjectsReport, ProcessedObject, json_text, yaml_documents};
use super::{EXIT_OK, EXIT_UNPROCESSABLE, Io};

/// What is done to the objects.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Operation {
    /// `prune`.
    Prune,
    /// `default`.
    Default,
}

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

/// Runs `prune` or `default` on the objects of `files`.
pub(super) fn run(
    args: &SchemaArgs,
    options: &Options,
    files: &[PathBuf],
    output: DocumentFormat,
    operation: Operation,
    io: &mut Io<'_>,
) -> i32 {
    let source = match load_schema_source(args, options, false, io) {
        Ok(s) => s,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let mut processed = Vec::new();
    let mut exit = EXIT_OK;
    let inputs = match expand_inputs(files) {
        Ok(i) => i,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    for input in &inputs {
        let loaded = match load(&input.path, io) {
            Ok(l) => l,
            Err(msg) => {
                let _ = writeln!(io.stderr, "error: {msg}");
                exit = EXIT_UNPROCESSABLE;
                continue;
            }
        };
        for doc in loaded.docs {
            let mut object = doc.value;
            let schema = match &source {
                SchemaSource::Bare { schema, .. } => Ok(Cow::Borrowed(schema.as_ref())),
                SchemaSource::Crds(catalog) => catalog
                    .select(&object, args.version.as_deref())
                    .map_err(|e| e.to_string())
                    .and_then(|s| s.object_schema().map_err(|e| e.to_string()))
                    .map(Cow::Owned),
            };
            let schema = match schema {
                Ok(s) => s,
                Err(msg) => {
                    let _ = writeln!(io.stderr, "{}: error: {msg}", at(&loaded.name, doc.start));
                    exit = EXIT_UNPROCESSABLE;
                    continue;
                }
            };
            let pruned = match operation {
                Operation::Prune => Some(schema.prune(&mut object)),
                Operation::Default => {
                    schema.default(&mut object);
                    None
                }
            };
            processed.push(ProcessedObject { object, pruned });
        }
    }
    let text = match output {
        DocumentFormat::Json => json_text(&ObjectsReport { objects: processed }),
        DocumentFormat::Yaml => yaml_documents(processed.iter().map(|p| &p.object)),
    };
    if io.stdout.write_all(text.as_bytes()).is_err() {
        return EXIT_UNPROCESSABLE;
    }
    exit
}
