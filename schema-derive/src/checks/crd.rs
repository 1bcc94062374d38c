//! The checks of `crd(...)` values the syntax allows: printer column types
//! and formats, the API server's name errors, JSON path shapes.

use crate::ctxt::Ctxt;
use crate::parse::values::Val;

/// The printer column types the API server accepts.
pub(crate) const COLUMN_TYPES: &[&str] = &["boolean", "date", "integer", "number", "string"];
/// The printer column formats the API server accepts.
pub(crate) const COLUMN_FORMATS: &[&str] = &[
    "byte",
    "date",
    "date-time",
    "double",
    "float",
    "int32",
    "int64",
    "password",
];

/// Reports the API server's errors for a name, if any.
pub(crate) fn name_errors(cx: &Ctxt, v: &Val<String>, what: &str, errs: Vec<String>) {
    if !errs.is_empty() {
        cx.error(
            v.span,
            format!("invalid {what} {:?}: {}", v.value, errs.join(", ")),
        );
    }
}

/// `validateSimpleJSONPath` and the prefix the API server asks for.
pub(crate) fn check_path(cx: &Ctxt, v: &Val<String>, what: &str, prefixes: &[&str]) {
    if !v.value.starts_with('.') {
        cx.error(
            v.span,
            format!(
                "invalid {what} {:?}: must be a simple json path starting with .",
                v.value
            ),
        );
    } else if !prefixes.is_empty() && !prefixes.iter().any(|p| v.value.starts_with(p)) {
        let under = prefixes
            .iter()
            .map(|p| p.trim_end_matches('.'))
            .collect::<Vec<_>>()
            .join(" or ");
        cx.error(
            v.span,
            format!(
                "invalid {what} {:?}: should be a json path under {under}",
                v.value
            ),
        );
    }
}
