//! `#[derive(StructuralSchema)]`: Rust types to Kubernetes structural
//! schemas. Use it through `schema_core` (the `derive` feature, on by
//! default), which re-exports it next to the trait of the same name, as
//! serde does; the generated code names `::schema_core` (or the path given
//! with `#[schema(crate = "...")]`). `#[derive(JsonSchema)]` is the same
//! derive reading schemars' attributes too, re-exported as
//! `schema_core::kube::JsonSchema`.
//!
//! The attribute reference is in `schema_core::rust`'s documentation.
//!
//! This crate does not depend on `schema-core` (which re-exports it): the
//! checks it makes at compile time use only the syntax, the shared `goregex`
//! crate (RE2 pattern checking, Go's error texts) and the `cel` crate's
//! parser (CEL syntax errors).

mod checks;
mod ctxt;
mod derive;
mod emit;
mod model;
mod parse;
mod symbol;

use proc_macro::TokenStream;

use crate::ctxt::Dialect;

/// Derives `schema_core::StructuralSchema`. See `schema_core::rust` for the
/// `#[schema(...)]` attributes.
#[proc_macro_derive(StructuralSchema, attributes(schema))]
pub fn derive_structural_schema(input: TokenStream) -> TokenStream {
    expand(input, Dialect::Native)
}

/// Derives `schema_core::StructuralSchema` from the attributes schemars
/// reads: `#[schemars(...)]`, the constraints of `#[garde(...)]` and
/// `#[validate(...)]`, and serde's, besides `#[schema(...)]`, with
/// schemars' conventions (`Option` fields are nullable, serde's default
/// values are schema defaults). Use it as `schema_core::kube::JsonSchema`.
#[proc_macro_derive(JsonSchema, attributes(schema, schemars, serde, garde, validate))]
pub fn derive_json_schema(input: TokenStream) -> TokenStream {
    expand(input, Dialect::Schemars)
}

fn expand(input: TokenStream, dialect: Dialect) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(input) => derive::derive(&input, dialect).into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// Derives kube-derive's `CustomResource` from its own `#[kube(...)]`
/// attributes: the root type, `kube`'s traits and a CRD built and checked
/// by `schema_core`. Use it as `schema_core::kube::CustomResource` (the
/// `kube` feature); the spec implements `schema_core::StructuralSchema`.
#[proc_macro_derive(CustomResource, attributes(kube))]
pub fn derive_custom_resource(input: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(input) => derive::derive_custom_resource(&input).into(),
        Err(e) => e.to_compile_error().into(),
    }
}
