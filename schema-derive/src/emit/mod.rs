//! The third step: the checked model to code. `attrs.rs` writes the
//! constant attribute records and the fields' calls, `enums.rs` unions,
//! `crd.rs` the custom resource's root type; the code calls into
//! `schema_core::rust::__private`.

pub mod attrs;
pub mod crd;
pub mod enums;
pub mod kube;

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::model::{Body, Model};
use crate::parse::attrs::OneOfKind;
use attrs::{attrs_tokens, fields_tokens};

pub(crate) fn expand(m: &Model<'_>) -> TokenStream {
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
        .map(|c| crd::expand(c, krate))
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
