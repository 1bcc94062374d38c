//! The validation errors as kube-openapi makes them (`errors.Validation`
//! and the composite messages), their `err.Error()` messages and their
//! conversion to field errors (`kubeOpenAPIResultToFieldErrors`).

use serde_json::Value;

use super::node::Node;
use crate::go::fmt::go_quote;
use crate::go::json::{GoNum, go_json};
use crate::model::field::{BadValue, DottedPath, FieldError, Path};

/// What a validation error is about, with what its message and field error
/// need.
pub(super) enum Kind<'a> {
    InvalidType {
        expected: &'a str,
        actual: &'a str,
    },
    Required,
    TooLong {
        max: i64,
    },
    TooShort {
        min: i64,
        data: &'a str,
    },
    Pattern {
        pattern: &'a str,
        invalid: Option<&'a str>,
        data: &'a str,
    },
    Enum {
        data: &'a Value,
        node: &'a Node,
    },
    NotMultipleOf {
        factor: GoNum,
        data: GoNum,
    },
    MultipleOfNotPositive {
        factor: GoNum,
    },
    Maximum {
        bound: GoNum,
        exclusive: bool,
        data: GoNum,
    },
    Minimum {
        bound: GoNum,
        exclusive: bool,
        data: GoNum,
    },
    Unique,
    MaxItems {
        max: i64,
        size: i64,
    },
    MinItems {
        min: i64,
        size: i64,
    },
    TooFewProperties {
        min: i64,
        n: i64,
    },
    TooManyProperties {
        max: i64,
        n: i64,
    },
    NotAllowed {
        key: &'a str,
    },
    /// An error that is not an `errors.Validation` (composite messages,
    /// range checks): reported at the root path with value `""`.
    Plain(String),
}

/// One validation error: where (the validator's path) and what.
pub(super) struct Raw<'a> {
    /// The validator path (`errors.Validation.Name`).
    pub(super) name: String,
    /// What failed.
    pub(super) kind: Kind<'a>,
    /// The node whose validator reported the error, as the steps from the
    /// root: the node the error names, its parent for a missing required
    /// field, the node of the junctor for everything its branches report.
    /// Ratcheting decides by it. Set by [`claim`].
    pub(super) origin: Option<Vec<ValueStep>>,
}

/// One step from a node to a child: a member or a list item.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum ValueStep {
    /// An object member.
    Key(String),
    /// A list item.
    Index(usize),
}

/// The steps of a validator path from the root.
fn steps(path: &DottedPath<'_>) -> Vec<ValueStep> {
    let mut out = Vec::new();
    let mut cur = path;
    loop {
        match cur {
            DottedPath::Root => break,
            DottedPath::Child(p, k) | DottedPath::Dot(p, k) => {
                out.push(ValueStep::Key((*k).to_string()));
                cur = p;
            }
            DottedPath::Index(p, i) => {
                out.push(ValueStep::Index(*i));
                cur = p;
            }
        }
    }
    out.reverse();
    out
}

/// Runs the validators `run` of the node at `path` (they append their
/// errors to `out` and return their match count), then makes the node the
/// origin of what they appended (see [`claim`]).
pub(super) fn run_claimed<'a>(
    out: &mut Vec<Raw<'a>>,
    path: &DottedPath<'_>,
    all: bool,
    run: impl FnOnce(&mut Vec<Raw<'a>>) -> u64,
) -> u64 {
    let start = out.len();
    let mc = run(out);
    claim(out, start, path, all);
    mc
}

/// Makes the node at `path` the origin of the errors `out[start..]`:
/// of those without one, or of all of them when `all` (a junctor's).
fn claim(out: &mut [Raw<'_>], start: usize, path: &DottedPath<'_>, all: bool) {
    let Some(added) = out.get_mut(start..).filter(|a| !a.is_empty()) else {
        return;
    };
    let at = steps(path);
    for r in added {
        if all || r.origin.is_none() {
            r.origin = Some(at.clone());
        }
    }
}

/// The bad value of a field error, as the server prints the data.
fn bad_value(v: &Value) -> BadValue {
    match v {
        Value::Number(n) => BadValue::Json(GoNum::of(n).to_value()),
        Value::Array(_) | Value::Object(_) => BadValue::Raw(go_json(v, true)),
        other => BadValue::Json(other.clone()),
    }
}

impl<'a> Raw<'a> {
    /// An error without a path of its own (reported at the root).
    pub(super) fn plain(msg: String) -> Self {
        Raw {
            origin: None,
            name: String::new(),
            kind: Kind::Plain(msg),
        }
    }

    /// `err.Error()`.
    pub(super) fn message(&self) -> String {
        let name = &self.name;
        match &self.kind {
            Kind::InvalidType { expected, actual } => {
                format!(
                    "{name} in body must be of type {expected}: {}",
                    go_quote(actual)
                )
            }
            Kind::Required => format!("{name} in body is required"),
            Kind::TooLong { max } => format!("{name} in body should be at most {max} chars long"),
            Kind::TooShort { min, .. } => {
                format!("{name} in body should be at least {min} chars long")
            }
            Kind::Pattern {
                pattern, invalid, ..
            } => match invalid {
                None => format!("{name} in body should match '{pattern}'"),
                Some(e) => {
                    format!("{name} in body should match '{pattern}, but pattern is invalid: {e}'")
                }
            },
            Kind::Enum { node, .. } => format!("{name} in body should be one of {}", node.enum_v),
            Kind::NotMultipleOf { factor, .. } => {
                format!("{name} in body should be a multiple of {}", factor.go_v())
            }
            Kind::MultipleOfNotPositive { factor } => format!(
                "factor MultipleOf declared for {name} must be positive: {}",
                factor.go_v()
            ),
            Kind::Maximum {
                bound, exclusive, ..
            } => {
                if *exclusive {
                    format!("{name} in body should be less than {}", bound.go_v())
                } else {
                    format!(
                        "{name} in body should be less than or equal to {}",
                        bound.go_v()
                    )
                }
            }
            Kind::Minimum {
                bound, exclusive, ..
            } => {
                if *exclusive {
                    format!("{name} in body should be greater than {}", bound.go_v())
                } else {
                    format!(
                        "{name} in body should be greater than or equal to {}",
                        bound.go_v()
                    )
                }
            }
            Kind::Unique => format!("{name} in body shouldn't contain duplicates"),
            Kind::MaxItems { max, .. } => format!("{name} in body should have at most {max} items"),
            Kind::MinItems { min, .. } => {
                format!("{name} in body should have at least {min} items")
            }
            Kind::TooFewProperties { min, .. } => {
                format!("{name} in body should have at least {min} properties")
            }
            Kind::TooManyProperties { max, .. } => {
                format!("{name} in body should have at most {max} properties")
            }
            Kind::NotAllowed { key } => format!("{name}.{key} in body is a forbidden property"),
            Kind::Plain(msg) => msg.clone(),
        }
    }

    /// One arm of `kubeOpenAPIResultToFieldErrors`.
    pub(super) fn to_field_error(&self, root: &Path, msg: String) -> FieldError {
        if let Kind::Plain(_) = self.kind {
            return FieldError::invalid(root, "", msg);
        }
        let name = self.name.as_str();
        let path = if name.is_empty() || name == "." {
            root.clone()
        } else {
            root.child(name.strip_prefix('.').unwrap_or(name))
        };
        let invalid = |value: BadValue| {
            let mut e = FieldError::invalid(&path, Value::Null, msg.clone());
            e.bad_value = value;
            e
        };
        match &self.kind {
            Kind::Required => FieldError::required(&path, ""),
            Kind::Enum { data, node } => {
                let mut e = FieldError::not_supported(&path, Value::Null, &node.enum_supported);
                e.bad_value = bad_value(data);
                e
            }
            Kind::TooLong { max } => FieldError::too_long(&path, *max),
            Kind::MaxItems { max, size } => FieldError::too_many(&path, *size, *max),
            Kind::TooManyProperties { max, n } => FieldError::too_many(&path, *n, *max),
            Kind::InvalidType { actual, .. } => FieldError::type_invalid(&path, *actual, msg),
            Kind::TooShort { data, .. } | Kind::Pattern { data, .. } => {
                invalid(BadValue::Json(Value::String((*data).to_string())))
            }
            Kind::NotMultipleOf { data, .. }
            | Kind::Maximum { data, .. }
            | Kind::Minimum { data, .. } => invalid(BadValue::Json(data.to_value())),
            Kind::MultipleOfNotPositive { factor } => invalid(BadValue::Json(factor.to_value())),
            Kind::Unique => invalid(BadValue::Json(Value::String(String::new()))),
            Kind::MinItems { size, .. } => invalid(BadValue::Json(Value::from(*size))),
            Kind::TooFewProperties { n, .. } => invalid(BadValue::Json(Value::from(*n))),
            Kind::NotAllowed { key } => invalid(BadValue::Json(Value::String((*key).to_string()))),
            Kind::Plain(_) => FieldError::invalid(root, "", msg),
        }
    }

    /// `keepRelevantErrors`: messages starting with `IMPORTANT!` are kept
    /// (as plain errors, prefix removed) whatever the match counts say.
    pub(super) fn important(&self) -> Option<Raw<'a>> {
        let candidate = match &self.kind {
            Kind::Plain(m) => m.starts_with("IMPORTANT!"),
            Kind::MultipleOfNotPositive { .. } => false,
            _ => self.name.starts_with("IMPORTANT!"),
        };
        if !candidate {
            return None;
        }
        let msg = self.message();
        msg.strip_prefix("IMPORTANT!")
            .map(|m| Raw::plain(m.to_string()))
    }
}
