//! `schema-gen fmt`: the documents of a file read through the wire model
//! and written back in canonical order, YAML or JSON.

use serde_json::Value;

use schema_core::model::locate::locate_field;
use schema_core::model::wire::input::read_input_owned;

use super::args::DocumentFormat;
use super::diagnostics::{at, read_error_message};
use super::input::load;
use super::reports::{List, json_text, yaml_documents};
use super::{EXIT_OK, EXIT_UNPROCESSABLE, Io};

/// Runs `fmt` on `file`.
pub(super) fn run(file: &std::path::Path, output: DocumentFormat, io: &mut Io<'_>) -> i32 {
    let loaded = match load(file, io) {
        Ok(l) => l,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let mut values = Vec::new();
    for mut doc in loaded.docs {
        match read_input_owned(std::mem::take(&mut doc.value)) {
            Ok((input, warnings)) => {
                for w in warnings {
                    let location = locate_field(&doc, &[], &w.field);
                    let _ = writeln!(
                        io.stderr,
                        "{}: warning: {}",
                        at(&loaded.name, location),
                        w.message
                    );
                }
                values.push(input.to_value());
            }
            Err(e) => {
                let _ = writeln!(io.stderr, "{}", read_error_message(&loaded.name, &doc, &e));
                return EXIT_UNPROCESSABLE;
            }
        }
    }
    let text = match output {
        DocumentFormat::Json => match <[Value; 1]>::try_from(values) {
            Ok([one]) => json_text(&one),
            Err(values) => json_text(&List::new(values)),
        },
        DocumentFormat::Yaml => yaml_documents(values.iter()),
    };
    if io.stdout.write_all(text.as_bytes()).is_err() {
        return EXIT_UNPROCESSABLE;
    }
    EXIT_OK
}
