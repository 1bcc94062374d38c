//! The derive in three steps, as serde_derive does it: parse (serde's own
//! attributes through `serde_derive_internals`, ours through
//! [`crate::attr`]), build a checked model (every error collected in the
//! [`Ctxt`], which is checked before any code is generated), expand.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use serde_derive_internals::{Ctxt as SerdeCtxt, Derive, ast, attr as serde_attr};
use syn::spanned::Spanned;

use crate::attr::{self, Attrs, Num, OneOfKind};
use crate::ctxt::Ctxt;
use crate::doc;
use crate::enums;
use crate::symbol::{Place, did_you_mean};
use crate::syntax_checks::{self, Class};

/// The checked model of one type.
struct Model<'a> {
    ident: &'a syn::Ident,
    generics: &'a syn::Generics,
    krate: syn::Path,
    attrs: Attrs,
    description: Option<String>,
    body: Body<'a>,
    /// `crd(...)`: the custom resource the struct is the spec of.
    crd: Option<crate::crd::CrdModel>,
}

enum Body<'a> {
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

/// A field of a struct (or of a struct variant).
pub(crate) struct FieldModel<'a> {
    pub(crate) name: String,
    pub(crate) ty: &'a syn::Type,
    pub(crate) attrs: Attrs,
    pub(crate) description: Option<String>,
    pub(crate) kind: FieldKind,
}

pub(crate) enum FieldKind {
    /// A property; `required` as known at compile time (`None`: ask the
    /// type, i.e. required unless it is an `Option`).
    Property { required: Option<bool> },
    /// `#[serde(flatten)]`; whether the merged properties stay optional.
    Flatten { optional: bool },
}

/// `#[derive(StructuralSchema)]`.
pub fn derive(input: &syn::DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let serde_cx = SerdeCtxt::new();
    let cont = ast::Container::from_ast(&serde_cx, input, Derive::Deserialize);
    if let Err(e) = serde_cx.check() {
        cx.syn_error(e);
    }
    let model = cont.as_ref().and_then(|c| build(&cx, c, input));
    match (cx.check(), model) {
        (Err(errors), _) => errors,
        (Ok(()), Some(m)) => expand(&m),
        // Every path that gives no model reports why; this is a backstop.
        (Ok(()), None) => syn::Error::new(
            input.ident.span(),
            "StructuralSchema cannot be derived for this type",
        )
        .to_compile_error(),
    }
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

fn build<'a>(
    cx: &Ctxt,
    cont: &'a ast::Container<'a>,
    input: &'a syn::DeriveInput,
) -> Option<Model<'a>> {
    let attrs = attr::parse(cx, &input.attrs, Place::Type);
    let krate = attrs
        .crate_path
        .as_ref()
        .map(|p| p.value.clone())
        .unwrap_or_else(|| syn::parse_quote!(::schema_core));
    let description = attrs
        .description
        .as_ref()
        .map(|d| d.value.clone())
        .or_else(|| doc::description(&input.attrs));
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
        crate::crd::build(cx, c, input, fields)
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
        Body::Struct { .. } => syntax_checks::check_attrs(cx, &attrs, Class::Object, None),
        Body::Newtype(ty) => {
            if !attrs.replaces() {
                syntax_checks::check_shape(cx, ty, &cont.ident);
            }
            let (class, inner) = syntax_checks::classify(ty);
            syntax_checks::check_attrs(cx, &attrs, class, inner);
        }
        Body::Enum(_) => syntax_checks::check_attrs(cx, &attrs, Class::String, None),
        Body::Union(u) => syntax_checks::check_attrs(cx, &attrs, u.class(), None),
        Body::Replaced => syntax_checks::check_attrs(cx, &attrs, Class::Unknown, None),
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

pub(crate) fn no_field_attrs(cx: &Ctxt, f: &ast::Field<'_>, hint: &str) {
    let a = attr::parse(cx, &f.original.attrs, Place::Field);
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

fn build_struct<'a>(
    cx: &Ctxt,
    cont: &ast::Container<'a>,
    cattrs: &Attrs,
    fields: &[ast::Field<'a>],
) -> Body<'a> {
    let container_default = !cont.attrs.default().is_none();
    let (out, names) = build_fields(cx, &cont.ident, container_default, fields);
    let one_of = one_of_groups(cx, cattrs, &names);
    Body::Struct {
        fields: out,
        one_of,
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
    container_default: bool,
    fields: &[ast::Field<'a>],
) -> (Vec<FieldModel<'a>>, FieldNames) {
    let mut out = Vec::new();
    // Rust field name -> (JSON name, explicitly required).
    let mut names: FieldNames = Vec::new();
    for f in fields {
        let a = attr::parse(cx, &f.original.attrs, Place::Field);
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
        let serde_optional = !f.attrs.default().is_none()
            || container_default
            || f.attrs.skip_serializing_if().is_some()
            || f.attrs.skip_serializing();
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
            });
            continue;
        }
        if (f.attrs.serialize_with().is_some() || f.attrs.deserialize_with().is_some())
            && !a.replaces()
        {
            cx.error(
                span,
                "`#[serde(with)]` changes how the field is written, so its type does not tell its schema: give it with `#[schema(with = path)]`, `#[schema(type = \"...\")]` or `#[schema(schemaless)]`",
            );
        }
        if !a.replaces() {
            syntax_checks::check_shape(cx, f.ty, self_ident);
        }
        let (class, inner) = syntax_checks::classify(f.ty);
        syntax_checks::check_attrs(cx, &a, class, inner);
        if let (Some(r), Some(_)) = (&a.required, &a.optional) {
            cx.error(r.span, "a field cannot be both `required` and `optional`");
        }
        let required = if Attrs::flag(&a.required) {
            Some(true)
        } else if Attrs::flag(&a.optional) || serde_optional {
            Some(false)
        } else if a.replaces() {
            Some(!syntax_checks::is_option(f.ty))
        } else {
            None
        };
        let description = a
            .description
            .as_ref()
            .map(|d| d.value.clone())
            .or_else(|| doc::description(&f.original.attrs));
        out.push(FieldModel {
            name,
            ty: f.ty,
            attrs: a,
            description,
            kind: FieldKind::Property { required },
        });
    }
    (out, names)
}

/// The one-of groups of a struct, with the fields' JSON names.
fn one_of_groups(cx: &Ctxt, cattrs: &Attrs, names: &FieldNames) -> Vec<(OneOfKind, Vec<String>)> {
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

pub(crate) fn opt_str(v: Option<&str>) -> TokenStream {
    match v {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

fn opt_num(v: &Option<attr::Val<Num>>) -> TokenStream {
    match v.as_ref().map(|v| v.value) {
        Some(Num::Int(i)) => quote!(::core::option::Option::Some(__sp::Num::Int(#i))),
        Some(Num::UInt(u)) => quote!(::core::option::Option::Some(__sp::Num::UInt(#u))),
        Some(Num::Float(f)) => quote!(::core::option::Option::Some(__sp::Num::Float(#f))),
        None => quote!(::core::option::Option::None),
    }
}

fn opt_i64(v: &Option<attr::Val<i64>>) -> TokenStream {
    match v.as_ref().map(|v| v.value) {
        Some(i) => quote!(::core::option::Option::Some(#i)),
        None => quote!(::core::option::Option::None),
    }
}

fn val_str(v: &Option<attr::Val<String>>) -> TokenStream {
    opt_str(v.as_ref().map(|v| v.value.as_str()))
}

/// The constant `__sp::Attrs` record of a node.
pub(crate) fn attrs_tokens(a: &Attrs, description: Option<&str>) -> TokenStream {
    if a.is_empty() && description.is_none() {
        return quote!(__sp::Attrs::EMPTY);
    }
    let description = opt_str(description);
    let title = val_str(&a.title);
    let type_ = val_str(&a.type_);
    let format = val_str(&a.format);
    let minimum = opt_num(&a.minimum);
    let maximum = opt_num(&a.maximum);
    let multiple_of = opt_num(&a.multiple_of);
    let exclusive_minimum = Attrs::flag(&a.exclusive_minimum);
    let exclusive_maximum = Attrs::flag(&a.exclusive_maximum);
    let min_length = opt_i64(&a.min_length);
    let max_length = opt_i64(&a.max_length);
    let pattern = val_str(&a.pattern);
    let min_items = opt_i64(&a.min_items);
    let max_items = opt_i64(&a.max_items);
    let unique_items = Attrs::flag(&a.unique_items);
    let min_properties = opt_i64(&a.min_properties);
    let max_properties = opt_i64(&a.max_properties);
    let enum_ = match &a.enum_ {
        Some(v) => {
            let values = &v.value;
            quote!(::core::option::Option::Some(&[#(#values),*]))
        }
        None => quote!(::core::option::Option::None),
    };
    let default = match &a.default {
        Some(v) => {
            let v = &v.value;
            quote!(::core::option::Option::Some(#v))
        }
        None => quote!(::core::option::Option::None),
    };
    let example = match &a.example {
        Some(v) => {
            let v = &v.value;
            quote!(::core::option::Option::Some(#v))
        }
        None => quote!(::core::option::Option::None),
    };
    let nullable = Attrs::flag(&a.nullable);
    let schemaless = Attrs::flag(&a.schemaless);
    let preserve_unknown_fields = Attrs::flag(&a.preserve_unknown_fields);
    let embedded_resource = Attrs::flag(&a.embedded_resource);
    let int_or_string = Attrs::flag(&a.int_or_string);
    let list_type = val_str(&a.list_type);
    let list_map_keys = match &a.list_map_keys {
        Some(v) => {
            let keys = &v.value;
            quote!(::core::option::Option::Some(&[#(#keys),*]))
        }
        None => quote!(::core::option::Option::None),
    };
    let junctors = a.junctors.iter().map(|(k, v)| {
        let v = v.value.tokens();
        quote!((#k, #v))
    });
    let set_keys = a.set_keys.iter().map(|(attr, v)| {
        let key = attr.key;
        let v = v.value.tokens();
        quote!((#key, #v))
    });
    let required_order = match &a.required_order {
        Some(v) => {
            let names = &v.value;
            quote!(::core::option::Option::Some(&[#(#names),*]))
        }
        None => quote!(::core::option::Option::None),
    };
    let map_type = val_str(&a.map_type);
    let struct_type = val_str(&a.struct_type);
    let rules = a.validations.iter().map(|r| {
        let r = &r.value;
        let rule = r
            .rule
            .as_ref()
            .map(|v| v.value.as_str())
            .unwrap_or_default();
        let message = val_str(&r.message);
        let message_expression = val_str(&r.message_expression);
        let reason = val_str(&r.reason);
        let field_path = val_str(&r.field_path);
        let optional_old_self = match &r.optional_old_self {
            Some(v) => {
                let b = v.value;
                quote!(::core::option::Option::Some(#b))
            }
            None => quote!(::core::option::Option::None),
        };
        quote!(__sp::Rule {
            rule: #rule,
            message: #message,
            message_expression: #message_expression,
            reason: #reason,
            field_path: #field_path,
            optional_old_self: #optional_old_self,
        })
    });
    let immutable = Attrs::flag(&a.immutable);
    let items = match &a.items {
        Some(items) => {
            let inner_description = items.value.description.as_ref().map(|d| d.value.as_str());
            let inner = attrs_tokens(&items.value, inner_description);
            quote!(::core::option::Option::Some(&#inner))
        }
        None => quote!(::core::option::Option::None),
    };
    let with = match &a.with {
        Some(w) => {
            let path = &w.value;
            quote_spanned!(w.span=> ::core::option::Option::Some(#path as fn(&mut _) -> _))
        }
        None => quote!(::core::option::Option::None),
    };
    quote!(__sp::Attrs {
        description: #description,
        title: #title,
        type_: #type_,
        format: #format,
        minimum: #minimum,
        maximum: #maximum,
        exclusive_minimum: #exclusive_minimum,
        exclusive_maximum: #exclusive_maximum,
        multiple_of: #multiple_of,
        min_length: #min_length,
        max_length: #max_length,
        pattern: #pattern,
        min_items: #min_items,
        max_items: #max_items,
        unique_items: #unique_items,
        min_properties: #min_properties,
        max_properties: #max_properties,
        enum_: #enum_,
        default: #default,
        example: #example,
        nullable: #nullable,
        schemaless: #schemaless,
        preserve_unknown_fields: #preserve_unknown_fields,
        embedded_resource: #embedded_resource,
        int_or_string: #int_or_string,
        list_type: #list_type,
        list_map_keys: #list_map_keys,
        junctors: &[#(#junctors),*],
        set_keys: &[#(#set_keys),*],
        required_order: #required_order,
        map_type: #map_type,
        struct_type: #struct_type,
        validations: &[#(#rules),*],
        immutable: #immutable,
        items: #items,
        with: #with,
    })
}

fn expand(m: &Model<'_>) -> TokenStream {
    let krate = &m.krate;
    let ident = m.ident;
    let mut generics = m.generics.clone();
    let type_params: Vec<syn::Ident> = generics.type_params().map(|t| t.ident.clone()).collect();
    {
        let where_clause = generics.make_where_clause();
        for t in &type_params {
            where_clause
                .predicates
                .push(syn::parse_quote!(#t: #krate::StructuralSchema));
        }
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let cattrs = attrs_tokens(&m.attrs, m.description.as_deref());
    let body = match &m.body {
        // A type with custom serialization: `#[schema(type = "string")]`
        // (or `with`, `schemaless`, `int_or_string`) on the type gives its
        // whole schema.
        _ if m.attrs.replaces() => quote! {
            const __CONTAINER: __sp::Attrs = #cattrs;
            __sp::node_replaced(cx, &__CONTAINER)
        },
        Body::Struct { fields, one_of } => {
            let fields = fields_tokens(fields);
            let groups = one_of.iter().map(|(kind, names)| {
                let kind = match kind {
                    OneOfKind::AtMost => quote!(__sp::OneOf::AtMost),
                    OneOfKind::Exactly => quote!(__sp::OneOf::Exactly),
                    OneOfKind::AtLeast => quote!(__sp::OneOf::AtLeast),
                };
                quote!((#kind, &[#(#names),*]))
            });
            quote! {
                const __CONTAINER: __sp::Attrs = #cattrs;
                let mut s = __sp::object();
                #fields
                __sp::finish_object(cx, &mut s, __flattened, &__CONTAINER, &[#(#groups),*]);
                s
            }
        }
        Body::Newtype(ty) => {
            if m.attrs.replaces() {
                quote! {
                    const __CONTAINER: __sp::Attrs = #cattrs;
                    __sp::node_replaced(cx, &__CONTAINER)
                }
            } else {
                let call = quote_spanned!(ty.span()=> __sp::node::<#ty>(cx, &__CONTAINER));
                quote! {
                    const __CONTAINER: __sp::Attrs = #cattrs;
                    #call
                }
            }
        }
        Body::Enum(values) => quote! {
            const __CONTAINER: __sp::Attrs = #cattrs;
            __sp::string_enum(cx, &[#(#values),*], &__CONTAINER)
        },
        Body::Union(u) => {
            let union = enums::expand(u, krate);
            quote! {
                const __CONTAINER: __sp::Attrs = #cattrs;
                #union
            }
        }
        // Handled by the first arm.
        Body::Replaced => quote! {
            const __CONTAINER: __sp::Attrs = #cattrs;
            __sp::node_replaced(cx, &__CONTAINER)
        },
    };
    let map_key = match &m.body {
        Body::Enum(_) => quote! {
            #[automatically_derived]
            impl #impl_generics #krate::rust::MapKey for #ident #ty_generics #where_clause {}
        },
        _ => TokenStream::new(),
    };
    let crd = m
        .crd
        .as_ref()
        .map(|c| crate::crd::expand(c, krate))
        .unwrap_or_default();
    quote! {
        #crd
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #krate::StructuralSchema for #ident #ty_generics #where_clause {
                fn schema(
                    cx: &mut #krate::rust::SchemaCx,
                ) -> #krate::wire::JsonSchemaProps {
                    use #krate::rust::__private as __sp;
                    #body
                }
            }
            #map_key
        };
    }
}

/// The statements that add the fields to the object `s` (with `cx` in
/// scope), each field's attributes as a constant. The rules of flattened
/// fields are left in `__flattened`, for the caller to append after the
/// object's own.
pub(crate) fn fields_tokens(fields: &[FieldModel<'_>]) -> TokenStream {
    let mut consts = Vec::new();
    let mut stmts = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let name = &f.name;
        let ty = f.ty;
        let c = quote::format_ident!("__FIELD_{}", i);
        match f.kind {
            FieldKind::Flatten { optional } => {
                stmts.push(quote_spanned!(ty.span()=>
                    __sp::flatten::<#ty>(cx, &mut s, &mut __flattened, #name, #optional);
                ));
            }
            FieldKind::Property { required } => {
                let a = attrs_tokens(&f.attrs, f.description.as_deref());
                consts.push(quote!(const #c: __sp::Attrs = #a;));
                if f.attrs.replaces() {
                    let required = required.unwrap_or(true);
                    stmts.push(quote!(
                        __sp::property_replaced(cx, &mut s, #name, #required, &#c);
                    ));
                } else {
                    let req = match required {
                        None => quote!(__sp::Req::Auto),
                        Some(true) => quote!(__sp::Req::Yes),
                        Some(false) => quote!(__sp::Req::No),
                    };
                    stmts.push(quote_spanned!(ty.span()=>
                        __sp::property::<#ty>(cx, &mut s, #name, #req, &#c);
                    ));
                }
            }
        }
    }
    quote! {
        #(#consts)*
        #[allow(unused_mut)]
        let mut __flattened = __sp::Flattened::default();
        #(#stmts)*
    }
}
