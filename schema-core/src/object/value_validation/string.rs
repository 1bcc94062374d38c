//! The string checks: `maxLength`, `minLength` and `pattern`
//! (kube-openapi's `stringValidator`) and `format` (its `formatValidator`).

use super::error::{Kind, Raw};
use super::node::Node;
use crate::go::formats::{self, Format};
use crate::model::field::DottedPath;

/// `stringValidator.Validate`: only the first failure is reported.
pub(super) fn check_string<'a>(
    n: &'a Node,
    s: &'a str,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) {
    if n.max_length.is_some() || n.min_length.is_some() {
        let len = i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
        if let Some(max) = n.max_length {
            if len > max {
                out.push(Raw {
                    origin: None,
                    name: path.render(),
                    kind: Kind::TooLong { max },
                });
                return;
            }
        }
        if let Some(min) = n.min_length {
            if len < min {
                out.push(Raw {
                    origin: None,
                    name: path.render(),
                    kind: Kind::TooShort { min, data: s },
                });
                return;
            }
        }
    }
    if let Some(p) = &n.pattern {
        let kind = match &p.re {
            Err(e) => Some(Kind::Pattern {
                pattern: &p.text,
                invalid: Some(e),
                data: s,
            }),
            Ok(re) if !re.is_match(s) => Some(Kind::Pattern {
                pattern: &p.text,
                invalid: None,
                data: s,
            }),
            Ok(_) => None,
        };
        if let Some(kind) = kind {
            out.push(Raw {
                origin: None,
                name: path.render(),
                kind,
            });
        }
    }
}

/// `formatValidator.Validate` on a string: `f` is the node's format.
pub(super) fn check_string_format<'a>(
    n: &'a Node,
    f: Format,
    s: &'a str,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) {
    if !formats::validates(f, s) {
        out.push(Raw {
            origin: None,
            name: path.render(),
            kind: Kind::InvalidType {
                expected: &n.format,
                actual: s,
            },
        });
    }
}
