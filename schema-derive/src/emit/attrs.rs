//! The constant `__sp::Attrs` record of a node and the calls that add a
//! struct's fields to its schema.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::model::fields::{DefaultValue, FieldKind, FieldModel, SchemaDefault};
use crate::parse::attrs::{Attrs, Num};
use crate::parse::json::Json;
use crate::parse::schemars::Keywords;
use crate::parse::values::Val;

pub(crate) fn opt_str(v: Option<&str>) -> TokenStream {
    match v {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

fn opt_num(v: &Option<Val<Num>>) -> TokenStream {
    match v.as_ref().map(|v| v.value) {
        Some(Num::Int(i)) => quote!(::core::option::Option::Some(__sp::Num::Int(#i))),
        Some(Num::UInt(u)) => quote!(::core::option::Option::Some(__sp::Num::UInt(#u))),
        Some(Num::Float(f)) => quote!(::core::option::Option::Some(__sp::Num::Float(#f))),
        None => quote!(::core::option::Option::None),
    }
}

fn opt_i64(v: &Option<Val<i64>>) -> TokenStream {
    match v.as_ref().map(|v| v.value) {
        Some(i) => quote!(::core::option::Option::Some(#i)),
        None => quote!(::core::option::Option::None),
    }
}

fn val_str(v: &Option<Val<String>>) -> TokenStream {
    opt_str(v.as_ref().map(|v| v.value.as_str()))
}

/// The constant `__sp::Attrs` record of a node.
pub(crate) fn attrs_tokens(a: &Attrs, description: Option<&str>) -> TokenStream {
    // (A title may come from a doc comment, schemars' `# heading`.)
    if a.is_empty() && description.is_none() && a.title.is_none() {
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
    let with = match (&a.with, &a.schemars.schema_with) {
        (Some(w), _) => {
            let path = &w.value;
            quote_spanned!(w.span=> ::core::option::Option::Some(#path as fn(&mut _) -> _))
        }
        // A schemars `Schema`, converted through the wire model.
        (None, Some(w)) => {
            let path = &w.value;
            quote_spanned!(w.span=> ::core::option::Option::Some(
                (|cx: &mut __sp::SchemaCx| __sp::from_schemars(cx, #path))
                    as fn(&mut __sp::SchemaCx) -> __sp::Schema
            ))
        }
        (None, None) => quote!(::core::option::Option::None),
    };
    let schemars = if a.schemars.keywords.is_empty() && a.schemars.extend.is_empty() {
        quote!(::core::option::Option::None)
    } else {
        let k = keywords_tokens(&a.schemars.keywords, &a.schemars.extend);
        quote!(::core::option::Option::Some(&#k))
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
        schemars: #schemars,
    })
}

/// The constant `__sp::SchemarsKeywords` of a node: each expression
/// evaluated when the schema is built, as schemars evaluates it.
fn keywords_tokens(k: &Keywords, extend: &[(String, Val<Json>)]) -> TokenStream {
    let value = |e: &Option<syn::Expr>| match e {
        Some(e) => quote_spanned!(e.span()=> ::core::option::Option::Some(
            (|| __sp::JsonValue::from(#e)) as fn() -> __sp::JsonValue
        )),
        None => quote!(::core::option::Option::None),
    };
    let text = |e: &Option<syn::Expr>| match e {
        Some(e) => quote_spanned!(e.span()=> ::core::option::Option::Some(
            (|| (#e).to_string()) as fn() -> ::std::string::String
        )),
        None => quote!(::core::option::Option::None),
    };
    let length_min = value(&k.length_min);
    let length_max = value(&k.length_max);
    let range_min = value(&k.range_min);
    let range_max = value(&k.range_max);
    let pattern = text(&k.pattern);
    let contains = text(&k.contains);
    let format = opt_str(k.format);
    let inner = match &k.inner {
        Some(inner) => {
            let t = keywords_tokens(inner, &[]);
            quote!(::core::option::Option::Some(&#t))
        }
        None => quote!(::core::option::Option::None),
    };
    let extend = extend.iter().map(|(key, v)| {
        let v = v.value.tokens();
        quote!((#key, #v))
    });
    quote!(__sp::SchemarsKeywords {
        length_min: #length_min,
        length_max: #length_max,
        range_min: #range_min,
        range_max: #range_max,
        pattern: #pattern,
        contains: #contains,
        format: #format,
        inner: #inner,
        extend: &[#(#extend),*],
    })
}

/// The expression of a field's schema default: `Option<JsonValue>`, the
/// value serialized when its type implements `Serialize`.
fn default_tokens(d: &SchemaDefault, ty: &syn::Type) -> TokenStream {
    let value = match &d.value {
        DefaultValue::Trait => quote!(<#ty as ::core::default::Default>::default()),
        DefaultValue::Path(p) => quote!(#p()),
        DefaultValue::ContainerField { container, member } => {
            let c = match container {
                Some(p) => quote!(#p()),
                None => quote!(<Self as ::core::default::Default>::default()),
            };
            quote!({
                let __container: Self = #c;
                __container.#member
            })
        }
    };
    let json = match &d.serialize_with {
        // Written as serde writes the field.
        Some(with) => quote!({
            struct __SerializeWith<'a>(&'a #ty);
            impl __sp::serde::Serialize for __SerializeWith<'_> {
                fn serialize<S: __sp::serde::Serializer>(
                    &self,
                    serializer: S,
                ) -> ::core::result::Result<S::Ok, S::Error> {
                    #with(self.0, serializer)
                }
            }
            __sp::MaybeSerialize(&__SerializeWith(&__value)).to_json()
        }),
        None => quote!(__sp::MaybeSerialize(&__value).to_json()),
    };
    let json = match &d.skip_if {
        Some(skip) => quote!(if #skip(&__value) {
            ::core::option::Option::None
        } else {
            #json
        }),
        None => json,
    };
    quote!({
        #[allow(unused_imports)]
        use __sp::NotSerialize as _;
        let __value: #ty = #value;
        #json
    })
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
                    // schemars' `with = "Type"`: that type's schema.
                    let ty = f.attrs.schemars.with_type.as_ref().map_or(ty, |t| &t.value);
                    stmts.push(quote_spanned!(ty.span()=>
                        __sp::property::<#ty>(cx, &mut s, #name, #req, &#c);
                    ));
                    if f.schemars.as_ref().is_some_and(|sf| sf.nullable_option) {
                        stmts.push(quote_spanned!(ty.span()=>
                            __sp::nullable_option::<#ty>(&mut s, #name);
                        ));
                    }
                }
                if let Some(d) = f.schemars.as_ref().and_then(|sf| sf.default.as_ref()) {
                    let value = default_tokens(d, ty);
                    stmts.push(quote!(__sp::schema_default(&mut s, #name, #value);));
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
