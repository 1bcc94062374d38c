//! `schema-gen lint`: a Helm values schema linted with a rule set, one
//! finding per line on stdout and a summary on stderr (or one JSON
//! report).

use std::path::Path;

use crate::lint::{RuleSet, Severity, lint_with_rule_set};

use super::args::DiagnosticsFormat;
use super::diagnostics::plural;
use super::input::{STDIN_NAME, display_name, read_limited};
use super::reports::{LintFailure, LintReport, json_text};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_UNPROCESSABLE, Io};

/// Runs `lint` on `file` with `rule_set`.
pub(super) fn run(
    file: &Path,
    rule_set: RuleSet,
    output: DiagnosticsFormat,
    io: &mut Io<'_>,
) -> i32 {
    let root = display_name(file);
    let stdin = &mut *io.stdin;
    // The root and every file a `$ref` names, by name.
    let mut loader = |name: &str| -> Result<Vec<u8>, String> {
        let read = if name == STDIN_NAME {
            read_limited(&mut *stdin)
        } else {
            std::fs::File::open(name).and_then(read_limited)
        };
        read.map_err(|e| e.to_string())
    };
    let findings = match lint_with_rule_set(&root, &mut loader, rule_set) {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(io.stderr, "error: {e}");
            if output == DiagnosticsFormat::Json {
                let failure = LintFailure {
                    file: &root,
                    rule_set: rule_set.name(),
                    error: e.to_string(),
                };
                let _ = io.stdout.write_all(json_text(&failure).as_bytes());
            }
            return EXIT_UNPROCESSABLE;
        }
    };
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let recommendations = findings.len() - errors;
    match output {
        DiagnosticsFormat::Text => {
            let mut text = String::new();
            for f in &findings {
                let location = if f.location.is_empty() {
                    "\"\""
                } else {
                    f.location.as_str()
                };
                let message = f.message.replace('\n', " ");
                text.push_str(&format!("{} {} {location} {message}\n", f.rule, f.severity));
            }
            if io.stdout.write_all(text.as_bytes()).is_err() {
                return EXIT_UNPROCESSABLE;
            }
            let _ = writeln!(
                io.stderr,
                "{root}: {errors} error{}, {recommendations} recommendation{} (rule set {})",
                plural(errors),
                plural(recommendations),
                rule_set.name()
            );
        }
        DiagnosticsFormat::Json => {
            let counts = (errors, recommendations);
            let report = LintReport::new(&root, rule_set.name(), counts, &findings);
            let _ = io.stdout.write_all(json_text(&report).as_bytes());
        }
    }
    if errors > 0 { EXIT_ERRORS } else { EXIT_OK }
}
