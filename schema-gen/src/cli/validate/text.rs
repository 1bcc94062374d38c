//! `validate`'s text output: errors on stdout, `file:line:column:
//! error: message` (`file: error: message` about a whole file);
//! warnings, each object's verdict and the closing summary on stderr. Colored when the stream is a terminal (or with
//! `--color always`), never with `NO_COLOR` set or `--color never`.

use std::io::Write;

use super::record::{FileRecord, Finding, Severity, Verdict};
use crate::cli::diagnostics::{at, plural};

/// ANSI styling of the words that carry the verdicts, or none.
#[derive(Clone, Copy)]
pub(in crate::cli) struct Paint {
    on: bool,
}

impl Paint {
    /// Styling when `on`.
    pub(in crate::cli) fn new(on: bool) -> Self {
        Paint { on }
    }

    fn style(self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// `error`, bold red.
    pub(in crate::cli) fn error(self) -> String {
        self.style("1;31", "error")
    }

    /// `warning`, bold yellow.
    pub(in crate::cli) fn warning(self) -> String {
        self.style("1;33", "warning")
    }

    /// A good outcome, green.
    pub(in crate::cli) fn good(self, text: &str) -> String {
        self.style("32", text)
    }

    /// A bad outcome, red.
    pub(in crate::cli) fn bad(self, text: &str) -> String {
        self.style("31", text)
    }

    /// A neutral outcome, dim.
    pub(in crate::cli) fn dim(self, text: &str) -> String {
        self.style("2", text)
    }
}

/// The styling of stdout and of stderr.
#[derive(Clone, Copy)]
pub(in crate::cli) struct Colors {
    /// For stdout.
    pub(in crate::cli) stdout: Paint,
    /// For stderr.
    pub(in crate::cli) stderr: Paint,
}

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
