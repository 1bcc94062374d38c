//! Decoding JSON values into the wire model and encoding them back.
//!
//! Decoding is strict in the way the API server's strict decoder is: a
//! known field of the wrong JSON type is an error; an unknown field is
//! kept (so writing back is lossless) and reported as a warning,
//! `unknown field "spec.foo"`.

use indexmap::IndexMap;
use serde_json::{Map, Number, Value};

use crate::field::Path;

/// The deepest object nesting the decoder accepts (a schema node is one
/// level; a CRD adds a handful above its schema). Real CRDs stay below 25
/// (the deepest in the corpus nests 39 JSON levels, about 20 schema
/// levels); the limit keeps every recursive algorithm on the IR within a
/// 2 MiB thread stack.
pub const MAX_DEPTH: usize = 128;

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

/// A type of the wire model: decodes from a JSON value (recording
/// problems in the context) and encodes back.
pub trait Wire: Sized {
    /// Decodes `v` found at `path`; `None` after recording an error.
    fn decode(v: &Value, path: &Path, cx: &mut DecodeCx) -> Option<Self>;
    /// Encodes back to JSON.
    fn encode(&self) -> Value;
}

fn mismatch(path: &Path, cx: &mut DecodeCx, want: &str, v: &Value) {
    cx.error(path, format!("expected {want}, found {}", kind_of(v)));
}

impl Wire for String {
    fn decode(v: &Value, path: &Path, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::String(s) => Some(s.clone()),
            _ => {
                mismatch(path, cx, "a string", v);
                None
            }
        }
    }
    fn encode(&self) -> Value {
        Value::String(self.clone())
    }
}

impl Wire for bool {
    fn decode(v: &Value, path: &Path, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::Bool(b) => Some(*b),
            _ => {
                mismatch(path, cx, "a boolean", v);
                None
            }
        }
    }
    fn encode(&self) -> Value {
        Value::Bool(*self)
    }
}

impl Wire for i64 {
    fn decode(v: &Value, path: &Path, cx: &mut DecodeCx) -> Option<Self> {
        match v.as_i64() {
            Some(i) if !v.as_number().is_some_and(Number::is_f64) => Some(i),
            _ => {
                mismatch(path, cx, "an integer", v);
                None
            }
        }
    }
    fn encode(&self) -> Value {
        Value::from(*self)
    }
}

impl Wire for Number {
    fn decode(v: &Value, path: &Path, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::Number(n) => Some(n.clone()),
            _ => {
                mismatch(path, cx, "a number", v);
                None
            }
        }
    }
    fn encode(&self) -> Value {
        Value::Number(self.clone())
    }
}

impl Wire for Value {
    fn decode(v: &Value, _: &Path, _: &mut DecodeCx) -> Option<Self> {
        Some(v.clone())
    }
    fn encode(&self) -> Value {
        self.clone()
    }
}

impl<T: Wire> Wire for Box<T> {
    fn decode(v: &Value, path: &Path, cx: &mut DecodeCx) -> Option<Self> {
        T::decode(v, path, cx).map(Box::new)
    }
    fn encode(&self) -> Value {
        (**self).encode()
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn decode(v: &Value, path: &Path, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                let mut ok = true;
                for (i, item) in items.iter().enumerate() {
                    match T::decode(item, &path.index(i), cx) {
                        Some(t) => out.push(t),
                        None => ok = false,
                    }
                }
                ok.then_some(out)
            }
            _ => {
                mismatch(path, cx, "an array", v);
                None
            }
        }
    }
    fn encode(&self) -> Value {
        Value::Array(self.iter().map(Wire::encode).collect())
    }
}

impl<T: Wire> Wire for IndexMap<String, T> {
    fn decode(v: &Value, path: &Path, cx: &mut DecodeCx) -> Option<Self> {
        match v {
            Value::Object(map) => {
                let mut out = IndexMap::with_capacity(map.len());
                let mut ok = true;
                for (k, item) in map {
                    match T::decode(item, &path.key(k.as_str()), cx) {
                        Some(t) => {
                            out.insert(k.clone(), t);
                        }
                        None => ok = false,
                    }
                }
                ok.then_some(out)
            }
            _ => {
                mismatch(path, cx, "an object", v);
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

/// Helper for the `wire_struct!` macro: reads one optional field.
pub(crate) fn field<T: Wire>(
    map: &Map<String, Value>,
    key: &str,
    path: &Path,
    cx: &mut DecodeCx,
    nulls: &mut Vec<&'static str>,
    static_key: &'static str,
) -> Option<T> {
    match map.get(key) {
        None => None,
        Some(Value::Null) => {
            nulls.push(static_key);
            None
        }
        Some(v) => T::decode(v, &path.child(key), cx),
    }
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
            pub extra: $crate::wire::codec::Extra,
            /// Known keys that were written as an explicit `null`.
            pub explicit_nulls: Vec<&'static str>,
        }

        impl $name {
            /// The JSON keys this type knows, in canonical order.
            pub const KEYS: &'static [&'static str] = &[$($key),*];
        }

        impl $crate::wire::codec::Wire for $name {
            fn decode(
                v: &serde_json::Value,
                path: &$crate::field::Path,
                cx: &mut $crate::wire::codec::DecodeCx,
            ) -> Option<Self> {
                let serde_json::Value::Object(map) = v else {
                    cx.error(path, format!("expected an object, found {}", $crate::wire::codec::kind_of(v)));
                    return None;
                };
                if cx.depth >= $crate::wire::codec::MAX_DEPTH {
                    cx.error(path, format!(
                        "nesting exceeds the limit of {} levels",
                        $crate::wire::codec::MAX_DEPTH
                    ));
                    return None;
                }
                cx.depth += 1;
                let mut nulls = Vec::new();
                let before = cx.errors.len();
                let mut out = $name {
                    $(
                        $field: $crate::wire::codec::field(map, $key, path, cx, &mut nulls, $key),
                    )*
                    extra: Default::default(),
                    explicit_nulls: Vec::new(),
                };
                for (k, val) in map {
                    if !Self::KEYS.contains(&k.as_str()) {
                        cx.unknown(&path.child(k.as_str()));
                        out.extra.insert(k.clone(), val.clone());
                    }
                }
                out.explicit_nulls = nulls;
                cx.depth -= 1;
                (cx.errors.len() == before).then_some(out)
            }

            fn encode(&self) -> serde_json::Value {
                let mut map = serde_json::Map::new();
                $(
                    if let Some(v) = &self.$field {
                        map.insert($key.to_string(), $crate::wire::codec::Wire::encode(v));
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
