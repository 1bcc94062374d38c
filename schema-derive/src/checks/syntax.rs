//! Checks the derive can make from the syntax alone: which kind of schema a
//! Rust type has (when it is a type we know by name), whether each attribute
//! applies to it, attribute values (RE2 patterns, enumerated values,
//! literal kinds), and shapes that have no structural schema (tuples,
//! non-string map keys, a type that contains itself). Whatever the syntax
//! does not tell (a user type behind an alias, say) is checked again when
//! the schema is built, by `schema_core::rust::__private::apply`.

use syn::spanned::Spanned;
use syn::{GenericArgument, PathArguments, Type};

use crate::ctxt::Ctxt;
use crate::parse::attrs::{Attrs, Num};
use crate::parse::json::{Json, JsonKind};
use crate::parse::values::Val;
use crate::symbol::*;
use schema_attrs::Applies;

/// The kind of schema a type has, as far as the syntax tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Integer,
    Number,
    String,
    Bool,
    Array,
    Map,
    /// `serde_json::Map`: an object that keeps every key.
    FreeObject,
    /// `type = "object"`.
    Object,
    /// `serde_json::Value` or an untyped schema: any JSON.
    Any,
    IntOrString,
    /// A type we do not know by name (a user type).
    Unknown,
}

impl Class {
    /// The class in a message ("this schema is an integer").
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Class::Integer => "an integer",
            Class::Number => "a number",
            Class::String => "a string",
            Class::Bool => "a boolean",
            Class::Array => "an array",
            Class::Map => "a map",
            Class::FreeObject => "a free-form object",
            Class::Object => "an object",
            Class::Any => "any JSON value (no type)",
            Class::IntOrString => "an int-or-string",
            Class::Unknown => "a user type",
        }
    }

    /// The class of `type = "..."`.
    pub(crate) fn from_type_attr(t: &str) -> Class {
        match t {
            "integer" => Class::Integer,
            "number" => Class::Number,
            "string" => Class::String,
            "boolean" => Class::Bool,
            "array" => Class::Array,
            "object" => Class::Object,
            _ => Class::Unknown,
        }
    }
}

/// Strips references, groups, parens and the wrappers whose schema is their
/// content's (`Option`, `Box`, `Rc`, `Arc`, `Cow`).
pub fn peel(mut ty: &Type) -> &Type {
    loop {
        ty = match ty {
            Type::Reference(r) => &r.elem,
            Type::Group(g) => &g.elem,
            Type::Paren(p) => &p.elem,
            Type::Path(p) if p.qself.is_none() => match p.path.segments.last() {
                Some(seg)
                    if matches!(
                        seg.ident.to_string().as_str(),
                        "Option" | "Box" | "Rc" | "Arc" | "Cow"
                    ) =>
                {
                    match generic_types(&seg.arguments).last() {
                        Some(inner) => inner,
                        None => return ty,
                    }
                }
                _ => return ty,
            },
            _ => return ty,
        };
    }
}

/// Whether the type is syntactically an `Option<...>` (used when the
/// schema does not come from the type, so `StructuralSchema::OPTIONAL`
/// cannot be asked).
pub fn is_option(ty: &Type) -> bool {
    let mut ty = ty;
    loop {
        ty = match ty {
            Type::Group(g) => &g.elem,
            Type::Paren(p) => &p.elem,
            Type::Path(p) => {
                return p.path.segments.last().is_some_and(|s| s.ident == "Option");
            }
            _ => return false,
        }
    }
}

fn generic_types(args: &PathArguments) -> Vec<&Type> {
    match args {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The class of a type and, for arrays and maps, the type of the items or
/// values.
pub fn classify(ty: &Type) -> (Class, Option<&Type>) {
    let ty = peel(ty);
    match ty {
        Type::Slice(s) => (Class::Array, Some(&s.elem)),
        Type::Array(a) => (Class::Array, Some(&a.elem)),
        Type::Path(p) if p.qself.is_none() => {
            let Some(seg) = p.path.segments.last() else {
                return (Class::Unknown, None);
            };
            let args = generic_types(&seg.arguments);
            match seg.ident.to_string().as_str() {
                "i8" | "i16" | "i32" | "i64" | "isize" | "u8" | "u16" | "u32" | "u64" | "usize" => {
                    (Class::Integer, None)
                }
                "f32" | "f64" => (Class::Number, None),
                "bool" => (Class::Bool, None),
                "String" | "str" | "char" => (Class::String, None),
                "Vec" | "VecDeque" | "BTreeSet" | "HashSet" | "IndexSet" => {
                    (Class::Array, args.first().copied())
                }
                "BTreeMap" | "HashMap" | "IndexMap" => (Class::Map, args.get(1).copied()),
                "Value" => (Class::Any, None),
                "Map" if args.len() == 2 => (Class::FreeObject, None),
                _ => (Class::Unknown, None),
            }
        }
        _ => (Class::Unknown, None),
    }
}

/// Shapes without a structural schema anywhere inside a field's type:
/// tuples, `()`, 128-bit integers, maps whose keys are not strings, and
/// the type itself (a recursive type).
pub fn check_shape(cx: &Ctxt, ty: &Type, self_ident: &syn::Ident) {
    match ty {
        Type::Tuple(t) if t.elems.is_empty() => cx.error(
            ty.span(),
            "`()` has no structural schema (serde writes it as null); skip the field with `#[serde(skip)]`",
        ),
        Type::Tuple(_) => cx.error(
            ty.span(),
            "tuples have no structural schema (a structural array has one item type); use a struct with named fields",
        ),
        Type::Reference(r) => check_shape(cx, &r.elem, self_ident),
        Type::Group(g) => check_shape(cx, &g.elem, self_ident),
        Type::Paren(p) => check_shape(cx, &p.elem, self_ident),
        Type::Slice(s) => check_shape(cx, &s.elem, self_ident),
        Type::Array(a) => check_shape(cx, &a.elem, self_ident),
        Type::Path(p) if p.qself.is_none() => {
            if p.path.segments.len() == 1 || p.path.is_ident("Self") {
                if let Some(seg) = p.path.segments.first() {
                    if seg.ident == *self_ident || seg.ident == "Self" {
                        cx.error(
                            ty.span(),
                            format!(
                                "recursive type: `{self_ident}` contains itself here; a structural schema has no `$ref`, so it cannot describe a recursive type: give this field `#[schema(type = \"object\", preserve_unknown_fields)]` or `#[schema(with = path)]`"
                            ),
                        );
                        return;
                    }
                }
            }
            let Some(seg) = p.path.segments.last() else {
                return;
            };
            if matches!(seg.ident.to_string().as_str(), "i128" | "u128") {
                cx.error(
                    ty.span(),
                    "128-bit integers have no structural schema (the API server's integers are 64-bit)",
                );
            }
            let args = generic_types(&seg.arguments);
            if matches!(
                seg.ident.to_string().as_str(),
                "BTreeMap" | "HashMap" | "IndexMap"
            ) {
                if let Some(key) = args.first() {
                    let (class, _) = classify(key);
                    if !matches!(class, Class::String | Class::Unknown)
                        || matches!(peel(key), Type::Tuple(_))
                    {
                        cx.error(
                            key.span(),
                            "map keys must be strings in a structural schema (the keys of a JSON object); use `String` or a unit-variant enum",
                        );
                    }
                }
            }
            for a in args {
                check_shape(cx, a, self_ident);
            }
        }
        _ => {}
    }
}

/// The classes an attribute's `Applies` admits, and how a message names
/// them; `None`: any.
fn classes_of(applies: Applies) -> Option<(&'static [Class], &'static str)> {
    Some(match applies {
        Applies::Any => return None,
        Applies::Number => (&[Class::Integer, Class::Number], "a number"),
        Applies::Text => (&[Class::String, Class::IntOrString], "a string"),
        Applies::Array => (&[Class::Array], "an array"),
        Applies::Object => (&[Class::Map, Class::FreeObject, Class::Object], "an object"),
        Applies::Map => (&[Class::Map, Class::FreeObject, Class::Object], "a map"),
        Applies::Struct => (&[Class::FreeObject, Class::Object], "a struct"),
        Applies::ArrayOrMap => (&[Class::Array, Class::Map], "an array or a map"),
    })
}

fn class_ok(class: Class, want: &[Class]) -> bool {
    class == Class::Unknown || want.contains(&class)
}

fn mismatch(cx: &Ctxt, span: proc_macro2::Span, key: &str, want: &str, class: Class) {
    cx.error(
        span,
        format!(
            "`{key}` applies to {want}, but this schema is {}",
            class.describe()
        ),
    );
}

/// Checks the node attributes against the class of the node's type;
/// `inner` is the items' or values' type, for `items(...)`.
pub fn check_attrs(cx: &Ctxt, a: &Attrs, class: Class, inner: Option<&Type>) {
    // The class after the attributes that replace the schema.
    let class = if Attrs::flag(&a.int_or_string) {
        if let Some(t) = &a.type_ {
            cx.error(
                t.span,
                "`type` cannot be combined with `int_or_string` (an int-or-string has no type)",
            );
        }
        Class::IntOrString
    } else if let Some(t) = &a.type_ {
        if !matches!(
            t.value.as_str(),
            "string" | "integer" | "number" | "boolean" | "array" | "object"
        ) {
            cx.error(
                t.span,
                format!(
                    "unknown type `{}`: expected one of string, integer, number, boolean, array, object",
                    t.value
                ),
            );
        }
        Class::from_type_attr(&t.value)
    } else if Attrs::flag(&a.schemaless) || a.has_schema_fn() {
        Class::Unknown
    } else {
        class
    };
    if let Some(w) = &a.with {
        for (key, conflict) in [
            (TYPE, a.type_.as_ref().map(|v| v.span)),
            (SCHEMALESS, a.schemaless.as_ref().map(|v| v.span)),
            (INT_OR_STRING, a.int_or_string.as_ref().map(|v| v.span)),
        ] {
            if let Some(span) = conflict {
                cx.error(
                    span,
                    format!("`{key}` cannot be combined with `with`, which gives the whole schema"),
                );
            }
        }
        let _ = w;
    }
    let numeric = [Class::Integer, Class::Number];
    for (key, v) in [
        (MINIMUM, &a.minimum),
        (MAXIMUM, &a.maximum),
        (MULTIPLE_OF, &a.multiple_of),
    ] {
        if let Some(v) = v {
            check_number(cx, key, v, class);
        }
    }
    for (key, v) in [
        (EXCLUSIVE_MINIMUM, &a.exclusive_minimum),
        (EXCLUSIVE_MAXIMUM, &a.exclusive_maximum),
    ] {
        if let Some(v) = v {
            if !class_ok(class, &numeric) {
                mismatch(cx, v.span, key, "a number", class);
            }
        }
    }
    if let (Some(min), Some(max)) = (&a.minimum, &a.maximum) {
        if max.value.as_f64() < min.value.as_f64() {
            cx.error(max.span, "`maximum` is less than `minimum`");
        }
    }
    let textual = [Class::String, Class::IntOrString];
    for (key, v) in [(MIN_LENGTH, &a.min_length), (MAX_LENGTH, &a.max_length)] {
        if let Some(v) = v {
            if !class_ok(class, &textual) {
                mismatch(cx, v.span, key, "a string", class);
            }
        }
    }
    if let Some(p) = &a.pattern {
        if !class_ok(class, &textual) {
            mismatch(cx, p.span, PATTERN, "a string", class);
        }
        if let Err(e) = goregex::compile(&p.value) {
            cx.error(
                p.span,
                format!(
                    "`pattern` does not compile under the API server's RE2 (Go regexp) rules: {e}"
                ),
            );
        }
    }
    for (key, v) in [(MIN_ITEMS, &a.min_items), (MAX_ITEMS, &a.max_items)] {
        if let Some(v) = v {
            if !class_ok(class, &[Class::Array]) {
                mismatch(cx, v.span, key, "an array", class);
            }
        }
    }
    if let Some(v) = &a.unique_items {
        if !class_ok(class, &[Class::Array]) {
            mismatch(cx, v.span, UNIQUE_ITEMS, "an array", class);
        }
    }
    let objects = [Class::Map, Class::FreeObject, Class::Object];
    for (key, v) in [
        (MIN_PROPERTIES, &a.min_properties),
        (MAX_PROPERTIES, &a.max_properties),
    ] {
        if let Some(v) = v {
            if !class_ok(class, &objects) {
                mismatch(cx, v.span, key, "an object", class);
            }
        }
    }
    for (key, lo, hi) in [
        (MAX_LENGTH, &a.min_length, &a.max_length),
        (MAX_ITEMS, &a.min_items, &a.max_items),
        (MAX_PROPERTIES, &a.min_properties, &a.max_properties),
    ] {
        if let (Some(lo), Some(hi)) = (lo, hi) {
            if hi.value < lo.value {
                cx.error(hi.span, format!("`{key}` is less than its minimum"));
            }
        }
    }
    if let Some(t) = &a.list_type {
        if !class_ok(class, &[Class::Array]) {
            mismatch(cx, t.span, LIST_TYPE, "an array", class);
        }
        if !matches!(t.value.as_str(), "atomic" | "set" | "map") {
            cx.error(
                t.span,
                format!(
                    "unknown list type `{}`: expected atomic, set or map",
                    t.value
                ),
            );
        }
    }
    if let Some(k) = &a.list_map_keys {
        if !class_ok(class, &[Class::Array]) {
            mismatch(cx, k.span, LIST_MAP_KEYS, "an array", class);
        }
        match &a.list_type {
            Some(t) if t.value == "map" => {}
            Some(t) => cx.error(
                k.span,
                format!(
                    "`list_map_keys` needs `list_type = \"map\"`, not `\"{}\"`",
                    t.value
                ),
            ),
            None => cx.error(k.span, "`list_map_keys` needs `list_type = \"map\"`"),
        }
    }
    for (key, v, want) in [
        (MAP_TYPE, &a.map_type, &objects[..]),
        (
            STRUCT_TYPE,
            &a.struct_type,
            &[Class::FreeObject, Class::Object][..],
        ),
    ] {
        if let Some(v) = v {
            if !class_ok(class, want) {
                let what = if key == MAP_TYPE {
                    "a map"
                } else {
                    "a struct (use `map_type` for maps)"
                };
                mismatch(cx, v.span, key, what, class);
            }
            if !matches!(v.value.as_str(), "atomic" | "granular") {
                cx.error(
                    v.span,
                    format!("unknown `{key}` `{}`: expected atomic or granular", v.value),
                );
            }
        }
    }
    if let Some(v) = &a.embedded_resource {
        if !class_ok(
            class,
            &[Class::Map, Class::FreeObject, Class::Object, Class::Any],
        ) {
            mismatch(cx, v.span, EMBEDDED_RESOURCE, "an object", class);
        }
    }
    if let Some(items) = &a.items {
        if !class_ok(class, &[Class::Array, Class::Map]) {
            mismatch(cx, items.span, ITEMS, "an array or a map", class);
        }
        let (inner_class, inner_inner) = inner.map_or((Class::Unknown, None), classify);
        check_attrs(cx, &items.value, inner_class, inner_inner);
    }
    if let Some(d) = &a.default {
        check_literal(cx, DEFAULT, &d.value, class);
    }
    if let Some(e) = &a.example {
        check_literal(cx, EXAMPLE, &e.value, class);
    }
    if let Some(values) = &a.enum_ {
        for v in &values.value {
            check_literal(cx, ENUM, v, class);
        }
    }
    for (attr, v) in &a.set_keys {
        if let Some((want, what)) = classes_of(attr.applies) {
            if !class_ok(class, want) {
                mismatch(cx, v.span, attr.key, what, class);
            }
        }
    }
    for r in &a.validations {
        if let Some(reason) = &r.value.reason {
            if !matches!(
                reason.value.as_str(),
                "FieldValueRequired"
                    | "FieldValueInvalid"
                    | "FieldValueForbidden"
                    | "FieldValueDuplicate"
            ) {
                cx.error(
                    reason.span,
                    format!(
                        "invalid reason `{}`: expected FieldValueRequired, FieldValueInvalid, FieldValueForbidden or FieldValueDuplicate",
                        reason.value
                    ),
                );
            }
        }
        for (key, v) in [
            (RULE, &r.value.rule),
            (MESSAGE, &r.value.message),
            (MESSAGE_EXPRESSION, &r.value.message_expression),
        ] {
            let Some(v) = v else { continue };
            if v.value.trim().is_empty() {
                cx.error(v.span, format!("`{key}` must not be empty"));
            } else if key == MESSAGE && v.value.contains(['\n', '\r']) {
                // The API server: "must not contain line breaks" at `message`.
                cx.error(v.span, "`message` must not contain line breaks");
            } else if key != MESSAGE {
                if let Err(e) = crate::checks::cel::check_syntax(&v.value) {
                    cx.error(v.span, format!("`{key}` is not valid CEL:\n{e}"));
                }
            }
        }
    }
}

fn check_number(cx: &Ctxt, key: &str, v: &Val<Num>, class: Class) {
    if !class_ok(class, &[Class::Integer, Class::Number]) {
        mismatch(cx, v.span, key, "a number", class);
    } else if class == Class::Integer && !v.value.is_integral() {
        cx.error(
            v.span,
            format!("`{key}`: a non-integral value cannot apply to an integer"),
        );
    }
}

/// A literal (`default`, `example`, an `enum` value) of the wrong JSON kind
/// for the node's type.
fn check_literal(cx: &Ctxt, key: &str, v: &Json, class: Class) {
    let ok = matches!(
        (&v.kind, class),
        (_, Class::Unknown | Class::Any)
            | (JsonKind::Null, _)
            | (
                JsonKind::Int(_) | JsonKind::UInt(_),
                Class::Integer | Class::Number | Class::IntOrString
            )
            | (JsonKind::Float(_), Class::Number)
            | (JsonKind::Str(_), Class::String | Class::IntOrString)
            | (JsonKind::Bool(_), Class::Bool)
            | (JsonKind::Array(_), Class::Array)
            | (
                JsonKind::Object(_),
                Class::Map | Class::FreeObject | Class::Object
            )
    );
    if !ok {
        cx.error(
            v.span,
            format!(
                "`{key}` is {}, but this schema is {}",
                v.describe(),
                class.describe()
            ),
        );
    }
}
