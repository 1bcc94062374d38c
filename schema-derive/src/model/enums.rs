//! Enums: unit-variant enums become string enums; every other enum
//! becomes a structural union in serde's representation (externally,
//! internally or adjacently tagged; untagged only as an int-or-string).
//! What the syntax tells is checked here (unit variants among data,
//! tuple variants, untagged shapes, attributes on variants, properties or
//! contents of different kinds); the schemas are merged and compared when
//! the schema is built, by `schema_core::rust::__private::Union`.

use proc_macro2::Span;
use serde_derive_internals::{ast, attr as serde_attr};
use syn::spanned::Spanned;

use crate::checks::syntax::{self, Class};
use crate::ctxt::{Ctxt, Dialect};
use crate::model::fields::{self, FieldKind, FieldModel};
use crate::parse::attrs::{self, Attrs};
use crate::parse::doc;
use crate::symbol::{IMMUTABLE, OPTIONAL, Place, REQUIRED, SKIP};

/// What an enum becomes.
pub enum EnumBody<'a> {
    /// Unit variants only, externally tagged: a string enum of the names.
    Strings(Vec<String>),
    /// Anything else: a structural union.
    Union(Union<'a>),
}

/// The checked model of an enum with data (or a tagged or untagged one).
pub struct Union<'a> {
    pub(crate) repr: Repr,
    pub(crate) variants: Vec<VariantModel<'a>>,
    /// The schemars dialect: an externally tagged enum keeps its variants
    /// apart as kube-derive's CRDs do, with a `oneOf` of one `required`
    /// property each, not with a CEL rule.
    pub(crate) one_of_variants: bool,
}

pub(crate) enum Repr {
    External,
    Internal {
        tag: String,
    },
    Adjacent {
        tag: String,
        content: String,
    },
    /// `merge_objects` (the schemars dialect): variants that are all
    /// objects are merged into one, as kube's structural rewriter merges
    /// schemars' `anyOf`; else, as in the native dialect, an int-or-string.
    Untagged {
        merge_objects: bool,
    },
}

pub(crate) struct VariantModel<'a> {
    pub(crate) name: String,
    /// The variant's attributes (externally tagged enums only), its
    /// description included.
    pub(crate) attrs: Attrs,
    pub(crate) description: Option<String>,
    pub(crate) shape: Shape<'a>,
}

pub(crate) enum Shape<'a> {
    Unit,
    Newtype(&'a syn::Type),
    Fields(Vec<FieldModel<'a>>),
}

impl Union<'_> {
    /// The class of the enum's schema, to check the enum's attributes.
    pub fn class(&self) -> Class {
        match self.repr {
            Repr::Untagged {
                merge_objects: false,
            } => Class::IntOrString,
            Repr::Untagged {
                merge_objects: true,
            } => Class::Unknown,
            _ => Class::Object,
        }
    }
}

fn is_unit(v: &ast::Variant<'_>) -> bool {
    matches!(v.style, ast::Style::Unit)
}

/// The model of an enum.
pub fn build<'a>(
    cx: &Ctxt,
    cont: &ast::Container<'a>,
    variants: &[ast::Variant<'a>],
) -> Option<EnumBody<'a>> {
    let live = variants
        .iter()
        .filter(|v| !v.attrs.skip_deserializing() && !v.attrs.untagged());
    let repr = match cont.attrs.tag() {
        serde_attr::TagType::External => {
            if live.clone().all(is_unit) {
                return build_strings(cx, variants);
            }
            Repr::External
        }
        serde_attr::TagType::Internal { tag } => Repr::Internal { tag: tag.clone() },
        serde_attr::TagType::Adjacent { tag, content } => Repr::Adjacent {
            tag: tag.clone(),
            content: content.clone(),
        },
        serde_attr::TagType::None => Repr::Untagged {
            merge_objects: cx.dialect() == Dialect::Schemars,
        },
    };
    let mut out = Vec::new();
    for v in variants {
        let a = attrs::parse(cx, &v.original.attrs, Place::Field);
        if v.attrs.skip_deserializing() {
            continue;
        }
        if v.attrs.untagged() && !matches!(repr, Repr::Untagged { .. }) {
            cx.error(
                v.ident.span(),
                "an untagged variant has no structural schema: serde tries it when no tag matches, \
                 so the enum's node would have to accept any value; make it a tagged variant, or \
                 give the enum's schema with `#[schema(schemaless)]` or `#[schema(with = path)]`",
            );
            continue;
        }
        if let Some(m) = build_variant(cx, cont, &repr, v, a) {
            out.push(m);
        }
    }
    if out.is_empty() && !cx.has_errors() {
        cx.error(cont.ident.span(), "an enum without variants has no schema");
        return None;
    }
    match repr {
        Repr::Untagged {
            merge_objects: false,
        } => check_untagged(cx, cont, variants),
        // Whether the variants are all objects is known once their
        // schemas are: `crd()` reports it.
        Repr::Untagged {
            merge_objects: true,
        } => {}
        Repr::Internal { .. } => check_internal(cx, &out, variants),
        Repr::Adjacent { ref content, .. } => check_adjacent(cx, content, &out, variants),
        Repr::External => {}
    }
    Some(EnumBody::Union(Union {
        repr,
        variants: out,
        one_of_variants: cx.dialect() == Dialect::Schemars,
    }))
}

/// A unit-variant enum: the variants' names.
fn build_strings(cx: &Ctxt, variants: &[ast::Variant<'_>]) -> Option<EnumBody<'static>> {
    let mut values = Vec::new();
    for v in variants {
        let a = attrs::parse(cx, &v.original.attrs, Place::Field);
        if let Some(at) = &a.first_attr {
            cx.error_spanned_by(
                at,
                "schema attributes are not read on the variants of a unit-variant enum (its \
                 variants are the values of one string schema); put them on the enum",
            );
        }
        if v.attrs.skip_deserializing() {
            continue;
        }
        if v.attrs.untagged() {
            cx.error(
                v.ident.span(),
                "an untagged variant has no structural schema: serde tries it when no name \
                 matches, so the enum would have to accept any value; remove \
                 `#[serde(untagged)]`, or give the enum's schema with `#[schema(schemaless)]` \
                 or `#[schema(with = path)]`",
            );
            continue;
        }
        values.push(fields::serde_name(cx, v.attrs.name(), v.ident.span()));
    }
    if values.is_empty() && !cx.has_errors() {
        if let Some(v) = variants.first() {
            cx.error(v.ident.span(), "an enum without variants has no values");
        }
        return None;
    }
    Some(EnumBody::Strings(values))
}

fn describe_repr(repr: &Repr) -> &'static str {
    match repr {
        Repr::External => "an externally tagged enum",
        Repr::Internal { .. } => "an internally tagged enum",
        Repr::Adjacent { .. } => "an adjacently tagged enum",
        Repr::Untagged { .. } => "an untagged enum",
    }
}

fn build_variant<'a>(
    cx: &Ctxt,
    cont: &ast::Container<'a>,
    repr: &Repr,
    v: &ast::Variant<'a>,
    a: Attrs,
) -> Option<VariantModel<'a>> {
    let name = fields::serde_name(cx, v.attrs.name(), v.ident.span());
    for (key, slot, hint) in [
        (
            REQUIRED,
            &a.required,
            "a variant is never required: the union's rules require exactly one",
        ),
        (
            OPTIONAL,
            &a.optional,
            "a variant is never required: the union's rules require exactly one",
        ),
        (
            IMMUTABLE,
            &a.immutable,
            "put `immutable` on the field that holds the enum",
        ),
        (
            SKIP,
            &a.skip,
            "leave a variant out with `#[serde(skip)]`, so that serde agrees",
        ),
    ] {
        if let Some(v) = slot {
            cx.error(
                v.span,
                format!("`{key}` does not apply to an enum variant; {hint}"),
            );
        }
    }
    let external = matches!(repr, Repr::External);
    if !external {
        if let Some(at) = &a.first_attr {
            let why = match repr {
                Repr::Internal { .. } => {
                    "the variant has no schema node of its own (its fields are merged into the \
                     enum's object); put them on the variant's fields, or on the enum"
                }
                Repr::Adjacent { .. } => {
                    "the variant has no schema node of its own (its content shares the enum's \
                     content property); put them on the variant's fields, or on the enum"
                }
                _ => {
                    "the variants are the two sides of one int-or-string node; put them on the \
                     enum"
                }
            };
            cx.error_spanned_by(
                at,
                format!(
                    "schema attributes are not read on the variants of {}: {why}",
                    describe_repr(repr)
                ),
            );
        }
    }
    if (v.attrs.serialize_with().is_some() || v.attrs.deserialize_with().is_some())
        && !(external && a.replaces())
    {
        cx.error(
            v.ident.span(),
            "`#[serde(with)]` changes how the variant is written, so its fields do not tell its \
             schema: give it with `#[schema(with = path)]` or `#[schema(type = \"...\")]` on the \
             variant of an externally tagged enum",
        );
    }
    let description = if external {
        a.description
            .as_ref()
            .map(|d| d.value.clone())
            .or_else(|| doc::description_in(cx.dialect(), &v.original.attrs))
    } else {
        None
    };
    let shape = match v.style {
        ast::Style::Unit => {
            if external {
                cx.error(
                    v.ident.span(),
                    format!(
                        "a unit variant cannot be part of an externally tagged enum with data: \
                         serde writes it as the string \"{name}\" and the other variants as \
                         objects, and a structural schema node has one type; make it an empty \
                         struct variant `{ident} {{}}` (serde writes `{{\"{name}\": {{}}}}`), or \
                         remove it and make the field holding the enum an `Option`",
                        ident = v.ident
                    ),
                );
                return None;
            }
            if let Repr::Untagged { merge_objects } = repr {
                if *merge_objects {
                    cx.error(
                        v.ident.span(),
                        "a unit variant of an untagged enum is written as `null`, which the API \
                         server treats as absent, and cannot be merged with the other variants' \
                         objects; make it an empty struct variant, or make the field holding the \
                         enum an `Option`",
                    );
                }
                // Else reported for the whole enum by `check_untagged`.
                return None;
            }
            Shape::Unit
        }
        ast::Style::Newtype => {
            let f = v.fields.first()?;
            fields::no_field_attrs(cx, f, "on a newtype variant, put them on the variant");
            if !a.replaces() {
                syntax::check_shape(cx, f.ty, &cont.ident);
                if syntax::is_option(f.ty) {
                    cx.error(
                        f.ty.span(),
                        "a variant holding an `Option` has no structural schema: serde writes \
                         `None` as `null`, which the API server treats as absent, so the variant \
                         could not be told from no variant at all; hold the type itself",
                    );
                }
            }
            let (class, inner) = syntax::classify(f.ty);
            syntax::check_attrs(cx, &a, class, inner);
            Shape::Newtype(f.ty)
        }
        ast::Style::Tuple => {
            // serde reports tuple variants of internally tagged enums.
            if !matches!(
                repr,
                Repr::Internal { .. }
                    | Repr::Untagged {
                        merge_objects: false
                    }
            ) {
                cx.error(
                    v.ident.span(),
                    "a tuple variant has no structural schema (serde writes it as an array of \
                     mixed types, and a structural array has one item type); use a struct variant \
                     with named fields",
                );
            }
            return None;
        }
        ast::Style::Struct => {
            let (fields, _) =
                fields::build_fields(cx, &cont.ident, &serde_attr::Default::None, &v.fields);
            syntax::check_attrs(cx, &a, Class::Object, None);
            Shape::Fields(fields)
        }
    };
    Some(VariantModel {
        name,
        attrs: a,
        description,
        shape,
    })
}

/// The JSON kind of a class, for comparing properties and contents:
/// `None` when unknown from the syntax.
fn kind(class: Class) -> Option<&'static str> {
    match class {
        Class::FreeObject | Class::Object => Some("an object"),
        Class::Any | Class::Unknown => None,
        c => Some(c.describe()),
    }
}

/// The class of a field as the schema will have it.
fn field_class(f: &FieldModel<'_>) -> Class {
    if f.attrs.replaces() {
        return match &f.attrs.type_ {
            Some(t) if !Attrs::flag(&f.attrs.int_or_string) && f.attrs.with.is_none() => {
                Class::from_type_attr(&t.value)
            }
            _ if Attrs::flag(&f.attrs.int_or_string) => Class::IntOrString,
            _ => Class::Unknown,
        };
    }
    syntax::classify(f.ty).0
}

fn field_span(f: &FieldModel<'_>, v: &ast::Variant<'_>) -> Span {
    v.fields
        .iter()
        .find(|af| std::ptr::eq(af.ty, f.ty))
        .and_then(|af| af.original.ident.as_ref().map(|i| i.span()))
        .unwrap_or_else(|| f.ty.span())
}

/// The `ast::Variant` of a model, by its serialized name.
fn original<'v, 'a>(variants: &'v [ast::Variant<'a>], name: &str) -> Option<&'v ast::Variant<'a>> {
    variants
        .iter()
        .find(|v| !v.attrs.skip_deserializing() && v.attrs.name().serialize_name() == name)
}

/// Internally tagged: newtype variants must hold structs, and a property
/// of several variants must be of one kind.
fn check_internal(cx: &Ctxt, models: &[VariantModel<'_>], variants: &[ast::Variant<'_>]) {
    // JSON name -> (kind, variant name).
    let mut seen: Vec<(String, &'static str, String)> = Vec::new();
    for m in models {
        let Some(v) = original(variants, &m.name) else {
            continue;
        };
        match &m.shape {
            Shape::Unit => {}
            Shape::Newtype(ty) => {
                let class = syntax::classify(ty).0;
                match class {
                    Class::Object | Class::FreeObject | Class::Unknown => {}
                    Class::Map => cx.error(
                        ty.span(),
                        format!(
                            "variant `{}` holds a map: serde writes its entries beside the tag, \
                             and a structural object cannot have both `properties` (the tag) and \
                             `additionalProperties`; use a struct variant with the map as a field",
                            m.name
                        ),
                    ),
                    other => cx.error(
                        ty.span(),
                        format!(
                            "variant `{}` holds {}, which serde cannot write in an internally \
                             tagged enum (the content's fields go beside the tag, so it must be a \
                             struct); use a struct variant `{} {{ value: ... }}`",
                            m.name,
                            kind(other).unwrap_or("a value"),
                            v.ident
                        ),
                    ),
                }
            }
            Shape::Fields(fields) => {
                for f in fields {
                    if matches!(f.kind, FieldKind::Flatten { .. }) {
                        continue;
                    }
                    let Some(k) = kind(field_class(f)) else {
                        continue;
                    };
                    match seen.iter().find(|(n, _, _)| *n == f.name) {
                        Some((_, other, in_variant)) if *other != k => cx.error(
                            field_span(f, v),
                            format!(
                                "the field `{}` is {k} here but {other} in variant `{in_variant}`: \
                                 the variants of an internally tagged enum share one object, so a \
                                 property has one schema; give both fields the same type, or \
                                 rename one (`#[serde(rename = \"...\")]`)",
                                f.name
                            ),
                        ),
                        Some(_) => {}
                        None => seen.push((f.name.clone(), k, m.name.clone())),
                    }
                }
            }
        }
    }
}

/// Adjacently tagged: the contents must be of one kind (objects are
/// merged, anything else must be the same schema).
fn check_adjacent(
    cx: &Ctxt,
    content: &str,
    models: &[VariantModel<'_>],
    variants: &[ast::Variant<'_>],
) {
    let mut first: Option<(&'static str, &str)> = None;
    for m in models {
        let (class, span) = match &m.shape {
            Shape::Unit => continue,
            Shape::Newtype(ty) => (syntax::classify(ty).0, ty.span()),
            Shape::Fields(_) => (
                Class::Object,
                original(variants, &m.name).map_or_else(Span::call_site, |v| v.ident.span()),
            ),
        };
        let Some(k) = kind(class) else {
            continue;
        };
        match first {
            None => first = Some((k, &m.name)),
            Some((fk, fname)) if fk != k => cx.error(
                span,
                format!(
                    "the content of variant `{}` is {k}, but the content of variant `{fname}` is \
                     {fk}: the content property `{content}` has one schema, so the variants must \
                     hold the same type, or all hold structs (whose fields are merged); use \
                     struct variants, or an externally tagged enum",
                    m.name
                ),
            ),
            Some(_) => {}
        }
    }
}

/// Untagged: exactly an integer newtype variant and a string one.
fn check_untagged(cx: &Ctxt, cont: &ast::Container<'_>, variants: &[ast::Variant<'_>]) {
    let live: Vec<&ast::Variant<'_>> = variants
        .iter()
        .filter(|v| !v.attrs.skip_deserializing())
        .collect();
    let classes: Vec<Option<Class>> = live
        .iter()
        .map(|v| match v.style {
            ast::Style::Newtype => v.fields.first().map(|f| syntax::classify(f.ty).0),
            _ => None,
        })
        .collect();
    // Two newtype variants, not both known to be integers or strings.
    let ok = match classes.as_slice() {
        [Some(a), Some(b)] => matches!(
            (a, b),
            (Class::Integer, Class::String)
                | (Class::String, Class::Integer)
                | (
                    Class::Unknown,
                    Class::Integer | Class::String | Class::Unknown
                )
                | (Class::Integer | Class::String, Class::Unknown)
        ),
        _ => false,
    };
    if !ok {
        cx.error(
            cont.ident.span(),
            "an untagged enum has a structural schema only as an int-or-string: exactly two \
             newtype variants, one holding an integer and one a string (`enum IntOrString { \
             Int(i32), Str(String) }`); serde picks the first variant that fits the value, which \
             a structural schema (one type per node) cannot describe otherwise. Use an externally \
             tagged enum or an internally tagged one (`#[serde(tag = \"type\")]`), or give the \
             schema with `#[schema(schemaless)]` or `#[schema(with = path)]`",
        );
    }
}
