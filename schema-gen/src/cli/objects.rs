//! `schema-gen prune` and `schema-gen default`: objects processed with a
//! bare schema or the CRD version each belongs to; and reading that schema
//! (`--schema` or `--crd`), which `validate` shares.

use std::borrow::Cow;
use std::path::PathBuf;

use schema_core::KubeVersion;
use schema_core::crd::catalog::{CrdCatalog, ObjectSchema};
use schema_core::model::structural::Structural;
use schema_core::model::wire::JsonSchemaProps;
use schema_core::model::wire::input::{Input, read_input_owned};

use super::args::{DocumentFormat, SchemaArgs};
use super::diagnostics::{at, read_error_message};
use super::input::load;
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
    /// The CRDs of a file (`--crd`).
    Crds(CrdCatalog),
}

/// Reads the schema that `args` names, or says why it cannot.
pub(super) fn load_schema_source(
    args: &SchemaArgs,
    kube: KubeVersion,
    io: &mut Io<'_>,
) -> Result<SchemaSource, String> {
    let file = args
        .schema
        .as_ref()
        .or(args.crd.as_ref())
        .ok_or("no schema given")?;
    let loaded = load(file, io)?;
    let name = &loaded.name;
    let mut crds = Vec::new();
    for mut doc in loaded.docs {
        let (input, _) = read_input_owned(std::mem::take(&mut doc.value))
            .map_err(|e| read_error_message(name, &doc, &e))?;
        match input {
            Input::Schema(props) if args.schema.is_some() => {
                let structural = Structural::from_props(&props)
                    .map_err(|e| format!("{name}: the schema is not structural: {e}"))?;
                return Ok(SchemaSource::Bare {
                    props,
                    schema: Box::new(ObjectSchema::bare(structural)),
                });
            }
            Input::Schema(_) => {
                return Err(format!("{name}: expected a CustomResourceDefinition"));
            }
            _ if args.schema.is_some() => {
                return Err(format!(
                    "{name}: expected a bare schema, found a CustomResourceDefinition (use --crd)"
                ));
            }
            crd => crds.extend(crd.crd().cloned()),
        }
    }
    if crds.is_empty() {
        return Err(format!("{name}: no CustomResourceDefinition found"));
    }
    Ok(SchemaSource::Crds(CrdCatalog::new_at(crds, kube)))
}

/// Runs `prune` or `default` on the objects of `files`.
pub(super) fn run(
    args: &SchemaArgs,
    kube: KubeVersion,
    files: &[PathBuf],
    output: DocumentFormat,
    operation: Operation,
    io: &mut Io<'_>,
) -> i32 {
    let source = match load_schema_source(args, kube, io) {
        Ok(s) => s,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let mut processed = Vec::new();
    let mut exit = EXIT_OK;
    for file in files {
        let loaded = match load(file, io) {
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
