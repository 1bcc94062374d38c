//! `validate`'s text output: errors on stdout, `file:line:column:
//! error: message` (`file: error: message` about a whole file);
//! warnings, each object's verdict and the closing summary on stderr. Colored when the stream is a terminal (or with
//! `--color always`), never with `NO_COLOR` set or `--color never`.

use std::io::Write;

use super::record::{FileRecord, Finding, Severity, Verdict};
use crate::cli::colors::Colors;
use crate::cli::diagnostics::{at, plural};

/// `file:line:column` of a finding, or `file` for one about the whole
/// file.
pub(super) fn place(name: &str, f: &Finding) -> String {
    if f.location.line == 0 {
        name.to_string()
    } else {
        at(name, f.location)
    }
}

/// Prints what was found in one file.
pub(super) fn print_file(
    file: &FileRecord,
    colors: Colors,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) {
    let name = file.name.as_str();
    let (out, err) = (colors.stdout, colors.stderr);
    if let Some(f) = &file.unreadable {
        let _ = writeln!(stdout, "{}: {}: {}", place(name, f), out.error(), f.message);
    }
    for object in &file.objects {
        let start = at(name, object.start);
        match &object.verdict {
            Verdict::Skipped(why) => {
                let _ = writeln!(stderr, "{start}: {}: {}", object.label, err.dim(why));
                continue;
            }
            Verdict::Unprocessable => {
                for f in &object.findings {
                    let _ = writeln!(stdout, "{start}: {}: {}", out.error(), f.message);
                }
                continue;
            }
            Verdict::Valid | Verdict::Invalid | Verdict::Rejected => {}
        }
        for f in &object.findings {
            let place = place(name, f);
            let _ = match f.severity {
                Severity::Error => writeln!(stdout, "{place}: {}: {}", out.error(), f.message),
                Severity::Warning => writeln!(stderr, "{place}: {}: {}", err.warning(), f.message),
            };
        }
        let verdict = match object.verdict {
            Verdict::Rejected => err.bad("rejected"),
            Verdict::Valid => err.good("valid"),
            _ => {
                let n = object.errors();
                err.bad(&format!("invalid ({n} error{})", plural(n)))
            }
        };
        let _ = writeln!(stderr, "{start}: {}: {verdict}", object.label);
    }
}
