//! The derive in three steps, as serde_derive does it: parse (serde's own
//! attributes through `serde_derive_internals`, ours through
//! [`crate::parse`]), build a checked model ([`crate::model`], every error
//! collected in the [`Ctxt`], which is checked before any code is
//! generated), emit ([`crate::emit`]).

use proc_macro2::TokenStream;
use serde_derive_internals::{Ctxt as SerdeCtxt, Derive, ast};

use crate::ctxt::{Ctxt, Dialect};
use crate::emit::expand;
use crate::model::build;

/// `#[derive(StructuralSchema)]` (`Dialect::Native`) or
/// `#[derive(JsonSchema)]` (`Dialect::Schemars`).
pub fn derive(input: &syn::DeriveInput, dialect: Dialect) -> TokenStream {
    let cx = Ctxt::new(dialect);
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
            match dialect {
                Dialect::Native => "StructuralSchema cannot be derived for this type",
                Dialect::Schemars => "JsonSchema cannot be derived for this type",
            },
        )
        .to_compile_error(),
    }
}

/// `#[derive(CustomResource)]`: kube-derive's attributes (`#[kube(...)]`)
/// to the root type and its implementations.
pub fn derive_custom_resource(input: &syn::DeriveInput) -> TokenStream {
    let cx = Ctxt::new(Dialect::Native);
    let model = crate::model::kube::build(&cx, input);
    match (cx.check(), model) {
        (Err(errors), _) => errors,
        (Ok(()), Some(m)) => crate::emit::kube::expand(&m),
        // Every path that gives no model reports why; this is a backstop.
        (Ok(()), None) => syn::Error::new(
            input.ident.span(),
            "CustomResource cannot be derived for this type",
        )
        .to_compile_error(),
    }
}
