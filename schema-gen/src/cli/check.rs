//! `schema-gen check`: every document of every file checked as the API
//! server checks a create, errors on stdout and warnings and a verdict per
//! file on stderr (or one JSON report).

use std::path::PathBuf;

use schema_core::Options;
use schema_core::crd::check::{check, written_location};
use schema_core::model::locate::locate_field;
use schema_core::model::wire::input::read_input_owned;

use super::args::DiagnosticsFormat;
use super::diagnostics::{at, plural, read_error_message};
use super::input::{Loaded, display_name, expand_inputs, load};
use super::reports::{
    CheckError, CheckReport, CheckWarning, CheckedFile, FieldErrorReport, UnreadableDocument,
    json_text,
};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_UNPROCESSABLE, Io};

/// Runs `check` on `files` (files, directories, `-`).
pub(super) fn run(
    files: &[PathBuf],
    output: DiagnosticsFormat,
    options: &Options,
    io: &mut Io<'_>,
) -> i32 {
    let inputs = match expand_inputs(files) {
        Ok(i) => i,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let mut exit = EXIT_OK;
    let mut report = CheckReport { files: Vec::new() };
    for input in &inputs {
        let file = &input.path;
        let checked = match load(file, io) {
            Ok(loaded) => check_file(loaded, output, options, io, &mut exit),
            Err(msg) => {
                let _ = writeln!(io.stderr, "error: {msg}");
                exit = EXIT_UNPROCESSABLE;
                CheckedFile::unreadable(display_name(file), msg)
            }
        };
        report.files.push(checked);
    }
    if output == DiagnosticsFormat::Json {
        let _ = io.stdout.write_all(json_text(&report).as_bytes());
    }
    exit
}

/// Checks the documents of one file, printing its diagnostics (text
/// output), and raises `exit` to what they call for.
fn check_file(
    loaded: Loaded,
    output: DiagnosticsFormat,
    options: &Options,
    io: &mut Io<'_>,
    exit: &mut i32,
) -> CheckedFile {
    let text = output == DiagnosticsFormat::Text;
    let name = loaded.name;
    let documents = loaded.docs.len();
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for (index, mut doc) in loaded.docs.into_iter().enumerate() {
        let document = (documents > 1).then_some(index);
        let (input, mut read_warnings) = match read_input_owned(std::mem::take(&mut doc.value)) {
            Ok(read) => read,
            Err(e) => {
                let _ = writeln!(io.stderr, "{}", read_error_message(&name, &doc, &e));
                *exit = EXIT_UNPROCESSABLE;
                errors.push(CheckError::Unreadable(UnreadableDocument::new(index, &e)));
                continue;
            }
        };
        let mut checked = check(&input, options);
        read_warnings.append(&mut checked.warnings);
        for e in &checked.errors {
            let location = locate_field(&doc, &[], &written_location(&input, &e.field));
            if text {
                let _ = writeln!(io.stdout, "{}: error: {e}", at(&name, location));
            }
            errors.push(CheckError::Field(FieldErrorReport::new(
                e, location, document,
            )));
        }
        for w in &read_warnings {
            let location = locate_field(&doc, &[], &w.field);
            let message = if w.field.is_root() {
                w.message.clone()
            } else {
                format!("{}: {}", w.field, w.message)
            };
            if text {
                let _ = writeln!(io.stderr, "{}: warning: {message}", at(&name, location));
            }
            warnings.push(CheckWarning::new(w, message, location, document));
        }
        if !checked.errors.is_empty() && *exit == EXIT_OK {
            *exit = EXIT_ERRORS;
        }
    }
    if text {
        let _ = match errors.len() {
            0 => writeln!(
                io.stderr,
                "{name}: ok ({documents} document{})",
                plural(documents)
            ),
            n => writeln!(io.stderr, "{name}: {n} error{}", plural(n)),
        };
    }
    CheckedFile::checked(name, errors, warnings)
}
