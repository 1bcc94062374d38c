//! The second step: the checked model of one type, built from the parsed
//! attributes and serde's view of the type, with the checks of `checks/`
//! made on the way. `fields.rs` models fields (of structs and of struct
//! variants), `enums.rs` enums, `crd.rs` the custom resource.

pub mod crd;
pub mod enums;
pub mod fields;
pub mod kube;

use serde_derive_internals::ast;

use crate::checks::syntax::{self, Class};
use crate::ctxt::Ctxt;
use crate::parse::attrs::{self, Attrs, OneOfKind};
use crate::parse::doc;
use crate::symbol::Place;
use fields::{FieldModel, build_fields, no_field_attrs, one_of_groups};

/// The checked model of one type.
pub(crate) struct Model<'a> {
    pub(crate) ident: &'a syn::Ident,
    pub(crate) generics: &'a syn::Generics,
    pub(crate) krate: syn::Path,
    pub(crate) attrs: Attrs,
    pub(crate) description: Option<String>,
    pub(crate) body: Body<'a>,
    /// `crd(...)`: the custom resource the struct is the spec of.
    pub(crate) crd: Option<crd::CrdModel>,
}

pub(crate) enum Body<'a> {
    Struct {
        fields: Vec<FieldModel<'a>>,
        one_of: Vec<(OneOfKind, Vec<String>)>,
    },
    /// A newtype, a `#[serde(transparent)]` struct or `#[serde(into)]`.
    Newtype(&'a syn::Type),
    /// A unit-variant enum: a string enum.
    Enum(Vec<String>),
    /// An enum with data, or a tagged or untagged one: a structural union.
    Union(enums::Union<'a>),
    /// An enum whose schema its attributes give (`type`, `with`, ...).
    Replaced,
}

pub(crate) fn build<'a>(
    cx: &Ctxt,
    cont: &'a ast::Container<'a>,
    input: &'a syn::DeriveInput,
) -> Option<Model<'a>> {
    let attrs = attrs::parse(cx, &input.attrs, Place::Type);
    let krate = attrs
        .crate_path
        .as_ref()
        .map(|p| p.value.clone())
        .unwrap_or_else(|| syn::parse_quote!(::schema_core));
    let description = attrs
        .description
        .as_ref()
        .map(|d| d.value.clone())
        .or_else(|| doc::description_in(cx.dialect(), &input.attrs));
    if let Some(s) = &attrs.skip {
        cx.error(s.span, "`skip` applies to fields");
    }
    let serialized_as = cont
        .attrs
        .type_into()
        .or(cont.attrs.type_from())
        .or(cont.attrs.type_try_from());
    let crd = attrs.crd.as_ref().and_then(|c| {
        let fields = match &cont.data {
            ast::Data::Struct(ast::Style::Struct, fields)
                if serialized_as.is_none() && !cont.attrs.transparent() =>
            {
                Some(fields.as_slice())
            }
            _ => None,
        };
        crd::build(cx, c, input, fields, crd::CrdForm::Schema)
    });
    let mut body = if let Some(ty) = serialized_as {
        Body::Newtype(ty)
    } else {
        match &cont.data {
            ast::Data::Enum(_) if attrs.replaces() => Body::Replaced,
            ast::Data::Enum(variants) => match enums::build(cx, cont, variants)? {
                enums::EnumBody::Strings(values) => Body::Enum(values),
                enums::EnumBody::Union(u) => Body::Union(u),
            },
            ast::Data::Struct(ast::Style::Struct, fields) if cont.attrs.transparent() => {
                let f = fields.iter().find(|f| f.attrs.transparent())?;
                no_field_attrs(
                    cx,
                    f,
                    "on a `#[serde(transparent)]` struct, put them on the struct",
                );
                Body::Newtype(f.ty)
            }
            ast::Data::Struct(ast::Style::Struct, fields) => build_struct(cx, cont, &attrs, fields),
            ast::Data::Struct(ast::Style::Newtype, fields) => {
                let f = fields.first()?;
                no_field_attrs(cx, f, "on a newtype, put them on the struct");
                Body::Newtype(f.ty)
            }
            ast::Data::Struct(ast::Style::Tuple, _) => {
                cx.error(
                    cont.ident.span(),
                    "tuple structs have no structural schema (serde writes them as arrays of mixed types); use named fields",
                );
                return None;
            }
            ast::Data::Struct(ast::Style::Unit, _) => {
                cx.error(
                    cont.ident.span(),
                    "unit structs have no structural schema (serde writes them as null)",
                );
                return None;
            }
        }
    };
    // The container's own attributes, checked against its shape.
    match &body {
        Body::Struct { .. } => syntax::check_attrs(cx, &attrs, Class::Object, None),
        Body::Newtype(ty) => {
            if !attrs.replaces() {
                syntax::check_shape(cx, ty, &cont.ident);
            }
            let (class, inner) = syntax::classify(ty);
            syntax::check_attrs(cx, &attrs, class, inner);
        }
        Body::Enum(_) => syntax::check_attrs(cx, &attrs, Class::String, None),
        Body::Union(u) => syntax::check_attrs(cx, &attrs, u.class(), None),
        Body::Replaced => syntax::check_attrs(cx, &attrs, Class::Unknown, None),
    }
    // The root's `metadata` is the server's ObjectMeta, whose schema is
    // `{type: object}` and may carry nothing else: a doc comment on the
    // field is not a description there (controller-gen drops it too). An
    // explicit `description` stays, and is reported as the server would.
    if let (Some(c), Body::Struct { fields, .. }) = (&crd, &mut body)
        && c.is_object_root()
        && let Some(meta) = fields.iter_mut().find(|f| f.name == "metadata")
        && meta.attrs.description.is_none()
    {
        meta.description = None;
    }
    if !matches!(body, Body::Struct { .. }) {
        for g in &attrs.one_of {
            cx.error(
                g.span,
                "one-of constraints apply to structs with named fields",
            );
        }
    }
    Some(Model {
        ident: &input.ident,
        generics: &input.generics,
        krate,
        attrs,
        description,
        body,
        crd,
    })
}

fn build_struct<'a>(
    cx: &Ctxt,
    cont: &ast::Container<'a>,
    cattrs: &Attrs,
    fields: &[ast::Field<'a>],
) -> Body<'a> {
    let (out, names) = build_fields(cx, &cont.ident, cont.attrs.default(), fields);
    let one_of = one_of_groups(cx, cattrs, &names);
    Body::Struct {
        fields: out,
        one_of,
    }
}
