//! The expansion of `#[derive(CustomResource)]`: the root type and its
//! implementations as `crd(...)` generates them, plus what kube-derive's
//! root has besides: kube's `HasSpec` and `HasStatus`, `Default` when
//! asked for, and `validate_cel`/`validate_cel_update` with `cel`.

use proc_macro2::TokenStream;
use quote::quote;

use crate::emit::crd;
use crate::model::kube::KubeModel;

/// The root type and its implementations.
pub fn expand(m: &KubeModel) -> TokenStream {
    let krate = &m.krate;
    let base = crd::expand(&m.crd, krate);
    let root = &m.crd.root;
    let spec = &m.crd.spec;
    let kube_core = quote!(#krate::rust::__private::crd::kube_core);
    let has_status = m.crd.status.as_ref().map(|status| {
        quote! {
            #[automatically_derived]
            impl #kube_core::object::HasStatus for #root {
                type Status = #status;

                fn status(&self) -> ::core::option::Option<&#status> {
                    self.status.as_ref()
                }

                fn status_mut(&mut self) -> &mut ::core::option::Option<#status> {
                    &mut self.status
                }
            }
        }
    });
    let status_init = m
        .crd
        .status
        .as_ref()
        .map(|_| quote!(status: ::core::option::Option::None,));
    let default = m.default.then(|| {
        quote! {
            #[automatically_derived]
            impl ::core::default::Default for #root {
                fn default() -> Self {
                    Self {
                        metadata: ::core::default::Default::default(),
                        spec: ::core::default::Default::default(),
                        #status_init
                    }
                }
            }
        }
    });
    let cel = m.cel.then(|| {
        quote! {
            #[automatically_derived]
            impl #root {
                /// Evaluates the CEL rules of the CRD's schema
                /// (`x-kubernetes-validations`) on this resource as the API
                /// server does on a create, without one.
                ///
                /// # Errors
                ///
                /// Every rule that fails, or why the CRD cannot be built.
                pub fn validate_cel(&self) -> ::core::result::Result<(), #krate::rust::CelValidationError> {
                    #krate::rust::validate_cel(self, ::core::option::Option::None)
                }

                /// Evaluates the CEL rules on this resource as an update
                /// of `old` (transition rules, with `oldSelf`, included).
                ///
                /// # Errors
                ///
                /// As [`Self::validate_cel`].
                pub fn validate_cel_update(&self, old: &Self) -> ::core::result::Result<(), #krate::rust::CelValidationError> {
                    #krate::rust::validate_cel(self, ::core::option::Option::Some(old))
                }
            }
        }
    });
    let rule_exprs = &m.rule_exprs;
    let rule_exprs = (!rule_exprs.is_empty()).then(|| {
        quote! {
            const _: fn() = || {
                #(let _ = #rule_exprs;)*
            };
        }
    });
    quote! {
        #base
        #rule_exprs

        const _: () = {
            #[automatically_derived]
            impl #kube_core::object::HasSpec for #root {
                type Spec = #spec;

                fn spec(&self) -> &#spec {
                    &self.spec
                }

                fn spec_mut(&mut self) -> &mut #spec {
                    &mut self.spec
                }
            }

            #has_status
            #default
            #cel
        };
    }
}
