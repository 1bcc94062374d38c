//! `validate --output junit`: a JUnit XML report, as GitLab, Jenkins and
//! most CI systems read test results: one `testsuite` per file, one
//! `testcase` per object (and one for a file that cannot be read). An
//! invalid or rejected object is a `failure`, an object that cannot be
//! validated an `error`, a skipped one `skipped`; warnings go to the
//! case's `system-out`. The shape is that of the Jenkins JUnit schema
//! (`junit-10.xsd`).

use std::fmt::Write as _;

use super::record::{FileRecord, Finding, ObjectRecord, Severity, Verdict};
use crate::cli::diagnostics::at;
use crate::cli::reports::Summary;

/// The report of `files`.
pub(super) fn render(files: &[FileRecord], summary: &Summary) -> String {
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    // A file that cannot be read is a test case in error of its own.
    let _ = writeln!(
        x,
        "<testsuites name=\"schema-gen validate\" tests=\"{}\" failures=\"{}\" \
         errors=\"{}\" time=\"{:.3}\">",
        summary.objects + summary.unreadable_files,
        summary.invalid,
        summary.errors + summary.unreadable_files,
        summary.seconds
    );
    for file in files {
        suite(&mut x, file);
    }
    x.push_str("</testsuites>\n");
    x
}

/// The `testsuite` of one file.
fn suite(x: &mut String, file: &FileRecord) {
    let (mut failures, mut errors, mut skipped) = (0, 0, 0);
    for o in &file.objects {
        match o.verdict {
            Verdict::Invalid | Verdict::Rejected => failures += 1,
            Verdict::Unprocessable => errors += 1,
            Verdict::Skipped(_) => skipped += 1,
            Verdict::Valid => {}
        }
    }
    let tests = file.objects.len() + usize::from(file.unreadable.is_some());
    errors += usize::from(file.unreadable.is_some());
    let name = escape(&file.name);
    let _ = writeln!(
        x,
        "  <testsuite name=\"{name}\" tests=\"{tests}\" failures=\"{failures}\" \
         errors=\"{errors}\" skipped=\"{skipped}\">"
    );
    if let Some(f) = &file.unreadable {
        let _ = writeln!(x, "    <testcase name=\"{name}\" classname=\"{name}\">");
        let _ = writeln!(
            x,
            "      <error message=\"{}\" type=\"{}\">{}</error>",
            escape(&f.message),
            f.rule,
            escape(&line(&file.name, f))
        );
        x.push_str("    </testcase>\n");
    }
    for o in &file.objects {
        case(x, &file.name, o);
    }
    x.push_str("  </testsuite>\n");
}

/// The `testcase` of one object.
fn case(x: &mut String, file: &str, o: &ObjectRecord) {
    let name = escape(&format!("{} ({})", o.label, at(file, o.start)));
    let classname = escape(if o.type_name.is_empty() {
        "object"
    } else {
        &o.type_name
    });
    let _ = writeln!(
        x,
        "    <testcase name=\"{name}\" classname=\"{classname}\">"
    );
    let lines = |severity: Severity| -> String {
        o.findings
            .iter()
            .filter(|f| f.severity == severity)
            .map(|f| line(file, f))
            .collect::<Vec<_>>()
            .join("\n")
    };
    match &o.verdict {
        Verdict::Valid => {}
        Verdict::Skipped(why) => {
            let _ = writeln!(x, "      <skipped message=\"{}\"/>", escape(why));
        }
        Verdict::Unprocessable => {
            let first = o.findings.first();
            let _ = writeln!(
                x,
                "      <error message=\"{}\" type=\"{}\">{}</error>",
                escape(first.map_or("", |f| f.message.as_str())),
                first.map_or("Error", |f| f.rule),
                escape(&lines(Severity::Error))
            );
        }
        Verdict::Invalid | Verdict::Rejected => {
            let n = o.errors();
            let message = if matches!(o.verdict, Verdict::Rejected) {
                "rejected".to_string()
            } else {
                format!("{n} error{}", crate::cli::diagnostics::plural(n))
            };
            let _ = writeln!(
                x,
                "      <failure message=\"{message}\" type=\"{}\">{}</failure>",
                o.findings
                    .iter()
                    .find(|f| f.severity == Severity::Error)
                    .map_or("Invalid", |f| f.rule),
                escape(&lines(Severity::Error))
            );
        }
    }
    let warnings = lines(Severity::Warning);
    if !warnings.is_empty() {
        let _ = writeln!(x, "      <system-out>{}</system-out>", escape(&warnings));
    }
    x.push_str("    </testcase>\n");
}

/// `file:line:column: error: message`, as text output prints a finding.
fn line(file: &str, f: &Finding) -> String {
    let word = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    format!("{}: {word}: {}", super::text::place(file, f), f.message)
}

/// `s` as XML character data or attribute value: markup escaped, and the
/// characters XML 1.0 cannot hold (control characters other than tab and
/// line breaks) replaced with U+FFFD.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if let Some(reference) = character_reference(c) {
            out.push_str(reference);
        } else if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' {
            out.push('\u{FFFD}');
        } else {
            out.push(c);
        }
    }
    out
}

/// The reference `c` is written as: markup, and the white space an
/// attribute value would otherwise normalize.
fn character_reference(c: char) -> Option<&'static str> {
    Some(match c {
        '&' => "&amp;",
        '<' => "&lt;",
        '>' => "&gt;",
        '"' => "&quot;",
        '\'' => "&apos;",
        '\n' => "&#10;",
        '\r' => "&#13;",
        '\t' => "&#9;",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_markup_and_characters_xml_cannot_hold() {
        assert_eq!(
            escape("a<b & \"c\"\n\u{1}"),
            "a&lt;b &amp; &quot;c&quot;&#10;\u{FFFD}"
        );
    }
}
