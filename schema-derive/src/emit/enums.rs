//! The expansion of an enum with data: one call into the runtime's
//! `Union`, with each variant's schema.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::emit::attrs::{attrs_tokens, fields_tokens};
use crate::model::enums::{Repr, Shape, Union};

/// The body of `schema(cx)` for a union (`__CONTAINER` is in scope).
pub fn expand(u: &Union<'_>, krate: &syn::Path) -> TokenStream {
    let ctor = match &u.repr {
        Repr::External if u.one_of_variants => quote!(__sp::Union::external_one_of()),
        Repr::External => quote!(__sp::Union::external()),
        Repr::Internal { tag } => quote!(__sp::Union::internal(#tag)),
        Repr::Adjacent { tag, content } => quote!(__sp::Union::adjacent(#tag, #content)),
        Repr::Untagged {
            merge_objects: false,
        } => quote!(__sp::Union::untagged()),
        Repr::Untagged {
            merge_objects: true,
        } => quote!(__sp::Union::untagged_objects()),
    };
    let mut stmts = Vec::new();
    for v in &u.variants {
        let name = &v.name;
        let attrs = attrs_tokens(&v.attrs, v.description.as_deref());
        let call = match &v.shape {
            Shape::Unit => {
                stmts.push(quote!(__u.unit(#name);));
                continue;
            }
            _ if v.attrs.replaces() => quote!(__u.replaced(cx, #name, &__VARIANT);),
            Shape::Newtype(ty) => {
                quote_spanned!(ty.span()=> __u.newtype::<#ty>(cx, #name, &__VARIANT);)
            }
            Shape::Fields(fields) if fields.is_empty() => {
                quote!(__u.fields(cx, #name, &__VARIANT, |_| __sp::object());)
            }
            Shape::Fields(fields) => {
                let fields = fields_tokens(fields);
                quote! {
                    __u.fields(cx, #name, &__VARIANT, |cx: &mut #krate::rust::SchemaCx| {
                        let mut s = __sp::object();
                        #fields
                        __flattened.append_to(&mut s);
                        s
                    });
                }
            }
        };
        stmts.push(quote! {{
            const __VARIANT: __sp::Attrs = #attrs;
            #call
        }});
    }
    quote! {
        let mut __u = #ctor;
        #(#stmts)*
        __u.finish(cx, &__CONTAINER)
    }
}
