//! `schema-gen openapi`: the OpenAPI the API server publishes for the CRDs
//! of a file (their documents merged), or for a bare schema.

use std::collections::BTreeMap;

use serde_json::Value;

use schema_core::Options;
use schema_core::crd::publish::merge::{merge_v2, merge_v3, with_versions};
use schema_core::crd::publish::{publish_schema_v2, publish_schema_v3, publish_v2, publish_v3};
use schema_core::model::wire::input::{Input, read_input_owned};

use super::diagnostics::{at, read_error_message};
use super::input::load;
use super::reports::json_text;
use super::{EXIT_ERRORS, EXIT_OK, EXIT_UNPROCESSABLE, Io};

/// Runs `openapi` on `file`: OpenAPI v2 when `v2`, else v3, of the CRD
/// versions named in `versions` (all when empty).
pub(super) fn run(
    file: &std::path::Path,
    v2: bool,
    versions: &[String],
    options: &Options,
    io: &mut Io<'_>,
) -> i32 {
    let loaded = match load(file, io) {
        Ok(l) => l,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let mut v2_doc = Value::Null;
    let mut v3_docs = BTreeMap::new();
    let mut bare = None;
    for mut doc in loaded.docs {
        let input = match read_input_owned(std::mem::take(&mut doc.value)) {
            Ok((input, _)) => input,
            Err(e) => {
                let _ = writeln!(io.stderr, "{}", read_error_message(&loaded.name, &doc, &e));
                return EXIT_UNPROCESSABLE;
            }
        };
        let published = match &input {
            Input::Schema(s) if v2 => publish_schema_v2(s, options).map(|v| bare = Some(v)),
            Input::Schema(s) => publish_schema_v3(s, options).map(|v| bare = Some(v)),
            crd => {
                let Some(crd) = crd.crd() else { continue };
                let crd = with_versions(crd, versions);
                if v2 {
                    publish_v2(&crd, options).map(|d| merge_v2(&mut v2_doc, d))
                } else {
                    publish_v3(&crd, options).map(|docs| merge_v3(&mut v3_docs, docs))
                }
            }
        };
        if let Err(e) = published {
            let _ = writeln!(io.stderr, "{}: error: {e}", at(&loaded.name, doc.start));
            return EXIT_ERRORS;
        }
    }
    // Several group-versions: their documents by `apis/<group>/<version>`.
    let out = match bare {
        Some(schema) => schema,
        None if v2 => v2_doc,
        None if v3_docs.len() == 1 => v3_docs.into_values().next().unwrap_or_default(),
        None => Value::Object(v3_docs.into_iter().collect()),
    };
    if io.stdout.write_all(json_text(&out).as_bytes()).is_err() {
        return EXIT_UNPROCESSABLE;
    }
    EXIT_OK
}
