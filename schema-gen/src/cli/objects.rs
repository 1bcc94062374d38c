//! `schema-gen prune` and `schema-gen default`: objects processed with a
//! bare schema or the CRD version each belongs to.

use std::borrow::Cow;

use super::args::{DocumentFormat, ObjectsArgs};
use super::crds::{SchemaSource, load_schema_source};
use super::diagnostics::at;
use super::input::{expand_inputs, load};
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

/// Runs `prune` or `default` on the objects of `files`.
pub(super) fn run(input: &ObjectsArgs, operation: Operation, io: &mut Io<'_>) -> i32 {
    let (args, files, output) = (&input.schema, &input.objects, input.output);
    let options = &input.kube.options();
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
