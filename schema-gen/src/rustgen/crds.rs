//! The generated `crds()`: the CRDs of a file rebuilt from its types.

use proc_macro2::TokenStream;
use quote::quote;
use schema_core::KubeVersion;
use schema_core::model::wire::CustomResourceDefinition;

/// The name of `crd` (empty when it has none), which groups its versions.
pub(super) fn crd_key(crd: &CustomResourceDefinition) -> String {
    crd.name().unwrap_or_default().to_string()
}

/// `pub fn crds()`: every CRD of the file, its versions merged, in input
/// order.
pub(super) fn crds_fn(
    exprs: &mut [((usize, usize), String, TokenStream)],
    kube: Option<KubeVersion>,
) -> TokenStream {
    exprs.sort_by_key(|e| e.0);
    let mut order: Vec<&String> = Vec::new();
    for (_, k, _) in exprs.iter() {
        if !order.contains(&k) {
            order.push(k);
        }
    }
    let per_crd = order.iter().map(|k| {
        let versions = exprs.iter().filter(|(_, kk, _)| kk == *k).map(|(_, _, root)| {
            match kube {
                None => quote!(<#root as ::schema_core::rust::CustomResource>::crd().map_err(::schema_core::rust::MergeError::Invalid)?),
                Some(_) => quote!(<#root as ::schema_core::rust::CustomResource>::crd_with(&options).map_err(::schema_core::rust::MergeError::Invalid)?),
            }
        });
        match kube {
            None => quote! {
                ::schema_core::rust::merge_crds(&[#(#versions),*])?
            },
            Some(_) => quote! {
                ::schema_core::rust::merge_crds_with(&[#(#versions),*], &options)?
            },
        }
    });
    let release = kube.map(|k| {
        let minor = proc_macro2::Literal::u32_unsuffixed(k.minor());
        quote! {
            // The release the CRDs are validated for.
            let kube = match ::schema_core::KubeVersion::new(#minor) {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => ::schema_core::KubeVersion::NEWEST,
            };
            let options = ::schema_core::Options::new().with_kube_version(kube);
        }
    });
    quote! {
        /// The CRDs of this file rebuilt from the types: every version of
        /// every CRD, in input order.
        ///
        /// # Errors
        ///
        /// The first CRD that cannot be built or merged.
        pub fn crds() -> ::core::result::Result<
            ::std::vec::Vec<::schema_core::wire::CustomResourceDefinition>,
            ::schema_core::rust::MergeError,
        > {
            #release
            ::core::result::Result::Ok(::std::vec![#(#per_crd),*])
        }
    }
}
