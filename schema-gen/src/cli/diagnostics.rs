//! Diagnostics as text: `file:line:column: error: message` lines, the
//! locations they name, and the messages of documents that cannot be read.

use schema_core::model::locate::locate_field;
use schema_core::model::source::{Document, Location};
use schema_core::model::wire::input::ReadError;

/// `name:line:column`, the prefix of a diagnostic about that place.
pub(super) fn at(name: &str, location: Location) -> String {
    format!("{name}:{location}")
}

/// `s` when `n` is not 1, to count things in words.
pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The diagnostic lines of a document of `name` that is not a CRD or
/// schema: one per decoding issue, at the field it names, or one at the
/// document's start.
pub(super) fn read_error_message(name: &str, doc: &Document, e: &ReadError) -> String {
    match e {
        ReadError::Decode(issues) => issues
            .iter()
            .map(|issue| {
                let location = locate_field(doc, &[], &issue.field);
                format!("{}: error: {issue}", at(name, location))
            })
            .collect::<Vec<_>>()
            .join("\n"),
        other => format!("{}: error: {other}", at(name, doc.start)),
    }
}
