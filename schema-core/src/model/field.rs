//! Field paths and field errors, printed exactly as apimachinery's
//! `k8s.io/apimachinery/pkg/util/validation/field` prints them.
//!
//! A [`Path`] is a chain of named children (`spec.versions`) and subscripts
//! (`[0]`, `[foo]`). A [`FieldError`] carries an [`ErrorType`], the path, an
//! optional bad value and a detail; its `Display` is the server's
//! `field.Error.Error()` string, e.g.
//! `spec.replicas: Invalid value: 0: must be greater than or equal to 1`.

use std::fmt::{self, Write as _};
use std::sync::Arc;

use serde_json::Value;

use crate::go::fmt::{format_number, go_quote};

/// One element of a [`Path`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathElement {
    /// A named child, joined with `.`.
    Child(String),
    /// A map key subscript, printed `[key]`.
    Key(String),
    /// A list index subscript, printed `[i]`.
    Index(usize),
}

/// A field path. The empty path prints as `<nil>`, like a nil `*field.Path`.
///
/// Paths are persistent linked lists: [`Path::child`], [`Path::key`] and
/// [`Path::index`] share the parent and cost one small allocation, so
/// walkers can build the path of every node they visit cheaply.
#[derive(Clone, Default)]
pub struct Path {
    node: Option<Arc<Node>>,
}

struct Node {
    parent: Option<Arc<Node>>,
    elem: PathElement,
}

impl Path {
    /// The nil path.
    pub fn root() -> Self {
        Self::default()
    }

    /// A path from dotted named children, e.g. `Path::new(["spec", "validation"])`.
    pub fn new<I, S>(children: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        children
            .into_iter()
            .fold(Path::root(), |p, c| p.with(PathElement::Child(c.into())))
    }

    /// Parses a path printed by [`Path`]'s `Display` (`a.b[0].c[key]`).
    /// Keys containing `]` or `.` inside brackets are kept verbatim up to the
    /// first `]`; an empty string gives the nil path.
    pub fn parse(s: &str) -> Self {
        let mut path = Path::root();
        let mut rest = s;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('[') {
                let end = after.find(']').unwrap_or(after.len());
                let inner = after.get(..end).unwrap_or_default();
                path = path.with(match inner.parse::<usize>() {
                    Ok(i) => PathElement::Index(i),
                    Err(_) => PathElement::Key(inner.to_string()),
                });
                rest = after.get(end + 1..).unwrap_or_default();
            } else {
                let rest2 = rest.strip_prefix('.').unwrap_or(rest);
                let end = rest2.find(['.', '[']).unwrap_or(rest2.len());
                path = path.with(PathElement::Child(
                    rest2.get(..end).unwrap_or_default().to_string(),
                ));
                rest = rest2.get(end..).unwrap_or_default();
            }
        }
        path
    }

    /// A path from elements, outermost first.
    pub fn from_elements<I: IntoIterator<Item = PathElement>>(elements: I) -> Self {
        elements.into_iter().fold(Path::root(), |p, e| p.with(e))
    }

    /// `self.child(name)`.
    #[must_use]
    pub fn child(&self, name: impl Into<String>) -> Self {
        self.with(PathElement::Child(name.into()))
    }

    /// `self[key]`.
    #[must_use]
    pub fn key(&self, key: impl Into<String>) -> Self {
        self.with(PathElement::Key(key.into()))
    }

    /// `self[i]`.
    #[must_use]
    pub fn index(&self, i: usize) -> Self {
        self.with(PathElement::Index(i))
    }

    fn with(&self, elem: PathElement) -> Self {
        Self {
            node: Some(Arc::new(Node {
                parent: self.node.clone(),
                elem,
            })),
        }
    }

    /// Appends all elements of `other` (used to re-root relative paths).
    #[must_use]
    pub fn join(&self, other: &Path) -> Self {
        other
            .elements()
            .into_iter()
            .fold(self.clone(), |p, e| p.with(e))
    }

    /// The elements, outermost first.
    pub fn elements(&self) -> Vec<PathElement> {
        let mut out = Vec::new();
        let mut n = self.node.as_deref();
        while let Some(node) = n {
            out.push(node.elem.clone());
            n = node.parent.as_deref();
        }
        out.reverse();
        out
    }

    /// Whether this is the nil path.
    pub fn is_root(&self) -> bool {
        self.node.is_none()
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Path({self})")
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Self) -> bool {
        self.elements() == other.elements()
    }
}

impl Eq for Path {}

impl std::hash::Hash for Path {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.elements().hash(state);
    }
}

impl PartialOrd for Path {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Path {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.elements().cmp(&other.elements())
    }
}

impl Drop for Path {
    fn drop(&mut self) {
        // Unlink iteratively so that dropping a very long path cannot
        // recurse deeply.
        let mut next = self.node.take();
        while let Some(node) = next {
            match Arc::try_unwrap(node) {
                Ok(mut n) => next = n.parent.take(),
                Err(_) => break,
            }
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.node.is_none() {
            return f.write_str("<nil>");
        }
        for (i, e) in self.elements().iter().enumerate() {
            match e {
                PathElement::Child(name) => {
                    if i > 0 {
                        f.write_char('.')?;
                    }
                    f.write_str(name)?;
                }
                PathElement::Key(k) => write!(f, "[{k}]")?,
                PathElement::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// A path as the server's value walkers build it, by concatenating
/// strings (kube-openapi's validator, the pruning's `parent`):
/// `spec.items[0].name`. Unlike [`Path`] it is a chain of borrowed
/// segments on the walker's stack, free to build and rendered only when an
/// error needs it.
#[derive(Clone, Copy)]
pub(crate) enum DottedPath<'p> {
    /// The empty path.
    Root,
    /// A property: `parent.name`, or `name` when the parent renders empty.
    Child(&'p DottedPath<'p>, &'p str),
    /// `parent + "." + key`, with a leading dot when the parent renders
    /// empty (kube-openapi's additional and pattern properties, required
    /// and dependencies).
    Dot(&'p DottedPath<'p>, &'p str),
    /// `parent[i]`.
    Index(&'p DottedPath<'p>, usize),
}

impl DottedPath<'_> {
    /// The path as a string.
    pub(crate) fn render(&self) -> String {
        let mut chain: Vec<&DottedPath<'_>> = Vec::new();
        let mut cur = self;
        while let DottedPath::Child(p, _) | DottedPath::Dot(p, _) | DottedPath::Index(p, _) = cur {
            chain.push(cur);
            cur = p;
        }
        let mut s = String::new();
        for seg in chain.iter().rev() {
            match seg {
                DottedPath::Root => {}
                DottedPath::Child(_, name) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(name);
                }
                DottedPath::Dot(_, key) => {
                    s.push('.');
                    s.push_str(key);
                }
                DottedPath::Index(_, i) => {
                    let _ = write!(s, "[{i}]");
                }
            }
        }
        s
    }

    /// Whether the path renders as the empty string.
    pub(crate) fn is_empty(&self) -> bool {
        let mut cur = self;
        loop {
            match cur {
                DottedPath::Root => return true,
                DottedPath::Child(p, "") => cur = p,
                DottedPath::Child(..) | DottedPath::Dot(..) | DottedPath::Index(..) => {
                    return false;
                }
            }
        }
    }
}

/// The kinds of field error apimachinery knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorType {
    /// `FieldValueNotFound`, "Not found".
    NotFound,
    /// `FieldValueRequired`, "Required value".
    Required,
    /// `FieldValueDuplicate`, "Duplicate value".
    Duplicate,
    /// `FieldValueInvalid`, "Invalid value".
    Invalid,
    /// `FieldValueNotSupported`, "Unsupported value".
    NotSupported,
    /// `FieldValueForbidden`, "Forbidden".
    Forbidden,
    /// `FieldValueTooLong`, "Too long".
    TooLong,
    /// `FieldValueTooMany`, "Too many".
    TooMany,
    /// `InternalError`, "Internal error".
    Internal,
    /// `FieldValueTypeInvalid`, printed "Invalid value".
    TypeInvalid,
}

impl ErrorType {
    /// The Go constant name (`FieldValueInvalid`), as used in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
        }
    }

    /// The human word (`Invalid value`), as in `field.ErrorType.String()`.
    pub fn word(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::Internal => "Internal error",
        }
    }

    /// Parses a Go constant name.
    pub fn from_name(s: &str) -> Option<Self> {
        Some(match s {
            "FieldValueNotFound" => ErrorType::NotFound,
            "FieldValueRequired" => ErrorType::Required,
            "FieldValueDuplicate" => ErrorType::Duplicate,
            "FieldValueInvalid" => ErrorType::Invalid,
            "FieldValueNotSupported" => ErrorType::NotSupported,
            "FieldValueForbidden" => ErrorType::Forbidden,
            "FieldValueTooLong" => ErrorType::TooLong,
            "FieldValueTooMany" => ErrorType::TooMany,
            "InternalError" => ErrorType::Internal,
            "FieldValueTypeInvalid" => ErrorType::TypeInvalid,
            _ => return None,
        })
    }
}

/// The bad value of a field error, formatted as apimachinery formats it.
#[derive(Clone, Debug, PartialEq)]
pub enum BadValue {
    /// No value is printed (Required, Forbidden, TooLong, Internal).
    Omitted,
    /// A JSON value: strings print Go-quoted, numbers and bools with `%v`,
    /// anything else as compact JSON.
    Json(Value),
    /// A value printed verbatim (already formatted).
    Raw(String),
}

/// One validation finding, as `field.Error`.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// The error type.
    pub error_type: ErrorType,
    /// The field path.
    pub field: Path,
    /// The bad value.
    pub bad_value: BadValue,
    /// The detail (may be empty).
    pub detail: String,
}

impl FieldError {
    fn new(error_type: ErrorType, field: &Path, bad_value: BadValue, detail: String) -> Self {
        Self {
            error_type,
            field: field.clone(),
            bad_value,
            detail,
        }
    }

    /// `field.Required(path, detail)`.
    pub fn required(field: &Path, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Required, field, BadValue::Omitted, detail.into())
    }

    /// `field.Forbidden(path, detail)`.
    pub fn forbidden(field: &Path, detail: impl Into<String>) -> Self {
        Self::new(
            ErrorType::Forbidden,
            field,
            BadValue::Omitted,
            detail.into(),
        )
    }

    /// `field.Invalid(path, value, detail)`.
    pub fn invalid(field: &Path, value: impl Into<Value>, detail: impl Into<String>) -> Self {
        Self::new(
            ErrorType::Invalid,
            field,
            BadValue::Json(value.into()),
            detail.into(),
        )
    }

    /// `field.Invalid(path, value, detail)` where `value` stands for a Go
    /// struct: a compound value prints as `json.Marshal` writes the struct,
    /// its fields in the order given (not sorted as a map's keys would be).
    pub fn invalid_struct(field: &Path, value: &Value, detail: impl Into<String>) -> Self {
        let bad_value = match value {
            Value::Array(_) | Value::Object(_) => {
                BadValue::Raw(crate::go::json::go_json(value, false))
            }
            other => BadValue::Json(other.clone()),
        };
        Self::new(ErrorType::Invalid, field, bad_value, detail.into())
    }

    /// `field.TypeInvalid(path, value, detail)`.
    pub fn type_invalid(field: &Path, value: impl Into<Value>, detail: impl Into<String>) -> Self {
        Self::new(
            ErrorType::TypeInvalid,
            field,
            BadValue::Json(value.into()),
            detail.into(),
        )
    }

    /// `field.Duplicate(path, value)`.
    pub fn duplicate(field: &Path, value: impl Into<Value>) -> Self {
        Self::new(
            ErrorType::Duplicate,
            field,
            BadValue::Json(value.into()),
            String::new(),
        )
    }

    /// `field.NotSupported(path, value, supported)`; the detail lists the
    /// supported values, each Go-quoted.
    pub fn not_supported<S: AsRef<str>>(
        field: &Path,
        value: impl Into<Value>,
        supported: &[S],
    ) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| go_quote(s.as_ref())).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::new(
            ErrorType::NotSupported,
            field,
            BadValue::Json(value.into()),
            detail,
        )
    }

    /// `field.TooLong(path, value, max)`: the value is omitted.
    pub fn too_long(field: &Path, max: i64) -> Self {
        let detail = if max < 0 {
            "value is too long".to_string()
        } else if max == 1 {
            "may not be more than 1 byte".to_string()
        } else {
            format!("may not be more than {max} bytes")
        };
        Self::new(ErrorType::TooLong, field, BadValue::Omitted, detail)
    }

    /// `field.TooMany(path, actual, max)`.
    pub fn too_many(field: &Path, actual: i64, max: i64) -> Self {
        let detail = if max == 1 {
            "must have at most 1 item".to_string()
        } else {
            format!("must have at most {max} items")
        };
        Self::new(
            ErrorType::TooMany,
            field,
            BadValue::Json(Value::from(actual)),
            detail,
        )
    }

    /// `field.InternalError(path, err)`.
    pub fn internal(field: &Path, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Internal, field, BadValue::Omitted, detail.into())
    }

    /// The message after `<field>: `, i.e. `ErrorBody()`.
    pub fn body(&self) -> String {
        let mut s = String::from(self.error_type.word());
        match (&self.error_type, &self.bad_value) {
            (
                ErrorType::Required
                | ErrorType::Forbidden
                | ErrorType::TooLong
                | ErrorType::Internal,
                _,
            )
            | (_, BadValue::Omitted) => {}
            (_, BadValue::Raw(r)) => {
                s.push_str(": ");
                s.push_str(r);
            }
            (_, BadValue::Json(v)) => {
                s.push_str(": ");
                s.push_str(&format_value(v));
            }
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

impl std::error::Error for FieldError {}

/// Formats a bad value as `field.Error` does: strings with Go `%q`, numbers
/// and bools with `%v`, everything else as Go's `json.Marshal` writes it
/// (object keys sorted).
pub(crate) fn format_value(v: &Value) -> String {
    match v {
        Value::String(s) => go_quote(s),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format_number(n),
        Value::Null => "null".to_string(),
        other => crate::go::json::go_json(other, true),
    }
}

/// A list of field errors, as `field.ErrorList`.
pub type ErrorList = Vec<FieldError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_print_like_apimachinery() {
        assert_eq!(Path::root().to_string(), "<nil>");
        let p = Path::new(["spec", "versions"]).index(0).child("schema");
        assert_eq!(p.to_string(), "spec.versions[0].schema");
        assert_eq!(
            Path::root().child("properties").key("foo").to_string(),
            "properties[foo]"
        );
        assert_eq!(
            Path::parse("spec.versions[0].schema.properties[a.b]").to_string(),
            "spec.versions[0].schema.properties[a.b]"
        );
    }

    #[test]
    fn dotted_paths_render_like_string_concatenation() {
        let root = DottedPath::Root;
        assert_eq!(root.render(), "");
        assert!(root.is_empty());
        let spec = DottedPath::Child(&root, "spec");
        let items = DottedPath::Child(&spec, "items");
        let first = DottedPath::Index(&items, 0);
        let name = DottedPath::Child(&first, "name");
        assert_eq!(name.render(), "spec.items[0].name");
        assert_eq!(DottedPath::Dot(&first, "k").render(), "spec.items[0].k");
        assert_eq!(DottedPath::Dot(&root, "k").render(), ".k");
        assert_eq!(DottedPath::Index(&root, 3).render(), "[3]");
        let blank = DottedPath::Child(&root, "");
        assert!(blank.is_empty());
        assert_eq!(DottedPath::Child(&blank, "a").render(), "a");
        assert!(!DottedPath::Dot(&root, "").is_empty());
        assert!(!DottedPath::Index(&blank, 0).is_empty());
    }

    #[test]
    fn errors_print_like_apimachinery() {
        let p = Path::root().child("properties").key("foo").child("type");
        assert_eq!(
            FieldError::required(&p, "must not be empty for specified object fields").to_string(),
            "properties[foo].type: Required value: must not be empty for specified object fields"
        );
        assert_eq!(
            FieldError::invalid(&Path::new(["spec", "replicas"]), 0, "bad").to_string(),
            "spec.replicas: Invalid value: 0: bad"
        );
        assert_eq!(
            FieldError::not_supported(&Path::new(["type"]), "x", &["a", "b"]).to_string(),
            "type: Unsupported value: \"x\": supported values: \"a\", \"b\""
        );
        assert_eq!(
            FieldError::too_long(&Path::new(["a"]), 5).to_string(),
            "a: Too long: may not be more than 5 bytes"
        );
        assert_eq!(
            FieldError::too_many(&Path::new(["a"]), 3, 2).to_string(),
            "a: Too many: 3: must have at most 2 items"
        );
    }
}
