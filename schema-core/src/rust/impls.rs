//! [`StructuralSchema`] for the standard library and `serde_json` types
//! (the table in the module docs of [`crate::rust`]).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use indexmap::{IndexMap, IndexSet};
use serde_json::{Number, Value};

use super::{MapKey, SchemaCx, StructuralSchema};
use crate::model::wire::{JsonSchemaProps, SchemaOrArray, SchemaOrBool};

fn typed(t: &str) -> JsonSchemaProps {
    JsonSchemaProps {
        type_: Some(t.to_string()),
        ..JsonSchemaProps::default()
    }
}

fn integer(format: &str, min: Option<i64>, max: Option<i64>) -> JsonSchemaProps {
    let mut s = typed("integer");
    // An empty format: no `format`, as controller-gen writes Go's `int`.
    s.format = (!format.is_empty()).then(|| format.to_string());
    s.minimum = min.map(Number::from);
    s.maximum = max.map(Number::from);
    s
}

macro_rules! int_impl {
    ($($t:ty => $format:literal, $min:expr, $max:expr;)*) => {$(
        impl StructuralSchema for $t {
            fn schema(_: &mut SchemaCx) -> JsonSchemaProps {
                integer($format, $min, $max)
            }
        }
    )*};
}

int_impl! {
    i8 => "int32", Some(i8::MIN.into()), Some(i8::MAX.into());
    i16 => "int32", Some(i16::MIN.into()), Some(i16::MAX.into());
    i32 => "int32", None, None;
    i64 => "int64", None, None;
    // Go's `int` and `uint`: `integer` without a format.
    isize => "", None, None;
    u8 => "int32", Some(0), Some(u8::MAX.into());
    u16 => "int32", Some(0), Some(u16::MAX.into());
    u32 => "int64", Some(0), Some(u32::MAX.into());
    u64 => "int64", Some(0), None;
    usize => "", Some(0), None;
}

impl StructuralSchema for f32 {
    fn schema(_: &mut SchemaCx) -> JsonSchemaProps {
        let mut s = typed("number");
        s.format = Some("float".to_string());
        s
    }
}

impl StructuralSchema for f64 {
    fn schema(_: &mut SchemaCx) -> JsonSchemaProps {
        let mut s = typed("number");
        s.format = Some("double".to_string());
        s
    }
}

impl StructuralSchema for bool {
    fn schema(_: &mut SchemaCx) -> JsonSchemaProps {
        typed("boolean")
    }
}

impl StructuralSchema for String {
    fn schema(_: &mut SchemaCx) -> JsonSchemaProps {
        typed("string")
    }
}

impl StructuralSchema for str {
    fn schema(_: &mut SchemaCx) -> JsonSchemaProps {
        typed("string")
    }
}

impl StructuralSchema for char {
    fn schema(_: &mut SchemaCx) -> JsonSchemaProps {
        let mut s = typed("string");
        s.min_length = Some(1);
        s.max_length = Some(1);
        s
    }
}

/// `jiff::Timestamp`, which serde writes in RFC 3339
/// (`2024-01-02T03:04:05Z`): the API server's `date-time` format, as
/// schemars writes it.
impl StructuralSchema for jiff::Timestamp {
    fn schema(_: &mut SchemaCx) -> JsonSchemaProps {
        let mut s = typed("string");
        s.format = Some("date-time".to_string());
        s
    }
}

impl<T: StructuralSchema> StructuralSchema for Option<T> {
    const OPTIONAL: bool = true;
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        cx.subschema::<T>()
    }
}

macro_rules! wrapper_impl {
    ($($w:ident),*) => {$(
        impl<T: StructuralSchema + ?Sized> StructuralSchema for $w<T> {
            const OPTIONAL: bool = T::OPTIONAL;
            fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
                cx.subschema::<T>()
            }
        }
    )*};
}

wrapper_impl!(Box, Rc, Arc);

impl<T: StructuralSchema + ?Sized> StructuralSchema for &T {
    const OPTIONAL: bool = T::OPTIONAL;
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        cx.subschema::<T>()
    }
}

impl<T: StructuralSchema + ToOwned + ?Sized> StructuralSchema for Cow<'_, T> {
    const OPTIONAL: bool = T::OPTIONAL;
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        cx.subschema::<T>()
    }
}

/// An array of `T`.
fn array<T: StructuralSchema + ?Sized>(cx: &mut SchemaCx) -> JsonSchemaProps {
    let items = cx.in_items(|cx| cx.subschema::<T>());
    let mut s = typed("array");
    s.items = Some(SchemaOrArray::Schema(Box::new(items)));
    s
}

/// An array of `T` with set semantics.
fn set<T: StructuralSchema + ?Sized>(cx: &mut SchemaCx) -> JsonSchemaProps {
    let mut s = array::<T>(cx);
    s.x_list_type = Some("set".to_string());
    s
}

/// An object whose values are `V`.
fn map<V: StructuralSchema + ?Sized>(cx: &mut SchemaCx) -> JsonSchemaProps {
    let values = cx.in_values(|cx| cx.subschema::<V>());
    let mut s = typed("object");
    s.additional_properties = Some(SchemaOrBool::Schema(Box::new(values)));
    s
}

impl<T: StructuralSchema> StructuralSchema for Vec<T> {
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        array::<T>(cx)
    }
}

impl<T: StructuralSchema> StructuralSchema for VecDeque<T> {
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        array::<T>(cx)
    }
}

impl<T: StructuralSchema> StructuralSchema for [T] {
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        array::<T>(cx)
    }
}

impl<T: StructuralSchema, const N: usize> StructuralSchema for [T; N] {
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        let mut s = array::<T>(cx);
        let n = i64::try_from(N).unwrap_or(i64::MAX);
        s.min_items = Some(n);
        s.max_items = Some(n);
        s
    }
}

impl<T: StructuralSchema> StructuralSchema for BTreeSet<T> {
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        set::<T>(cx)
    }
}

impl<T: StructuralSchema, S> StructuralSchema for HashSet<T, S> {
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        set::<T>(cx)
    }
}

impl<T: StructuralSchema, S> StructuralSchema for IndexSet<T, S> {
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        set::<T>(cx)
    }
}

impl<K: MapKey, V: StructuralSchema> StructuralSchema for BTreeMap<K, V> {
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        map::<V>(cx)
    }
}

impl<K: MapKey, V: StructuralSchema, S> StructuralSchema for HashMap<K, V, S> {
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        map::<V>(cx)
    }
}

impl<K: MapKey, V: StructuralSchema, S> StructuralSchema for IndexMap<K, V, S> {
    fn schema(cx: &mut SchemaCx) -> JsonSchemaProps {
        map::<V>(cx)
    }
}

impl StructuralSchema for Value {
    fn schema(_: &mut SchemaCx) -> JsonSchemaProps {
        JsonSchemaProps {
            x_preserve_unknown_fields: Some(true),
            ..JsonSchemaProps::default()
        }
    }
}

impl StructuralSchema for serde_json::Map<String, Value> {
    fn schema(_: &mut SchemaCx) -> JsonSchemaProps {
        let mut s = typed("object");
        s.x_preserve_unknown_fields = Some(true);
        s
    }
}

impl MapKey for String {}
impl MapKey for str {}
impl<T: MapKey + ?Sized> MapKey for &T {}
impl<T: MapKey + ?Sized> MapKey for Box<T> {}
impl<T: MapKey + ?Sized> MapKey for Rc<T> {}
impl<T: MapKey + ?Sized> MapKey for Arc<T> {}
impl<T: MapKey + ToOwned + ?Sized> MapKey for Cow<'_, T> {}
