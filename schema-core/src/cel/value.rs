//! CEL runtime values, and the API server's mapping of JSON objects under a
//! structural schema onto them (`UnstructuredToVal` of
//! `k8s.io/apiserver/pkg/cel/common/values.go`).
//!
//! Values taken from an object borrow it: objects, maps and lists convert
//! their members only when a rule reaches them, so a rule pays for what it
//! touches and not for the size of the object.

use std::cmp::Ordering;
use std::rc::Rc;
use std::sync::LazyLock;

use serde_json::{Map as JsonMap, Value};

use super::error::EvalError;
use super::escape;
use crate::go::json::{GoNum, deep_equal};
use crate::go::time::Layout;
use crate::model::structural::{Generic, Structural};

mod ext;
pub(crate) mod ip;
pub(crate) mod quantity;
pub(crate) mod semver;
pub(crate) mod url;

pub use ext::Ext;

/// How deep equality and traversals may go into nested values.
pub(crate) const MAX_VALUE_DEPTH: usize = 1000;

/// A string value: borrowed from the object or owned.
#[derive(Clone, Debug)]
pub enum Str<'a> {
    /// Borrowed from the object.
    B(&'a str),
    /// Built by the rule.
    O(Rc<str>),
}

impl Str<'_> {
    /// The text.
    pub fn as_str(&self) -> &str {
        match self {
            Str::B(s) => s,
            Str::O(s) => s,
        }
    }
}

/// A schema node as values see it: optionally with the type and object
/// meta properties (`kind`, `apiVersion`, `metadata.name`,
/// `metadata.generateName`) of a resource root laid over it
/// (`WithTypeAndObjectMeta`).
#[derive(Clone, Copy, Debug)]
pub struct SchemaRef<'a> {
    /// The node.
    pub s: &'a Structural,
    /// Whether the type and object meta properties are laid over it.
    pub meta: bool,
}

static STRING_SCHEMA: LazyLock<Structural> = LazyLock::new(|| Structural {
    generic: Generic {
        type_: "string".into(),
        ..Default::default()
    },
    ..Default::default()
});

static META_SCHEMA: LazyLock<Structural> = LazyLock::new(|| {
    let mut s = Structural {
        generic: Generic {
            type_: "object".into(),
            ..Default::default()
        },
        ..Default::default()
    };
    s.properties.insert("name".into(), STRING_SCHEMA.clone());
    s.properties
        .insert("generateName".into(), STRING_SCHEMA.clone());
    s
});

impl<'a> SchemaRef<'a> {
    /// A plain node.
    pub fn plain(s: &'a Structural) -> Self {
        SchemaRef { s, meta: false }
    }

    /// A resource root: the node with type and object meta laid over it,
    /// unless it declares them itself.
    pub fn resource(s: &'a Structural) -> Self {
        SchemaRef {
            s,
            meta: !super::decl::has_type_and_object_meta(s),
        }
    }

    /// The schema of property `name`.
    pub fn prop(self, name: &str) -> Option<SchemaRef<'a>> {
        if self.meta {
            match name {
                "kind" | "apiVersion" => return Some(SchemaRef::plain(&STRING_SCHEMA)),
                "metadata" => return Some(SchemaRef::plain(&META_SCHEMA)),
                _ => {}
            }
        }
        self.s.properties.get(name).map(SchemaRef::of)
    }

    /// A child node: embedded resources get their type and object meta.
    pub fn of(s: &'a Structural) -> Self {
        if s.extensions.embedded_resource {
            Self::resource(s)
        } else {
            Self::plain(s)
        }
    }

    /// Whether the node has properties (`Properties() != nil`).
    pub fn has_properties(self) -> bool {
        self.meta || !self.s.properties.is_empty()
    }

    /// The node's `type`.
    pub fn type_(self) -> &'a str {
        &self.s.generic.type_
    }

    /// The schema of `additionalProperties`, when it is a schema.
    pub fn additional(self) -> Option<SchemaRef<'a>> {
        self.s
            .generic
            .additional_properties
            .as_ref()
            .and_then(|a| a.structural.as_deref())
            .map(SchemaRef::of)
    }

    /// The schema of `items`.
    pub fn items(self) -> Option<SchemaRef<'a>> {
        self.s.items.as_deref().map(SchemaRef::of)
    }
}

/// The kind of a list from an object (`x-kubernetes-list-type`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListKind {
    /// Ordered, compared element by element.
    Atomic,
    /// Compared as sets.
    Set,
    /// Compared as maps on the (escaped) key properties.
    Map(Rc<[String]>),
}

/// A list value.
#[derive(Clone, Debug)]
pub enum List<'a> {
    /// A list of an object, converted on access.
    Json {
        /// The elements.
        items: &'a [Value],
        /// The items' schema.
        schema: SchemaRef<'a>,
        /// The list type.
        kind: ListKind,
    },
    /// A list built by the rule; a set or map list stays one after `+`.
    Owned {
        /// The elements.
        items: Rc<Vec<Val<'a>>>,
        /// The list type.
        kind: ListKind,
    },
    /// `left + right` of atomic lists, without copying (cel-go's
    /// `concatList`).
    Concat {
        /// The first part.
        left: Rc<List<'a>>,
        /// The second part.
        right: Rc<List<'a>>,
        /// The total length.
        len: usize,
    },
}

/// How an object's map is seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapKind {
    /// An object with properties: escaped field names, null fields absent.
    Object,
    /// A map under `additionalProperties`.
    Additional,
    /// An object with neither properties nor an additionalProperties
    /// schema (preserved unknown fields, or nothing): an empty object.
    Preserved,
}

/// A map value.
#[derive(Clone, Debug)]
pub enum MapV<'a> {
    /// A map of an object, converted on access.
    Json {
        /// The members.
        obj: &'a JsonMap<String, Value>,
        /// The node.
        schema: SchemaRef<'a>,
        /// How it is seen.
        kind: MapKind,
    },
    /// A map built by the rule, in insertion order.
    Owned(Rc<OwnedMap<'a>>),
}

/// A hashable form of a scalar value, equal where CEL equality holds
/// (numbers across int, uint and double).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HKey {
    /// `null`.
    Null,
    /// A bool.
    Bool(bool),
    /// An integral number.
    Num(i128),
    /// A non-integral double, by its bits.
    Float(u64),
    /// A string.
    Str(String),
    /// Bytes.
    Bytes(Vec<u8>),
    /// A duration.
    Duration(i64),
    /// A timestamp.
    Timestamp(i64, u32),
}

/// The hashable form of a scalar; `None` for other values (and NaN).
pub fn hkey(v: &Val<'_>) -> Option<HKey> {
    Some(match v {
        Val::Null => HKey::Null,
        Val::Bool(b) => HKey::Bool(*b),
        Val::Int(i) => HKey::Num(i128::from(*i)),
        Val::Uint(u) => HKey::Num(i128::from(*u)),
        Val::Double(d) => {
            if d.is_nan() {
                return None;
            }
            if d.fract() == 0.0 && d.abs() < 1.8e19 {
                HKey::Num(*d as i128)
            } else {
                HKey::Float(d.to_bits())
            }
        }
        Val::Str(s) => HKey::Str(s.as_str().to_string()),
        Val::Bytes(b) => HKey::Bytes(b.to_vec()),
        Val::Duration(d) => HKey::Duration(*d),
        Val::Timestamp(s, n, _) => HKey::Timestamp(*s, *n),
        _ => return None,
    })
}

/// A map built by a rule: entries in insertion order, indexed by key.
#[derive(Clone, Debug, Default)]
pub struct OwnedMap<'a> {
    entries: Vec<(Val<'a>, Val<'a>)>,
    index: std::collections::HashMap<HKey, usize>,
}

impl<'a> OwnedMap<'a> {
    /// Adds an entry; `false` (and no change) when the key is present or
    /// not a valid map key.
    pub fn insert(&mut self, k: Val<'a>, v: Val<'a>) -> bool {
        if !key_ok(&k) {
            return false;
        }
        let Some(h) = hkey(&k) else { return false };
        if self.index.contains_key(&h) {
            return false;
        }
        self.index.insert(h, self.entries.len());
        self.entries.push((k, v));
        true
    }

    /// The value at `k`.
    pub fn get(&self, k: &Val<'a>) -> Option<&Val<'a>> {
        let i = *self.index.get(&hkey(k)?)?;
        self.entries.get(i).map(|(_, v)| v)
    }

    /// The entries, in insertion order.
    pub fn entries(&self) -> &[(Val<'a>, Val<'a>)] {
        &self.entries
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

/// A CEL value.
#[derive(Clone, Debug)]
pub enum Val<'a> {
    /// `null`.
    Null,
    /// `bool`.
    Bool(bool),
    /// `int`.
    Int(i64),
    /// `uint`.
    Uint(u64),
    /// `double`.
    Double(f64),
    /// `string`.
    Str(Str<'a>),
    /// `bytes`.
    Bytes(Rc<[u8]>),
    /// `google.protobuf.Duration`, in nanoseconds.
    Duration(i64),
    /// `google.protobuf.Timestamp`: seconds since the epoch, nanoseconds,
    /// and the zone offset (seconds east of UTC) of its Go `time.Time`,
    /// which only its string form shows.
    Timestamp(i64, u32, i32),
    /// `list`.
    List(List<'a>),
    /// `map` (objects included).
    Map(MapV<'a>),
    /// A type value (`int`, `string`, …).
    Type(Rc<str>),
    /// `optional_type`.
    Optional(Option<Rc<Val<'a>>>),
    /// Data under `x-kubernetes-preserve-unknown-fields` without a type: only
    /// equality.
    Preserved(&'a Value),
    /// A Kubernetes library value (quantity, URL, IP, CIDR, format, semver).
    Ext(Rc<Ext>),
}

impl<'a> Val<'a> {
    /// An owned string.
    pub fn string(s: impl Into<Rc<str>>) -> Self {
        Val::Str(Str::O(s.into()))
    }

    /// An owned list.
    pub fn list(items: Vec<Val<'a>>) -> Self {
        Val::List(List::Owned {
            items: Rc::new(items),
            kind: ListKind::Atomic,
        })
    }

    /// A type value.
    pub fn type_val(name: &str) -> Self {
        Val::Type(name.into())
    }

    /// The CEL type name.
    pub fn type_name(&self) -> String {
        match self {
            Val::Null => "null_type".into(),
            Val::Bool(_) => "bool".into(),
            Val::Int(_) => "int".into(),
            Val::Uint(_) => "uint".into(),
            Val::Double(_) => "double".into(),
            Val::Str(_) => "string".into(),
            Val::Bytes(_) => "bytes".into(),
            Val::Duration(_) => "google.protobuf.Duration".into(),
            Val::Timestamp(..) => "google.protobuf.Timestamp".into(),
            Val::List(_) => "list".into(),
            Val::Map(_) => "map".into(),
            Val::Type(_) => "type".into(),
            Val::Optional(_) => "optional_type".into(),
            Val::Preserved(_) => "unknown".into(),
            Val::Ext(e) => e.type_name().into(),
        }
    }

    /// `traits.Sizer` size, or 1 (the cost tracker's `actualSize`).
    pub fn actual_size(&self) -> u64 {
        match self {
            Val::Str(s) => s.as_str().chars().count() as u64,
            Val::Bytes(b) => b.len() as u64,
            Val::List(l) => l.len() as u64,
            Val::Map(m) => m.len() as u64,
            _ => 1,
        }
    }
}

/// `UnstructuredToVal`: the value of JSON `v` under schema `s`.
///
/// # Errors
///
/// The server's `invalid data, …` errors when the value does not fit the
/// schema, and format parse errors of duration, date, date-time and byte
/// strings.
pub fn from_json<'a>(v: &'a Value, s: SchemaRef<'a>) -> Result<Val<'a>, EvalError> {
    if v.is_null() {
        return if s.s.generic.nullable {
            Ok(Val::Null)
        } else {
            Err(EvalError::new(
                "invalid data, got null for schema with nullable=false",
            ))
        };
    }
    if s.s.extensions.int_or_string {
        return match v {
            Value::String(x) => Ok(Val::Str(Str::B(x))),
            Value::Number(n) if n.is_i64() => Ok(Val::Int(n.as_i64().unwrap_or_default())),
            _ => Err(EvalError::new(
                "invalid data, expected XIntOrString value to be either a string or integer",
            )),
        };
    }
    match s.type_() {
        "object" => {
            let Value::Object(m) = v else {
                return Err(EvalError::new(
                    "invalid data, expected a map for the provided schema with type=object",
                ));
            };
            let kind = if s.has_properties() {
                MapKind::Object
            } else if s.additional().is_some() {
                MapKind::Additional
            } else {
                // Neither properties nor an additionalProperties schema
                // (preserved unknown fields, `additionalProperties: true`
                // or nothing): an empty object, as upstream reads it.
                MapKind::Preserved
            };
            Ok(Val::Map(MapV::Json {
                obj: m,
                schema: s,
                kind,
            }))
        }
        "array" => {
            let Value::Array(a) = v else {
                return Err(EvalError::new(
                    "invalid data, expected an array for the provided schema with type=array",
                ));
            };
            let Some(items) = s.items() else {
                return Err(EvalError::new(
                    "invalid array type, expected Items with a non-empty Schema",
                ));
            };
            let kind = match s.s.extensions.list_type.as_deref() {
                None | Some("" | "atomic") => ListKind::Atomic,
                Some("set") => ListKind::Set,
                Some("map") => ListKind::Map(
                    s.s.extensions
                        .list_map_keys
                        .iter()
                        .map(|k| escape::escape(k).unwrap_or_else(|| k.clone()))
                        .collect(),
                ),
                Some(other) => {
                    return Err(EvalError::new(format!(
                        "invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got {other}"
                    )));
                }
            };
            Ok(Val::List(List::Json {
                items: a,
                schema: items,
                kind,
            }))
        }
        "string" => {
            let Value::String(x) = v else {
                return Err(EvalError::new(format!(
                    "invalid data, expected string, got {}",
                    crate::go::json::go_type(v)
                )));
            };
            let format =
                s.s.value_validation
                    .as_ref()
                    .map_or("", |vv| vv.format.as_str());
            match format {
                "duration" => crate::go::formats::parse_duration(x)
                    .map(Val::Duration)
                    .ok_or_else(|| {
                        EvalError::new(format!(
                            "Invalid duration {x}: unable to parse {x} as duration"
                        ))
                    }),
                "date" => crate::go::time::parse(&Layout::FULL_DATE, x)
                    .map(|t| Val::Timestamp(t.seconds, t.nanos, t.offset))
                    .map_err(|e| EvalError::new(format!("Invalid date formatted string {x}: {e}"))),
                "date-time" => crate::go::time::parse_strfmt_date_time(x)
                    .map(|t| Val::Timestamp(t.seconds, t.nanos, t.offset))
                    .map_err(|e| {
                        EvalError::new(format!("Invalid date-time formatted string {x}: {e}"))
                    }),
                "byte" => crate::go::base64::url_decode_at(x)
                    .map(|b| Val::Bytes(b.into()))
                    .map_err(|at| {
                        EvalError::new(format!(
                            "Invalid byte formatted string {x}: illegal base64 data at input byte {at}"
                        ))
                    }),
                _ => Ok(Val::Str(Str::B(x))),
            }
        }
        "number" => match v {
            Value::Number(n) => Ok(Val::Double(n.as_f64().unwrap_or_default())),
            _ => Err(EvalError::new(format!(
                "invalid data, expected float, got {}",
                crate::go::json::go_type(v)
            ))),
        },
        "integer" => match v {
            Value::Number(n) if n.is_i64() => Ok(Val::Int(n.as_i64().unwrap_or_default())),
            _ => Err(EvalError::new(format!(
                "invalid data, expected int, got {}",
                crate::go::json::go_type(v)
            ))),
        },
        "boolean" => match v {
            Value::Bool(b) => Ok(Val::Bool(*b)),
            _ => Err(EvalError::new(format!(
                "invalid data, expected bool, got {}",
                crate::go::json::go_type(v)
            ))),
        },
        t => {
            if s.s.extensions.preserve_unknown_fields {
                Ok(Val::Preserved(v))
            } else {
                Err(EvalError::new(format!(
                    "invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got {t}"
                )))
            }
        }
    }
}

impl<'a> List<'a> {
    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            List::Json { items, .. } => items.len(),
            List::Owned { items, .. } => items.len(),
            List::Concat { len, .. } => *len,
        }
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The list type.
    pub fn kind(&self) -> &ListKind {
        match self {
            List::Json { kind, .. } | List::Owned { kind, .. } => kind,
            List::Concat { .. } => &ListKind::Atomic,
        }
    }

    /// Element `i` (`None` when out of bounds).
    pub fn get(&self, mut i: usize) -> Option<Result<Val<'a>, EvalError>> {
        let mut l = self;
        loop {
            match l {
                List::Json { items, schema, .. } => {
                    return items.get(i).map(|v| from_json(v, *schema));
                }
                List::Owned { items, .. } => return items.get(i).cloned().map(Ok),
                List::Concat { left, right, .. } => {
                    if i < left.len() {
                        l = left;
                    } else {
                        i -= left.len();
                        l = right;
                    }
                }
            }
        }
    }

    /// All elements, converted.
    pub fn to_vec(&self) -> Result<Vec<Val<'a>>, EvalError> {
        (0..self.len())
            .filter_map(|i| self.get(i))
            .collect::<Result<Vec<_>, _>>()
    }
}

/// A map key: only bool, int, uint and string keys exist.
pub(crate) fn key_ok(k: &Val<'_>) -> bool {
    matches!(k, Val::Bool(_) | Val::Int(_) | Val::Uint(_) | Val::Str(_))
}

impl<'a> MapV<'a> {
    /// The number of entries.
    pub fn len(&self) -> usize {
        match self {
            MapV::Json { obj, .. } => obj.len(),
            MapV::Owned(m) => m.len(),
        }
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `Find`: the value at `key`; `Ok(None)` when absent.
    ///
    /// # Errors
    ///
    /// A conversion error of the member, or `no such overload` for a
    /// non-string key of an object map.
    pub fn find(&self, key: &Val<'a>) -> Result<Option<Val<'a>>, EvalError> {
        match self {
            MapV::Json { obj, schema, kind } => {
                let Val::Str(k) = key else {
                    return Err(EvalError::no_overload());
                };
                match kind {
                    MapKind::Object => {
                        let name = escape::unescape(k.as_str());
                        match obj.get(&name) {
                            None | Some(Value::Null) => Ok(None),
                            Some(v) => match schema.prop(&name) {
                                Some(ps) => from_json(v, ps).map(Some),
                                None => Ok(None),
                            },
                        }
                    }
                    MapKind::Additional => match (obj.get(k.as_str()), schema.additional()) {
                        (Some(v), Some(ps)) => from_json(v, ps).map(Some),
                        _ => Ok(None),
                    },
                    MapKind::Preserved => Ok(None),
                }
            }
            MapV::Owned(m) => Ok(m.get(key).cloned()),
        }
    }

    /// The keys, as the map iterates them (escaped names for objects; only
    /// members with a schema).
    pub fn keys(&self) -> Vec<Val<'a>> {
        match self {
            MapV::Json { obj, schema, kind } => obj
                .keys()
                .filter_map(|k| match kind {
                    MapKind::Object => schema
                        .prop(k)
                        .map(|_| Val::string(escape::escape(k).unwrap_or_else(|| k.clone()))),
                    MapKind::Additional => Some(Val::Str(Str::B(k))),
                    MapKind::Preserved => None,
                })
                .collect(),
            MapV::Owned(m) => m.entries().iter().map(|(k, _)| k.clone()).collect(),
        }
    }
}

/// Compares a number pair across int, uint and double.
pub(crate) fn num_cmp(a: &Val<'_>, b: &Val<'_>) -> Option<Ordering> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Some(x.cmp(y)),
        (Val::Uint(x), Val::Uint(y)) => Some(x.cmp(y)),
        (Val::Double(x), Val::Double(y)) => x.partial_cmp(y),
        (Val::Int(x), Val::Uint(y)) => Some(if *x < 0 {
            Ordering::Less
        } else {
            (*x as u64).cmp(y)
        }),
        (Val::Uint(_), Val::Int(_)) => num_cmp(b, a).map(Ordering::reverse),
        (Val::Int(x), Val::Double(y)) => cmp_i_f(*x, *y),
        (Val::Double(_), Val::Int(_)) => num_cmp(b, a).map(Ordering::reverse),
        (Val::Uint(x), Val::Double(y)) => cmp_u_f(*x, *y),
        (Val::Double(_), Val::Uint(_)) => num_cmp(b, a).map(Ordering::reverse),
        _ => None,
    }
}

fn cmp_i_f(i: i64, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f < -9_223_372_036_854_775_808.0 {
        return Some(Ordering::Greater);
    }
    if f >= 9_223_372_036_854_775_808.0 {
        return Some(Ordering::Less);
    }
    let t = f.trunc();
    match i.cmp(&(t as i64)) {
        Ordering::Equal => 0.0f64.partial_cmp(&(f - t)).map(|o| {
            if o == Ordering::Equal {
                Ordering::Equal
            } else {
                o
            }
        }),
        o => Some(o),
    }
}

fn cmp_u_f(u: u64, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f < 0.0 {
        return Some(Ordering::Greater);
    }
    if f >= 18_446_744_073_709_551_616.0 {
        return Some(Ordering::Less);
    }
    let t = f.trunc();
    match u.cmp(&(t as u64)) {
        Ordering::Equal => 0.0f64.partial_cmp(&(f - t)),
        o => Some(o),
    }
}

/// CEL heterogeneous equality (`_==_`), with the set and map semantics of
/// lists from objects.
///
/// # Errors
///
/// Conversion errors of members reached, or nesting beyond 1,000 levels
/// (`MAX_VALUE_DEPTH`).
pub fn equals<'a>(a: &Val<'a>, b: &Val<'a>, depth: usize) -> Result<bool, EvalError> {
    if depth > MAX_VALUE_DEPTH {
        return Err(EvalError::new("max recursion depth exceeded"));
    }
    Ok(match (a, b) {
        (Val::Null, Val::Null) => true,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (
            Val::Int(_) | Val::Uint(_) | Val::Double(_),
            Val::Int(_) | Val::Uint(_) | Val::Double(_),
        ) => num_cmp(a, b) == Some(Ordering::Equal),
        (Val::Str(x), Val::Str(y)) => x.as_str() == y.as_str(),
        (Val::Bytes(x), Val::Bytes(y)) => x == y,
        (Val::Duration(x), Val::Duration(y)) => x == y,
        (Val::Timestamp(s1, n1, _), Val::Timestamp(s2, n2, _)) => s1 == s2 && n1 == n2,
        (Val::Type(x), Val::Type(y)) => x == y,
        (Val::Optional(x), Val::Optional(y)) => match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => equals(x, y, depth + 1)?,
            _ => false,
        },
        (Val::List(x), Val::List(y)) => list_equals(x, y, depth)?,
        (Val::Map(x), Val::Map(y)) => map_equals(x, y, depth)?,
        (Val::Preserved(x), other) | (other, Val::Preserved(x)) => {
            match to_plain_json(other, depth)? {
                Some(o) => deep_equal(x, &o),
                None => false,
            }
        }
        (Val::Ext(x), Val::Ext(y)) => x.equals(y),
        _ => false,
    })
}

/// `a.Equal(b)` where `b` may be an error value: a scalar receiver is
/// simply not equal to an error (cel-go's scalar `Equal` checks the other
/// value's type); a list or map receiver returns the error.
fn equals_other<'a>(
    a: &Val<'a>,
    b: Result<Val<'a>, EvalError>,
    depth: usize,
) -> Result<bool, EvalError> {
    match b {
        Ok(b) => equals(a, &b, depth),
        Err(e) => match a {
            Val::List(_) | Val::Map(_) | Val::Preserved(_) => Err(e),
            _ => Ok(false),
        },
    }
}

fn list_equals<'a>(x: &List<'a>, y: &List<'a>, depth: usize) -> Result<bool, EvalError> {
    if x.len() != y.len() {
        return Ok(false);
    }
    // The receiver's list type decides (the left operand's Equal).
    match x.kind() {
        ListKind::Atomic => {
            for i in 0..x.len() {
                let (Some(a), Some(b)) = (x.get(i), y.get(i)) else {
                    return Ok(false);
                };
                if !equals_other(&a?, b, depth + 1)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        ListKind::Set => {
            // upstream's unstructuredSetList.Equal: the receiver's elements
            // as a set (an element that does not convert is a key of its
            // own, equal to nothing), every element of the other list in
            // it, and every key of the set seen.
            let mut xs: Vec<Val<'a>> = Vec::with_capacity(x.len());
            let mut unconverted = false;
            for i in 0..x.len() {
                match x.get(i) {
                    Some(Ok(v)) => xs.push(v),
                    Some(Err(_)) => unconverted = true,
                    None => return Ok(false),
                }
            }
            // The distinct keys of the receiver.
            let mut distinct: Vec<Val<'a>> = Vec::new();
            let mut hashed_set: std::collections::HashSet<HKey> = std::collections::HashSet::new();
            for a in xs {
                match hkey(&a) {
                    Some(h) => {
                        if hashed_set.insert(h) {
                            distinct.push(a);
                        }
                    }
                    None => {
                        let mut dup = false;
                        for d in &distinct {
                            if equals(d, &a, depth + 1)? {
                                dup = true;
                                break;
                            }
                        }
                        if !dup {
                            distinct.push(a);
                        }
                    }
                }
            }
            let index: std::collections::HashMap<HKey, usize> = distinct
                .iter()
                .enumerate()
                .filter_map(|(i, a)| hkey(a).map(|h| (h, i)))
                .collect();
            let mut seen = vec![false; distinct.len()];
            for j in 0..y.len() {
                let Some(Ok(b)) = y.get(j) else {
                    return Ok(false);
                };
                let mut found = hkey(&b).and_then(|h| index.get(&h).copied());
                if found.is_none() {
                    for (i, a) in distinct.iter().enumerate() {
                        if hkey(a).is_none() && equals(a, &b, depth + 1)? {
                            found = Some(i);
                            break;
                        }
                    }
                }
                let Some(i) = found else { return Ok(false) };
                if let Some(s) = seen.get_mut(i) {
                    *s = true;
                }
            }
            Ok(!unconverted && seen.iter().all(|s| *s))
        }
        ListKind::Map(keys) => {
            if let List::Json { items, schema, .. } = x {
                return json_map_list_equals(items, *schema, keys, y, depth);
            }
            let xs = x.to_vec()?;
            let xkeys = xs
                .iter()
                .map(|e| map_list_key(e, keys))
                .collect::<Result<Vec<_>, _>>()?;
            let hashed: Option<std::collections::HashMap<Vec<Option<HKey>>, usize>> = xkeys
                .iter()
                .enumerate()
                .map(|(i, k)| hashed_key(k).map(|h| (h, i)))
                .collect();
            if let Some(index) = hashed {
                for j in 0..y.len() {
                    let Some(b) = y.get(j) else { return Ok(false) };
                    let b = b?;
                    let Some(bk) = hashed_key(&map_list_key(&b, keys)?) else {
                        return Ok(false);
                    };
                    let Some(a) = index.get(&bk).and_then(|&i| xs.get(i)) else {
                        return Ok(false);
                    };
                    if !equals(a, &b, depth + 1)? {
                        return Ok(false);
                    }
                }
                return Ok(true);
            }
            for j in 0..y.len() {
                let Some(b) = y.get(j) else { return Ok(false) };
                let b = b?;
                let bk = map_list_key(&b, keys)?;
                let mut matched = None;
                for (i, k) in xkeys.iter().enumerate().rev() {
                    if keys_equal(k, &bk, depth)? {
                        matched = Some(i);
                        break;
                    }
                }
                let Some(i) = matched else { return Ok(false) };
                let Some(a) = xs.get(i) else { return Ok(false) };
                if !equals(a, &b, depth + 1)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
    }
}

/// `unstructuredMapList.Equal`: the receiver's raw elements by their raw
/// key (`toMapKey`: the values of the escaped key property names, a later
/// element replacing an earlier one with the same key, an element that is
/// not an object a key equal to nothing); each element of the other list
/// found by its raw key and equal to the receiver's element; every key
/// seen.
fn json_map_list_equals<'a>(
    items: &'a [Value],
    schema: SchemaRef<'a>,
    keys: &[String],
    y: &List<'a>,
    depth: usize,
) -> Result<bool, EvalError> {
    // Keyed elements by key (the last one with each key); elements that
    // are not objects have no key and are never found.
    let mut table: std::collections::HashMap<Vec<String>, &'a Value> =
        std::collections::HashMap::with_capacity(items.len());
    for e in items {
        if let Some(k) = raw_map_key(e.as_object(), keys) {
            table.insert(k, e);
        }
    }
    let unkeyed = items.iter().filter(|e| !e.is_object()).count();
    let mut seen: std::collections::HashSet<Vec<String>> = std::collections::HashSet::new();
    for j in 0..y.len() {
        let Some(v) = y.get(j) else { return Ok(false) };
        let raw = match &v {
            Ok(Val::Map(MapV::Json { obj, .. })) => Some(*obj),
            _ => None,
        };
        let Some(k) = raw_map_key(raw, keys) else {
            return Ok(false);
        };
        let Some(element) = table.get(&k) else {
            return Ok(false);
        };
        if !equals(&from_json(element, schema)?, &v?, depth + 1)? {
            return Ok(false);
        }
        seen.insert(k);
    }
    Ok(seen.len() == table.len() + unkeyed)
}

/// A raw map-list key: `None` for an element that is not an object (Go's
/// fresh error value, equal to nothing); else the key properties' values,
/// compared as Go compares the interface values of its key (up to three
/// properties) or their `%#v` text (more).
type RawMapKey = Option<Vec<String>>;

fn raw_map_key(obj: Option<&JsonMap<String, Value>>, keys: &[String]) -> RawMapKey {
    let obj = obj?;
    let typed = keys.len() <= 3;
    Some(
        keys.iter()
            .map(|k| match obj.get(k) {
                None | Some(Value::Null) => "nil".to_string(),
                Some(Value::Number(n)) => match GoNum::of(n) {
                    GoNum::Int(i) if typed => format!("int64 {i}"),
                    // Go's `==`: -0 equals 0.
                    GoNum::Float(f) if typed => format!("float64 {}", (f + 0.0).to_bits()),
                    GoNum::Int(i) => i.to_string(),
                    GoNum::Float(f) => crate::go::fmt::format_float(f),
                },
                Some(other) => crate::go::json::go_json(other, false),
            })
            .collect(),
    )
}

fn keys_equal<'a>(
    a: &[Option<Val<'a>>],
    b: &[Option<Val<'a>>],
    depth: usize,
) -> Result<bool, EvalError> {
    for (x, y) in a.iter().zip(b) {
        let same = match (x, y) {
            (None, None) => true,
            (Some(x), Some(y)) => equals(x, y, depth + 1)?,
            _ => false,
        };
        if !same {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The hashable form of a map-list key.
pub(crate) fn hashed_key(k: &[Option<Val<'_>>]) -> Option<Vec<Option<HKey>>> {
    k.iter()
        .map(|v| match v {
            None => Some(None),
            Some(v) => hkey(v).map(Some),
        })
        .collect()
}

/// The key of a map-list element: its key properties.
pub(crate) fn map_list_key<'a>(
    e: &Val<'a>,
    keys: &[String],
) -> Result<Vec<Option<Val<'a>>>, EvalError> {
    let Val::Map(m) = e else {
        return Err(EvalError::new(format!(
            "unexpected data format for element of array with x-kubernetes-list-type=map: {}",
            e.type_name()
        )));
    };
    keys.iter()
        .map(|k| m.find(&Val::string(k.as_str())))
        .collect()
}

fn map_equals<'a>(x: &MapV<'a>, y: &MapV<'a>, depth: usize) -> Result<bool, EvalError> {
    if x.len() != y.len() {
        return Ok(false);
    }
    if let (
        MapV::Json {
            obj: xo,
            schema: xs,
            kind: MapKind::Object | MapKind::Preserved,
        },
        MapV::Json { obj: yo, .. },
    ) = (x, y)
    {
        // Members without a schema compare as unstructured data.
        for (k, v) in xo.iter() {
            match xs.prop(k) {
                Some(_) => {
                    // Both sides through `Find`: a null member of an
                    // object with properties reads as absent.
                    let key = Val::string(escape::escape(k).unwrap_or_else(|| k.clone()));
                    if !same_entry(x, y, &key, depth)? {
                        return Ok(false);
                    }
                }
                None => {
                    if let Some(ov) = yo.get(k)
                        && !deep_equal(v, ov)
                    {
                        return Ok(false);
                    }
                }
            }
        }
        return Ok(true);
    }
    for k in x.keys() {
        if !same_entry(x, y, &k, depth)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether maps `x` and `y` agree at `key`: found on one side only is
/// unequal before any value is read; absent from both is equal.
fn same_entry<'a>(
    x: &MapV<'a>,
    y: &MapV<'a>,
    key: &Val<'a>,
    depth: usize,
) -> Result<bool, EvalError> {
    let (a, b) = (x.find(key), y.find(key));
    if matches!(a, Ok(None)) != matches!(b, Ok(None)) {
        return Ok(false);
    }
    let Some(a) = a? else {
        return Ok(true);
    };
    let b = match b {
        Ok(Some(b)) => Ok(b),
        Ok(None) => return Ok(true),
        Err(e) => Err(e),
    };
    equals_other(&a, b, depth + 1)
}

/// The Go value a CEL value stands for (`Value()`), as JSON, for comparing
/// with preserved unknown data. `None` for values without a JSON form.
fn to_plain_json(v: &Val<'_>, depth: usize) -> Result<Option<Value>, EvalError> {
    if depth > MAX_VALUE_DEPTH {
        return Err(EvalError::new("max recursion depth exceeded"));
    }
    Ok(match v {
        Val::Null => Some(Value::Null),
        Val::Bool(b) => Some(Value::Bool(*b)),
        Val::Int(i) => Some(Value::from(*i)),
        Val::Uint(u) => Some(Value::from(*u)),
        Val::Double(d) => serde_json::Number::from_f64(*d).map(Value::Number),
        Val::Str(s) => Some(Value::String(s.as_str().to_string())),
        Val::Preserved(p) => Some((*p).clone()),
        Val::List(List::Json { items, .. }) => Some(Value::Array(items.to_vec())),
        Val::Map(MapV::Json { obj, .. }) => Some(Value::Object((*obj).clone())),
        Val::List(l @ (List::Owned { .. } | List::Concat { .. })) => {
            let items = l.to_vec()?;
            let mut out = Vec::with_capacity(items.len());
            for i in items.iter() {
                match to_plain_json(i, depth + 1)? {
                    Some(j) => out.push(j),
                    None => return Ok(None),
                }
            }
            Some(Value::Array(out))
        }
        _ => None,
    })
}

/// Orders two values for `<`, `<=`, `>`, `>=`: numbers across types,
/// strings, bytes, bools, durations, timestamps. `None`: no such overload.
pub fn compare(a: &Val<'_>, b: &Val<'_>) -> Option<Ordering> {
    match (a, b) {
        (Val::Str(x), Val::Str(y)) => Some(x.as_str().cmp(y.as_str())),
        (Val::Bytes(x), Val::Bytes(y)) => Some(x.cmp(y)),
        (Val::Bool(x), Val::Bool(y)) => Some(x.cmp(y)),
        (Val::Duration(x), Val::Duration(y)) => Some(x.cmp(y)),
        (Val::Timestamp(s1, n1, _), Val::Timestamp(s2, n2, _)) => Some((s1, n1).cmp(&(s2, n2))),
        (Val::Int(_) | Val::Uint(_) | Val::Double(_), _) => num_cmp(a, b),
        _ => None,
    }
}

/// Whether a value is the zero value of its type (`optional.ofNonZeroValue`).
pub fn is_zero(v: &Val<'_>) -> bool {
    match v {
        Val::Null => true,
        Val::Bool(b) => !b,
        Val::Int(i) => *i == 0,
        Val::Uint(u) => *u == 0,
        Val::Double(d) => *d == 0.0,
        Val::Str(s) => s.as_str().is_empty(),
        Val::Bytes(b) => b.is_empty(),
        Val::Duration(d) => *d == 0,
        // Go's zero `time.Time`: 0001-01-01T00:00:00Z.
        Val::Timestamp(s, n, _) => *s == -62_135_596_800 && *n == 0,
        Val::List(l) => l.is_empty(),
        Val::Map(m) => m.is_empty(),
        Val::Optional(o) => o.is_none(),
        _ => false,
    }
}

/// The result of an evaluation step.
pub type EvalResult<'a> = Result<Val<'a>, EvalError>;

/// A string value from an owned `String`.
pub(crate) fn owned_str<'a>(s: String) -> Val<'a> {
    Val::Str(Str::O(s.into()))
}

/// Concatenates lists; set and map lists from objects merge (`+` of
/// `unstructuredSetList` and `unstructuredMapList`).
pub(crate) fn add_lists<'a>(a: &List<'a>, b: &List<'a>) -> EvalResult<'a> {
    let kind = a.kind().clone();
    if kind == ListKind::Atomic {
        if b.is_empty() {
            return Ok(Val::List(a.clone()));
        }
        if a.is_empty() {
            return Ok(Val::List(b.clone()));
        }
        return Ok(Val::List(List::Concat {
            left: Rc::new(a.clone()),
            right: Rc::new(b.clone()),
            len: a.len() + b.len(),
        }));
    }
    let mut items = a.to_vec()?;
    match &kind {
        ListKind::Atomic => {}
        ListKind::Set => {
            let mut seen: std::collections::HashSet<HKey> = std::collections::HashSet::new();
            let mut unhashed: Vec<Val<'a>> = Vec::new();
            for x in &items {
                match hkey(x) {
                    Some(h) => {
                        seen.insert(h);
                    }
                    None => unhashed.push(x.clone()),
                }
            }
            for v in b.to_vec()? {
                let new = match hkey(&v) {
                    Some(h) => seen.insert(h),
                    None => {
                        let mut found = false;
                        for x in &unhashed {
                            if equals(x, &v, 0)? {
                                found = true;
                                break;
                            }
                        }
                        if !found {
                            unhashed.push(v.clone());
                        }
                        !found
                    }
                };
                if new {
                    items.push(v);
                }
            }
        }
        ListKind::Map(keys) => {
            let mut index: std::collections::HashMap<Vec<Option<HKey>>, usize> =
                std::collections::HashMap::new();
            for (i, e) in items.iter().enumerate() {
                let k = super::value::map_list_key(e, keys)?;
                let h = super::value::hashed_key(&k)
                    .ok_or_else(|| EvalError::new("unhashable map list key"))?;
                index.insert(h, i);
            }
            for v in b.to_vec()? {
                let k = super::value::map_list_key(&v, keys)?;
                let h = super::value::hashed_key(&k)
                    .ok_or_else(|| EvalError::new("unhashable map list key"))?;
                match index.get(&h).copied() {
                    Some(i) => {
                        if let Some(slot) = items.get_mut(i) {
                            *slot = v;
                        }
                    }
                    None => {
                        index.insert(h, items.len());
                        items.push(v);
                    }
                }
            }
        }
    }
    Ok(Val::List(List::Owned {
        items: Rc::new(items),
        kind,
    }))
}

/// `%v` of a value, as cel-go error messages print it.
pub(crate) fn display(v: &Val<'_>) -> String {
    match v {
        Val::Null => "null".into(),
        Val::Bool(b) => b.to_string(),
        Val::Int(i) => i.to_string(),
        Val::Uint(u) => u.to_string(),
        Val::Double(d) => crate::go::fmt::format_float(*d),
        Val::Str(s) => s.as_str().to_string(),
        Val::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        Val::Duration(d) => format_duration(*d),
        Val::Timestamp(s, n, off) => crate::go::time::format_rfc3339_nano_in(*s, *n, *off),
        Val::Type(t) => t.to_string(),
        other => other.type_name(),
    }
}

/// cel-go's string of a duration: seconds with up to nine decimals, `s`.
pub(crate) fn format_duration(d: i64) -> String {
    let neg = d < 0;
    let a = i128::from(d).abs();
    let secs = a / 1_000_000_000;
    let frac = a % 1_000_000_000;
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push_str(&secs.to_string());
    crate::go::time::push_fraction(&mut out, frac as u32);
    out.push('s');
    out
}
