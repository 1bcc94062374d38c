//! The fields of a struct or of a struct variant: serde's names, whether
//! each is required, its attributes checked against its type; and the
//! one-of groups of a struct, by the fields' JSON names.

use proc_macro2::Span;
use serde_derive_internals::{ast, attr as serde_attr};
use syn::spanned::Spanned;

use crate::checks::syntax;
use crate::ctxt::{Ctxt, Dialect};
use crate::parse::attrs::{self, Attrs, OneOfKind};
use crate::parse::doc;
use crate::symbol::{Place, did_you_mean};

/// A field of a struct (or of a struct variant).
pub(crate) struct FieldModel<'a> {
    pub(crate) name: String,
    pub(crate) ty: &'a syn::Type,
    pub(crate) attrs: Attrs,
    pub(crate) description: Option<String>,
    pub(crate) kind: FieldKind,
    /// schemars' conventions (`#[derive(JsonSchema)]`): the default
    /// value the schema states, and whether an `Option` is nullable.
    pub(crate) schemars: Option<SchemarsField>,
}

/// What schemars adds to a field's schema by its conventions.
pub(crate) struct SchemarsField {
    /// serde's default (or `#[schemars(default)]`), serialized into the
    /// schema's `default`.
    pub(crate) default: Option<SchemaDefault>,
    /// `nullable: true` when the field's type is an `Option` (not for a
    /// schema given by `schema_with`).
    pub(crate) nullable_option: bool,
}

/// Where a field's schema default comes from.
pub(crate) struct SchemaDefault {
    pub(crate) value: DefaultValue,
    /// serde's `skip_serializing_if`: no default when it holds for the
    /// default value.
    pub(crate) skip_if: Option<syn::ExprPath>,
    /// serde's `serialize_with`: the default is written with it.
    pub(crate) serialize_with: Option<syn::ExprPath>,
}

pub(crate) enum DefaultValue {
    /// `<T as Default>::default()`.
    Trait,
    /// `path()`.
    Path(syn::ExprPath),
    /// The field of the container's default (`#[serde(default)]` on the
    /// struct: `Default::default()`, or `path()` with a path).
    ContainerField {
        container: Option<syn::ExprPath>,
        member: syn::Member,
    },
}

pub(crate) enum FieldKind {
    /// A property; `required` as known at compile time (`None`: ask the
    /// type, i.e. required unless it is an `Option`).
    Property { required: Option<bool> },
    /// `#[serde(flatten)]`; whether the merged properties stay optional.
    Flatten { optional: bool },
}

pub(crate) fn serde_name(cx: &Ctxt, name: &serde_attr::Name, span: Span) -> String {
    if name.serialize_name() != name.deserialize_name() {
        cx.error(
            span,
            format!(
                "the serialized name `{}` differs from the deserialized name `{}`; a schema has one name per field",
                name.serialize_name(),
                name.deserialize_name()
            ),
        );
    }
    name.serialize_name().to_string()
}

pub(crate) fn no_field_attrs(cx: &Ctxt, f: &ast::Field<'_>, hint: &str) {
    let a = attrs::parse(cx, &f.original.attrs, Place::Field);
    if let Some(at) = &a.first_attr {
        cx.error_spanned_by(at, format!("schema attributes are not read here; {hint}"));
    }
}

/// Where to point at a field: its name, or its type for a tuple field.
fn field_span(f: &ast::Field<'_>) -> Span {
    match &f.original.ident {
        Some(id) => id.span(),
        None => f.ty.span(),
    }
}

/// The JSON name, the Rust name and whether it is explicitly required, of
/// each named field.
pub(crate) type FieldNames = Vec<(String, String, bool)>;

/// The fields of a struct or of a struct variant; `self_ident` is the type
/// being derived (for recursion), `container_default` a container
/// `#[serde(default)]`.
pub(crate) fn build_fields<'a>(
    cx: &Ctxt,
    self_ident: &syn::Ident,
    container_default: &serde_attr::Default,
    fields: &[ast::Field<'a>],
) -> (Vec<FieldModel<'a>>, FieldNames) {
    let mut out = Vec::new();
    // Rust field name -> (JSON name, explicitly required).
    let mut names: FieldNames = Vec::new();
    for f in fields {
        let a = attrs::parse(cx, &f.original.attrs, Place::Field);
        let span = field_span(f);
        let skipped = f.attrs.skip_deserializing() || Attrs::flag(&a.skip);
        if skipped {
            if a.skip.is_some() && has_other_keys(&a) {
                cx.error(
                    span,
                    "`skip` leaves the field out of the schema; its other attributes would have no effect",
                );
            }
            continue;
        }
        let name = serde_name(cx, f.attrs.name(), span);
        if let syn::Member::Named(id) = &f.member {
            names.push((id.to_string(), name.clone(), Attrs::flag(&a.required)));
        }
        let has_default = !f.attrs.default().is_none() || !container_default.is_none();
        let serde_optional = match cx.dialect() {
            Dialect::Native => {
                has_default || f.attrs.skip_serializing_if().is_some() || f.attrs.skip_serializing()
            }
            // schemars judges as deserialization does: only a default
            // (its own `default` too) makes a field optional.
            Dialect::Schemars => has_default || a.schemars.default.is_some(),
        };
        if f.attrs.flatten() {
            if let Some(at) = &a.first_attr {
                cx.error_spanned_by(
                    at,
                    "a flattened field has no schema node of its own; put the attributes on its type",
                );
            }
            out.push(FieldModel {
                name,
                ty: f.ty,
                attrs: a,
                description: None,
                kind: FieldKind::Flatten {
                    optional: serde_optional,
                },
                schemars: None,
            });
            continue;
        }
        if (f.attrs.serialize_with().is_some() || f.attrs.deserialize_with().is_some())
            && !a.replaces()
            && a.schemars.with_type.is_none()
        {
            cx.error(
                span,
                "`#[serde(with)]` changes how the field is written, so its type does not tell its schema: give it with `#[schema(with = path)]`, `#[schema(type = \"...\")]` or `#[schema(schemaless)]`",
            );
        }
        // schemars' `with = "Type"`: the schema of that type.
        let ty = a.schemars.with_type.as_ref().map_or(f.ty, |t| &t.value);
        if !a.replaces() {
            syntax::check_shape(cx, ty, self_ident);
        }
        let (class, inner) = syntax::classify(ty);
        syntax::check_attrs(cx, &a, class, inner);
        if let (Some(r), Some(_)) = (&a.required, &a.optional) {
            cx.error(r.span, "a field cannot be both `required` and `optional`");
        }
        let required = if Attrs::flag(&a.required) {
            Some(true)
        } else if Attrs::flag(&a.optional) || serde_optional {
            Some(false)
        } else if a.replaces() {
            Some(!syntax::is_option(f.ty))
        } else {
            None
        };
        let description = a
            .description
            .as_ref()
            .map(|d| d.value.clone())
            .or_else(|| doc::description_in(cx.dialect(), &f.original.attrs));
        let schemars = (cx.dialect() == Dialect::Schemars).then(|| SchemarsField {
            default: schema_default(f, &a, container_default),
            nullable_option: a.schemars.schema_with.is_none(),
        });
        out.push(FieldModel {
            name,
            ty: f.ty,
            attrs: a,
            description,
            kind: FieldKind::Property { required },
            schemars,
        });
    }
    (out, names)
}

/// The default schemars states for a field: `#[schemars(default)]`,
/// else serde's default of the field, else that of the container.
fn schema_default(
    f: &ast::Field<'_>,
    a: &Attrs,
    container_default: &serde_attr::Default,
) -> Option<SchemaDefault> {
    use crate::parse::schemars::DefaultFrom;
    // A field serde never writes has no default to state.
    if f.attrs.skip_serializing() || a.schemars.skip_serializing.is_some() {
        return None;
    }
    let value = match (&a.schemars.default, f.attrs.default(), container_default) {
        (Some(d), _, _) => match &d.value {
            DefaultFrom::Trait => DefaultValue::Trait,
            DefaultFrom::Path(p) => DefaultValue::Path(p.clone()),
        },
        (None, serde_attr::Default::Default, _) => DefaultValue::Trait,
        (None, serde_attr::Default::Path(p), _) => DefaultValue::Path(p.clone()),
        (None, serde_attr::Default::None, serde_attr::Default::None) => return None,
        (None, serde_attr::Default::None, c) => DefaultValue::ContainerField {
            container: match c {
                serde_attr::Default::Path(p) => Some(p.clone()),
                _ => None,
            },
            member: f.member.clone(),
        },
    };
    Some(SchemaDefault {
        value,
        skip_if: f.attrs.skip_serializing_if().cloned(),
        serialize_with: f.attrs.serialize_with().cloned(),
    })
}

/// The one-of groups of a struct, with the fields' JSON names.
pub(crate) fn one_of_groups(
    cx: &Ctxt,
    cattrs: &Attrs,
    names: &FieldNames,
) -> Vec<(OneOfKind, Vec<String>)> {
    let mut one_of = Vec::new();
    for g in &cattrs.one_of {
        let mut json = Vec::new();
        for id in &g.value.fields {
            let key = id.to_string();
            match names.iter().find(|(rust, _, _)| *rust == key) {
                Some((_, name, required)) => {
                    if *required {
                        cx.error(
                            id.span(),
                            format!("field `{key}` is `required`, so it cannot be part of a one-of constraint"),
                        );
                    }
                    json.push(name.clone());
                }
                None => {
                    let msg = match did_you_mean(&key, names.iter().map(|(r, _, _)| r.as_str())) {
                        Some(s) => format!("no field `{key}` in this struct; did you mean `{s}`?"),
                        None => format!("no field `{key}` in this struct"),
                    };
                    cx.error(id.span(), msg);
                }
            }
        }
        one_of.push((g.value.kind, json));
    }
    one_of
}

fn has_other_keys(a: &Attrs) -> bool {
    a.keys.iter().any(|k| k != crate::symbol::SKIP)
}
