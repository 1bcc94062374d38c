//! `schema-gen convert ytt`: a Carvel ytt data-values schema as the
//! OpenAPI v3 document ytt prints, as a CRD, or as its default values.

use schema_core::crd::check::check;
use schema_core::model::wire::input::read_input_owned;
use schema_core::model::yaml_writer::to_yaml;

use crate::ytt::{self, CrdNames, YttError};

use super::args::{ConvertSource, DocumentFormat};
use super::input::read_named;
use super::reports::json_text;
use super::{EXIT_ERRORS, EXIT_OK, EXIT_UNPROCESSABLE, Io};

/// The message when `--to` is missing or unknown (ytt's, for its
/// `--output` flag).
pub const CONVERT_TARGET_REQUIRED: &str = "Data values schema export only supported in OpenAPI v3 format; specify format with --to=openapi-v3 flag (or --to=crd, --to=defaults)";

/// Runs `convert` on `source`.
pub(super) fn run(source: ConvertSource, io: &mut Io<'_>) -> i32 {
    let ConvertSource::Ytt {
        file,
        to,
        group,
        kind,
        crd_version,
        output,
    } = source;
    let target = to.as_deref().unwrap_or("");
    if !matches!(target, "openapi-v3" | "crd" | "defaults") {
        let _ = writeln!(io.stderr, "error: {CONVERT_TARGET_REQUIRED}");
        return EXIT_UNPROCESSABLE;
    }
    let (name, bytes) = match read_named(&file, io) {
        Ok(read) => read,
        Err(msg) => {
            let _ = writeln!(io.stderr, "error: {msg}");
            return EXIT_UNPROCESSABLE;
        }
    };
    let schema = match ytt::parse(&name, &bytes) {
        Ok(s) => s,
        Err(e) => return report_ytt_error(&e, io),
    };
    let text = match (target, output) {
        ("openapi-v3", DocumentFormat::Yaml) => schema.openapi_yaml(),
        ("openapi-v3", DocumentFormat::Json) => json_text(&schema.openapi_document()),
        ("defaults", DocumentFormat::Yaml) => ytt::to_yaml(&schema.default_values()),
        ("defaults", DocumentFormat::Json) => json_text(&schema.default_values()),
        _ => {
            let names = CrdNames {
                group,
                kind,
                version: crd_version,
            };
            let crd = schema.crd(&names);
            // The CRD must be one the API server accepts.
            if let Ok((input, _)) = read_input_owned(crd.clone()) {
                let report = check(&input, &schema_core::Options::default());
                if !report.errors.is_empty() {
                    for e in &report.errors {
                        let _ = writeln!(io.stderr, "{name}: error: the CRD is not valid: {e}");
                    }
                    return EXIT_ERRORS;
                }
            }
            match output {
                DocumentFormat::Yaml => to_yaml(&crd),
                DocumentFormat::Json => json_text(&crd),
            }
        }
    };
    if io.stdout.write_all(text.as_bytes()).is_err() {
        return EXIT_UNPROCESSABLE;
    }
    EXIT_OK
}

/// Prints why a ytt schema could not be read, and returns the exit code.
fn report_ytt_error(e: &YttError, io: &mut Io<'_>) -> i32 {
    match e {
        YttError::Schema(se) => {
            let (file, line) = e.location();
            let at = if line > 0 {
                format!("{file}:{line}")
            } else {
                file
            };
            let _ = writeln!(io.stderr, "{at}: error: {}", se.summary);
            let _ = write!(io.stderr, "{}", se.render());
            EXIT_ERRORS
        }
        YttError::Annotation { .. } => {
            let _ = writeln!(io.stderr, "error: {e}");
            EXIT_ERRORS
        }
        _ => {
            let _ = writeln!(io.stderr, "error: {e}");
            EXIT_UNPROCESSABLE
        }
    }
}
