//! The expansion of `crd(...)`: the root type, its serde implementations,
//! `CustomResource` and, through a macro of `schema_core` whose body
//! depends on its features, the k8s-openapi traits.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};

use crate::emit::attrs::{attrs_tokens, opt_str};
use crate::model::crd::{ColumnModel, CrdModel};

/// The root type and its implementations.
pub fn expand(m: &CrdModel, krate: &syn::Path) -> TokenStream {
    let CrdModel {
        root,
        spec,
        vis,
        group,
        version,
        kind,
        plural,
        singular,
        list_kind,
        short_names,
        categories,
        namespaced,
        status,
        status_subresource,
        spec_optional,
        ..
    } = m;
    let api_version = format!("{group}/{version}");
    let crd_name = format!("{plural}.{group}");
    let scope = if *namespaced {
        quote!(#krate::rust::Scope::Namespaced)
    } else {
        quote!(#krate::rust::Scope::Cluster)
    };
    let struct_doc = match &m.doc {
        Some(d) => d.clone(),
        None => {
            format!("The `{kind}` custom resource (`{api_version}`), whose spec is [`{spec}`].")
        }
    };
    let spec_ty = if *spec_optional {
        quote!(::core::option::Option<#spec>)
    } else {
        quote!(#spec)
    };
    let spec_value = if *spec_optional {
        quote!(::core::option::Option::Some(spec))
    } else {
        quote!(spec)
    };
    let spec_ref = if *spec_optional {
        quote!(self.spec.as_ref())
    } else {
        quote!(::core::option::Option::Some(&self.spec))
    };
    let status_field = status.as_ref().map(|s| {
        quote! {
            /// The status, written by the controller.
            pub status: ::core::option::Option<#s>,
        }
    });
    let status_init = status
        .as_ref()
        .map(|_| quote!(status: ::core::option::Option::None,));
    let status_ref = match status {
        Some(_) => quote!(self.status.as_ref()),
        None => quote!(::core::option::Option::None::<&()>),
    };
    let status_in = match status {
        Some(s) => quote!(#s),
        None => quote!(__sp::crd::IgnoredAny),
    };
    let status_take = status.as_ref().map(|_| quote!(status: __r.status,));
    let status_schema = match status {
        Some(s) => quote!(::core::option::Option::Some(__sp::crd::schema_of::<#s>)),
        None => quote!(::core::option::Option::None),
    };
    let scale = match &m.scale {
        Some((spec_path, status_path, selector)) => {
            let selector = opt_str(selector.as_deref());
            quote!(::core::option::Option::Some(__sp::crd::ScaleDef {
                spec_replicas_path: #spec_path,
                status_replicas_path: #status_path,
                label_selector_path: #selector,
            }))
        }
        None => quote!(::core::option::Option::None),
    };
    let columns = m.columns.iter().map(|c| {
        let ColumnModel {
            name,
            type_,
            json_path,
            ..
        } = c;
        let description = opt_str(c.description.as_deref());
        let format = opt_str(c.format.as_deref());
        let priority = match c.priority {
            Some(p) => quote!(::core::option::Option::Some(#p)),
            None => quote!(::core::option::Option::None),
        };
        quote!(__sp::crd::ColumnDef {
            name: #name,
            type_: #type_,
            format: #format,
            description: #description,
            priority: #priority,
            json_path: #json_path,
        })
    });
    let selectable_fields = &m.selectable_fields;
    let served = m.served;
    let storage = m.storage;
    let deprecated = m.deprecated;
    let deprecation_warning = opt_str(m.deprecation_warning.as_deref());
    let description = opt_str(m.doc.as_deref());
    let root_name = m.root.to_string();
    let title = opt_str(m.extras.kube_root.then_some(root_name.as_str()));
    let status_nullable = m.extras.kube_root;
    let max_description_len = match m.max_description_len {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    let root_str = root.to_string();
    let omitted_names = &m.omitted_names;
    let empty_subresources = m.empty_subresources;
    let generate_embedded_object_meta = m.generate_embedded_object_meta;
    let annotations = m.annotations.iter().map(|(k, v)| quote!((#k, #v)));
    let labels = m.labels.iter().map(|(k, v)| quote!((#k, #v)));
    let preserve_unknown_fields = match m.preserve_unknown_fields {
        Some(b) => quote!(::core::option::Option::Some(#b)),
        None => quote!(::core::option::Option::None),
    };
    let conversion = m.conversion.as_ref().map(|c| {
        let c = c.tokens();
        quote! {
            fn conversion() -> ::core::option::Option<__sp::JsonValue> {
                ::core::option::Option::Some((#c).to_value())
            }
        }
    });
    let (spec_type, root_def) = match &m.object_root {
        Some(o) => (
            o.spec.to_token_stream(),
            quote!(__sp::crd::RootDef::Object(__sp::crd::schema_of::<#root>)),
        ),
        None if m.extras.no_schema => (quote!(#spec), quote!(__sp::crd::RootDef::Absent)),
        None => (
            quote!(#spec),
            quote!(__sp::crd::RootDef::Generated {
                spec: __sp::crd::schema_of::<#spec>,
                spec_optional: #spec_optional,
                status: #status_schema,
                description: #description,
                title: #title,
                status_nullable: #status_nullable,
            }),
        ),
    };
    let (root_rules_fn, root_rules) = match &m.extras.rules {
        Some(rules) => {
            let record = attrs_tokens(rules, None);
            (
                quote! {
                    fn __root_rules(
                        cx: &mut #krate::rust::SchemaCx,
                        s: &mut #krate::wire::JsonSchemaProps,
                    ) {
                        const __ROOT: __sp::Attrs = #record;
                        __sp::apply(cx, s, &__ROOT);
                    }
                },
                quote!(::core::option::Option::Some(__root_rules)),
            )
        }
        None => (quote!(), quote!(::core::option::Option::None)),
    };
    let custom_resource = quote! {
            #[automatically_derived]
            impl #krate::rust::CustomResource for #root {
                type Spec = #spec_type;
                const GROUP: &'static str = #group;
                const VERSION: &'static str = #version;
                const KIND: &'static str = #kind;
                const API_VERSION: &'static str = #api_version;
                const PLURAL: &'static str = #plural;
                const SINGULAR: &'static str = #singular;
                const LIST_KIND: &'static str = #list_kind;
                const SHORT_NAMES: &'static [&'static str] = &[#(#short_names),*];
                const CATEGORIES: &'static [&'static str] = &[#(#categories),*];
                const SCOPE: #krate::rust::Scope = #scope;
                const CRD_NAME: &'static str = #crd_name;
                const OMITTED_NAMES: &'static [&'static str] = &[#(#omitted_names),*];
                const ANNOTATIONS: &'static [(&'static str, &'static str)] = &[#(#annotations),*];
                const LABELS: &'static [(&'static str, &'static str)] = &[#(#labels),*];
                const PRESERVE_UNKNOWN_FIELDS: ::core::option::Option<bool> = #preserve_unknown_fields;
                #conversion

                fn crd_version() -> ::core::result::Result<
                    #krate::wire::CrdVersion,
                    #krate::rust::CrdError,
                > {
                    #root_rules_fn
                    const __DEF: __sp::crd::CrdDef = __sp::crd::CrdDef {
                        root: #root_str,
                        version: #version,
                        schema: #root_def,
                        root_rules: #root_rules,
                        status_subresource: #status_subresource,
                        empty_subresources: #empty_subresources,
                        scale: #scale,
                        printer_columns: &[#(#columns),*],
                        selectable_fields: &[#(#selectable_fields),*],
                        served: #served,
                        storage: #storage,
                        deprecated: #deprecated,
                        deprecation_warning: #deprecation_warning,
                        max_description_len: #max_description_len,
                        generate_embedded_object_meta: #generate_embedded_object_meta,
                    };
                    __sp::crd::crd_version(&__DEF)
                }
            }

    };
    let k8s = quote_spanned!(root.span()=>
        #krate::__impl_k8s_resource!(#root, #api_version, #group, #kind, #version, #plural, #list_kind, #namespaced);
        #krate::__impl_kube!(#root);
    );
    let plural_warning = m.plural_warning.as_ref().map(|(span, note)| {
        quote_spanned! {*span=>
            const _: () = {
                #[deprecated(note = #note)]
                struct PluralDiffersFromKubeDerive;
                let _ = PluralDiffersFromKubeDerive;
            };
        }
    });
    if m.object_root.is_some() {
        return quote! {
            #plural_warning
            const _: () = {
                use #krate::rust::__private as __sp;

                #custom_resource

                #k8s
            };
        };
    }
    let derives = &m.extras.derives;
    // kube-derive's `new` gives the object the CRD's annotations and labels.
    let new_meta = m.extras.labels_on_new.then(|| {
        let map = |pairs: &[(String, String)]| {
            if pairs.is_empty() {
                return quote!(::core::option::Option::None);
            }
            let entries = pairs.iter().map(|(k, v)| {
                quote!((::std::string::ToString::to_string(#k), ::std::string::ToString::to_string(#v)))
            });
            quote!(::core::option::Option::Some(::std::collections::BTreeMap::from([#(#entries),*])))
        };
        let annotations = map(&m.annotations);
        let labels = map(&m.labels);
        quote!(annotations: #annotations, labels: #labels,)
    });
    let root_attrs = &m.extras.attrs;
    quote! {
        #plural_warning
        #[doc = #struct_doc]
        #[derive(::core::clone::Clone, ::core::fmt::Debug #(, #derives)*)]
        #(#[#root_attrs])*
        #vis struct #root {
            /// Standard object metadata.
            pub metadata: #krate::rust::ObjectMeta,
            /// The spec: the desired state.
            pub spec: #spec_ty,
            #status_field
        }

        const _: () = {
            use #krate::rust::__private as __sp;

            #[automatically_derived]
            impl #root {
                /// A resource named `name` with `spec`, other metadata
                /// empty and no status.
                pub fn new(name: &str, spec: #spec) -> Self {
                    Self {
                        metadata: #krate::rust::ObjectMeta {
                            name: ::core::option::Option::Some(::std::string::ToString::to_string(name)),
                            #new_meta
                            ..::core::default::Default::default()
                        },
                        spec: #spec_value,
                        #status_init
                    }
                }
            }

            #custom_resource

            #[automatically_derived]
            impl __sp::crd::serde::Serialize for #root {
                fn serialize<__S>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error>
                where
                    __S: __sp::crd::serde::Serializer,
                {
                    __sp::crd::serde::Serialize::serialize(
                        &__sp::crd::RootOut {
                            api_version: #api_version,
                            kind: #kind,
                            metadata: &self.metadata,
                            spec: #spec_ref,
                            status: #status_ref,
                        },
                        serializer,
                    )
                }
            }

            #[automatically_derived]
            impl<'de> __sp::crd::serde::Deserialize<'de> for #root {
                fn deserialize<__D>(deserializer: __D) -> ::core::result::Result<Self, __D::Error>
                where
                    __D: __sp::crd::serde::Deserializer<'de>,
                {
                    let __r: __sp::crd::RootIn<#spec_ty, #status_in> =
                        __sp::crd::serde::Deserialize::deserialize(deserializer)?;
                    __sp::crd::check_type_meta::<__D::Error>(&__r.api_version, &__r.kind, #api_version, #kind)?;
                    ::core::result::Result::Ok(Self {
                        metadata: __r.metadata,
                        spec: __r.spec,
                        #status_take
                    })
                }
            }

            #k8s
        };
    }
}
