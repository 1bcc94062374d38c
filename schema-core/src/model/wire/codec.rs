//! Decoding JSON values into the wire model and encoding them back.
//!
//! Decoding is strict in the way the API server's strict decoder is: a
//! known field of the wrong JSON type is an error; an unknown field is
//! kept (so writing back is lossless) and reported as a warning,
//! `unknown field "spec.foo"`.

use indexmap::IndexMap;
use serde_json::{Number, Value};

use crate::model::field::Path;

/// The deepest schema (and CRD) nesting the decoder accepts (a schema
/// node is one level; a CRD adds a handful above its schema). Real CRDs
/// stay below 25 (the deepest in the corpus nests 39 JSON levels, about
/// 20 schema levels); the limit keeps every recursive algorithm on the IR
/// within a 2 MiB thread stack.
pub const MAX_SCHEMA_NESTING: usize = 128;

/// A decoding problem at a field path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeIssue {
    /// Where, as a field path (`spec.versions[0].name`).
    pub field: Path,
    /// What, e.g. `expected a string, found a number`.
    pub message: String,
}

impl std::fmt::Display for DecodeIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Collects decoding errors (wrong types) and warnings (unknown fields).
#[derive(Debug, Default)]
pub struct DecodeCx {
    /// Type errors: the document cannot be represented.
    pub errors: Vec<DecodeIssue>,
    /// Unknown fields, kept verbatim.
    pub warnings: Vec<DecodeIssue>,
    pub(crate) depth: usize,
}

impl DecodeCx {
    /// Records a type error.
    pub fn error(&mut self, field: &Path, message: impl Into<String>) {
        self.errors.push(DecodeIssue {
            field: field.clone(),
            message: message.into(),
        });
    }

    /// Records an unknown field.
    pub fn unknown(&mut self, field: &Path) {
        self.warnings.push(DecodeIssue {
            field: field.clone(),
            message: format!("unknown field \"{field}\""),
        });
    }
}

/// The JSON kind of a value, for messages.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Where a value sits while decoding: a chain of borrowed path elements on
/// the stack, turned into a [`Path`] only when something is reported.
#[derive(Clone, Copy)]
pub struct Loc<'a> {
    parent: Option<&'a Loc<'a>>,
    elem: LocElem<'a>,
}

#[derive(Clone, Copy)]
enum LocElem<'a> {
    Base(&'a Path),
    Child(&'a str),
    Key(&'a str),
    Index(usize),
}

impl<'a> Loc<'a> {
    /// A location rooted at `base`.
    pub fn base(base: &'a Path) -> Self {
        Loc {
            parent: None,
            elem: LocElem::Base(base),
        }
    }

    /// A named child.
    pub fn child(&'a self, name: &'a str) -> Loc<'a> {
        Loc {
            parent: Some(self),
            elem: LocElem::Child(name),
        }
    }

    /// A map key.
    pub fn key(&'a self, key: &'a str) -> Loc<'a> {
        Loc {
            parent: Some(self),
            elem: LocElem::Key(key),
        }
    }

    /// A list index.
    pub fn index(&'a self, i: usize) -> Loc<'a> {
        Loc {
            parent: Some(self),
            elem: LocElem::Index(i),
        }
    }

    /// The field path.
    pub fn path(&self) -> Path {
        let mut elems = Vec::new();
        let mut cur = Some(self);
        let mut base = Path::root();
        while let Some(l) = cur {
            match l.elem {
                LocElem::Base(b) => base = b.clone(),
                LocElem::Child(c) => {
                    elems.push(crate::model::field::PathElement::Child(c.to_string()))
                }
                LocElem::Key(k) => elems.push(crate::model::field::PathElement::Key(k.to_string())),
                LocElem::Index(i) => elems.push(crate::model::field::PathElement::Index(i)),
            }
            cur = l.parent;
        }
        elems.reverse();
        base.join(&Path::from_elements(elems))
    }
}

/// A type of the wire model: decodes from a JSON value (recording
/// problems in the context) and encodes back.
pub trait Wire: Sized {
    /// Decodes `v`, taking its strings and containers over.
    fn decode_at(v: Value, loc: &Loc<'_>, cx: &mut DecodeCx) -> Option<Self>;

    /// Decodes `v` found at `path`; `None` after recording an error.
    fn decode(v: &Value, path: &Path, cx: &mut DecodeCx) -> Option<Self> {
        Self::decode_at(v.clone(), &Loc::base(path), cx)
    }

    /// Decodes an owned value found at `path`.
    fn decode_owned(v: Value, path: &Path, cx: &mut DecodeCx) -> Option<Self> {
        Self::decode_at(v, &Loc::base(path), cx)
    }

    /// Encodes back to JSON.
    fn encode(&self) -> Value;
}

fn mismatch(loc: &Loc<'_>, cx: &mut DecodeCx, want: &str, v: &Value) {
    cx.error(
        &loc.path(),
        format!("expected {want}, found {}", kind_of(v)),
    );
}

impl Wire for String {
    fn decode_at(v: Value, loc: &Loc<'_>, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::String(s) => Some(s),
            _ => {
                mismatch(loc, cx, "a string", &v);
                None
            }
        }
    }
    fn encode(&self) -> Value {
        Value::String(self.clone())
    }
}

impl Wire for bool {
    fn decode_at(v: Value, loc: &Loc<'_>, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::Bool(b) => Some(b),
            _ => {
                mismatch(loc, cx, "a boolean", &v);
                None
            }
        }
    }
    fn encode(&self) -> Value {
        Value::Bool(*self)
    }
}

impl Wire for i64 {
    fn decode_at(v: Value, loc: &Loc<'_>, cx: &mut DecodeCx) -> Option<Self> {
        match v.as_i64() {
            Some(i) if !v.as_number().is_some_and(Number::is_f64) => Some(i),
            _ => {
                mismatch(loc, cx, "an integer", &v);
                None
            }
        }
    }
    fn encode(&self) -> Value {
        Value::from(*self)
    }
}

impl Wire for Number {
    fn decode_at(v: Value, loc: &Loc<'_>, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::Number(n) => Some(n),
            _ => {
                mismatch(loc, cx, "a number", &v);
                None
            }
        }
    }
    fn encode(&self) -> Value {
        Value::Number(self.clone())
    }
}

impl Wire for Value {
    fn decode_at(v: Value, _: &Loc<'_>, _: &mut DecodeCx) -> Option<Self> {
        Some(v)
    }
    fn encode(&self) -> Value {
        self.clone()
    }
}

impl<T: Wire> Wire for Box<T> {
    fn decode_at(v: Value, loc: &Loc<'_>, cx: &mut DecodeCx) -> Option<Self> {
        T::decode_at(v, loc, cx).map(Box::new)
    }
    fn encode(&self) -> Value {
        (**self).encode()
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn decode_at(v: Value, loc: &Loc<'_>, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                let mut ok = true;
                for (i, item) in items.into_iter().enumerate() {
                    match T::decode_at(item, &loc.index(i), cx) {
                        Some(t) => out.push(t),
                        None => ok = false,
                    }
                }
                ok.then_some(out)
            }
            _ => {
                mismatch(loc, cx, "an array", &v);
                None
            }
        }
    }
    fn encode(&self) -> Value {
        Value::Array(self.iter().map(Wire::encode).collect())
    }
}

impl<T: Wire> Wire for IndexMap<String, T> {
    fn decode_at(v: Value, loc: &Loc<'_>, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::Object(map) => {
                let mut out = IndexMap::with_capacity(map.len());
                let mut ok = true;
                for (k, item) in map {
                    match T::decode_at(item, &loc.key(&k), cx) {
                        Some(t) => {
                            out.insert(k, t);
                        }
                        None => ok = false,
                    }
                }
                ok.then_some(out)
            }
            _ => {
                mismatch(loc, cx, "an object", &v);
                None
            }
        }
    }
    fn encode(&self) -> Value {
        Value::Object(self.iter().map(|(k, v)| (k.clone(), v.encode())).collect())
    }
}

/// Unknown keys of a struct, kept in source order.
pub type Extra = IndexMap<String, Value>;

/// Helper for the `wire_struct!` macro: decodes one known field, noting an
/// explicit `null`.
pub(crate) fn field<T: Wire>(
    v: Value,
    key: &'static str,
    loc: &Loc<'_>,
    cx: &mut DecodeCx,
    nulls: &mut Vec<&'static str>,
) -> Option<T> {
    if v.is_null() {
        nulls.push(key);
        return None;
    }
    T::decode_at(v, &loc.child(key), cx)
}

/// Declares a wire struct: every field optional, in the Go struct's order,
/// unknown keys kept in `extra`, explicit `null`s remembered.
macro_rules! wire_struct {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                $field:ident : $ty:ty = $key:literal,
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name {
            $(
                $(#[$fmeta])*
                pub $field: Option<$ty>,
            )*
            /// Keys this model does not know, kept verbatim and in order.
            pub extra: $crate::model::wire::codec::Extra,
            /// Known keys that were written as an explicit `null`.
            pub explicit_nulls: Vec<&'static str>,
        }

        impl $name {
            /// The JSON keys this type knows, in canonical order.
            pub const KEYS: &'static [&'static str] = &[$($key),*];
        }

        /// Serializes as [`Wire::encode`](crate::model::wire::codec::Wire::encode)
        /// writes it: the document as read, in canonical key order.
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serde::Serialize::serialize(
                    &$crate::model::wire::codec::Wire::encode(self),
                    serializer,
                )
            }
        }

        impl $crate::model::wire::codec::Wire for $name {
            fn decode_at(
                v: serde_json::Value,
                loc: &$crate::model::wire::codec::Loc<'_>,
                cx: &mut $crate::model::wire::codec::DecodeCx,
            ) -> Option<Self> {
                let serde_json::Value::Object(map) = v else {
                    cx.error(&loc.path(), format!("expected an object, found {}", $crate::model::wire::codec::kind_of(&v)));
                    return None;
                };
                if cx.depth >= $crate::model::wire::codec::MAX_SCHEMA_NESTING {
                    cx.error(&loc.path(), format!(
                        "nesting exceeds the limit of {} levels",
                        $crate::model::wire::codec::MAX_SCHEMA_NESTING
                    ));
                    return None;
                }
                cx.depth += 1;
                let before = cx.errors.len();
                let mut out = $name::default();
                for (k, val) in map {
                    match k.as_str() {
                        $(
                            $key => {
                                out.$field = $crate::model::wire::codec::field(
                                    val, $key, loc, cx, &mut out.explicit_nulls,
                                );
                            }
                        )*
                        _ => {
                            cx.unknown(&loc.child(&k).path());
                            out.extra.insert(k, val);
                        }
                    }
                }
                cx.depth -= 1;
                (cx.errors.len() == before).then_some(out)
            }

            fn encode(&self) -> serde_json::Value {
                let mut map = serde_json::Map::new();
                $(
                    if let Some(v) = &self.$field {
                        map.insert($key.to_string(), $crate::model::wire::codec::Wire::encode(v));
                    } else if self.explicit_nulls.contains(&$key) {
                        map.insert($key.to_string(), serde_json::Value::Null);
                    }
                )*
                for (k, v) in &self.extra {
                    map.insert(k.clone(), v.clone());
                }
                serde_json::Value::Object(map)
            }
        }
    };
}

pub(crate) use wire_struct;
