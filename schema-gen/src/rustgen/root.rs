//! The root type of each CRD version: which versions are generated, and
//! the struct of a version's root schema with its `crd(...)` attributes.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use schema_core::model::wire::{CrdVersion, CustomResourceDefinition};
use serde_json::Value;

use super::crds::crd_key;
use super::space::{self, Attr, AttrValue, Ty, TypeSpace};
use super::{GenError, Options, emit, names};

/// One version of one CRD, as the generator sees it.
pub(super) struct VersionInput<'a> {
    pub(super) crd: &'a CustomResourceDefinition,
    pub(super) version: &'a CrdVersion,
    /// The document's index in the file.
    pub(super) doc: usize,
    /// The version's index in the CRD.
    pub(super) index: usize,
}

/// Adds the wanted versions of `crd` (document `doc`) to `modules`, one
/// module per version name, in first-seen `order`.
pub(super) fn collect_versions<'a>(
    opts: &Options,
    crd: &'a CustomResourceDefinition,
    doc: usize,
    modules: &mut BTreeMap<String, Vec<VersionInput<'a>>>,
    order: &mut Vec<String>,
) -> Result<(), GenError> {
    let Some(spec) = &crd.spec else {
        return Ok(());
    };
    for (i, v) in spec.versions.iter().flatten().enumerate() {
        let name = v.name.clone().unwrap_or_default();
        // Every version by default, served or not: `crds()` gives back
        // the CRD.
        let wanted = opts.versions.is_empty() || opts.versions.contains(&name);
        if !wanted {
            continue;
        }
        let module = names::field_name(&name);
        if !modules.contains_key(&module) {
            order.push(module.clone());
        }
        modules.entry(module).or_default().push(VersionInput {
            crd,
            version: v,
            doc,
            index: i,
        });
    }
    Ok(())
}

/// The root type of one version, mapped (see [`root_def`]).
pub(super) struct RootDef {
    name: String,
    def: space::StructDef,
    /// The container attributes, `crd(...)` first.
    cattrs: Vec<Attr>,
    description: Option<String>,
}

/// The root type of one version: a struct of the root schema's own
/// properties with `crd(object_root, ...)`, so that the derive gives back
/// the root schema exactly, whatever its shape. `apiVersion`, `kind` and
/// `metadata` are fields even when the schema does not name them (left
/// out of the schema with `skip`): every API object has them, and kube
/// reads them. `apiVersion` and `kind` are `String`s (empty when absent,
/// and then not written) unless the schema requires them, makes them
/// nullable or gives them another type. `metadata` is schema-core's
/// `ObjectMeta`.
pub(super) fn root_def(
    opts: &Options,
    space: &mut TypeSpace,
    v: &VersionInput<'_>,
    root_name: &str,
    schema: &Value,
    path: &str,
    warnings: &mut Vec<String>,
) -> Result<RootDef, GenError> {
    let n = schema
        .as_object()
        .ok_or_else(|| GenError::at(path, "the schema must be an object"))?;
    let keeps_unknown = n.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true));
    if n.get("type").and_then(Value::as_str) != Some("object")
        || !(n.contains_key("properties") || keeps_unknown)
    {
        return Err(GenError::at(
            path,
            "the root schema must be an object with properties (or one that keeps unknown fields) to become a Rust type",
        ));
    }
    let mut def = space.struct_def(opts, n, path, root_name, 0)?;
    let props = n
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    // `metadata`: schema-core's `ObjectMeta`, whose own schema is
    // `{type: object}`; kept out of the schema when the schema has none.
    match props.get("metadata") {
        Some(m) => {
            let plain = m.as_object().is_some_and(|m| {
                m.get("type").and_then(Value::as_str) == Some("object")
                    && m.keys().all(|k| k == "type" || k == "description")
            });
            if !plain {
                return Err(GenError::at(
                    format!("{path}.properties[metadata]"),
                    "a root `metadata` other than `{type: object}` (with a description) has no Rust mapping: kube needs `ObjectMeta` there",
                ));
            }
            if let Some(f) = def.fields.iter_mut().find(|f| f.json_name == "metadata") {
                f.mapped.ty = Ty::ObjectMeta;
                f.serde_default = !f.required;
            }
        }
        None => def.fields.insert(
            0,
            space::Field::skipped("metadata", "metadata", Ty::ObjectMeta, true),
        ),
    }
    // `apiVersion` and `kind`: `String`s that `new` sets and an empty
    // value leaves out, as kube users expect, when the schema does not
    // require them (or names them not at all); serde's `default` keeps
    // them optional in the schema.
    for f in &mut def.fields {
        if matches!(f.json_name.as_str(), "apiVersion" | "kind")
            && f.mapped.ty == Ty::String
            && !f.required
            && !f.nullable
        {
            f.serde_default = true;
        }
    }
    for (json, rust) in [("kind", "kind"), ("apiVersion", "api_version")] {
        if !props.contains_key(json) {
            def.fields
                .insert(0, space::Field::skipped(json, rust, Ty::String, true));
        }
    }
    let mut cattrs = vec![crd_attr(v, &props, warnings)];
    cattrs.extend(space.root_attrs(n, path)?);
    if let Some(order) = &def.required_order {
        cattrs.push(Attr {
            key: "required_order",
            value: AttrValue::StrList(order.clone()),
        });
    }
    Ok(RootDef {
        name: root_name.to_string(),
        def,
        cattrs,
        description: n
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
    })
}

/// The tokens of a mapped root type.
pub(super) fn root_tokens(opts: &Options, space: &TypeSpace, r: &RootDef) -> TokenStream {
    let RootDef {
        name,
        def,
        cattrs,
        description,
    } = r;
    let description = description.as_deref();
    let doc = emit::doc_lines(opts, description);
    let mut cattrs = cattrs.clone();
    cattrs.extend(emit::description_attr(opts, description));
    let name = format_ident!("{}", name);
    let fields = def
        .fields
        .iter()
        .map(|f| emit::field_tokens(opts, space, f));
    let schema = emit::schema_attr(&cattrs);
    let derives = emit::derives(opts);
    let new = root_new(space, def, &name);
    let extra = if def.preserve_unknown {
        quote! {
            /// The fields the schema does not name (it keeps unknown fields).
            #[serde(flatten)]
            pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
        }
    } else {
        TokenStream::new()
    };
    quote! {
        #doc
        #derives
        #schema
        pub struct #name {
            #(#fields)*
            #extra
        }
        #new
    }
}

/// `Root::new(name, spec)`: `apiVersion` and `kind` set, the name in the
/// metadata, everything else empty; only when every other field can be
/// empty.
fn root_new(space: &TypeSpace, def: &space::StructDef, name: &syn::Ident) -> TokenStream {
    let mut params = Vec::new();
    let mut inits = Vec::new();
    for f in &def.fields {
        let field: TokenStream = f.rust_name.parse().unwrap_or_default();
        let optional = f.is_option();
        let init = match f.json_name.as_str() {
            "apiVersion" | "kind" => {
                let c = if f.json_name == "kind" {
                    quote!(KIND)
                } else {
                    quote!(API_VERSION)
                };
                let v = quote!(::std::string::ToString::to_string(<Self as ::schema_core::rust::CustomResource>::#c));
                if optional {
                    quote!(::core::option::Option::Some(#v))
                } else {
                    v
                }
            }
            "metadata" => quote!(::schema_core::rust::ObjectMeta {
                name: ::core::option::Option::Some(::std::string::ToString::to_string(name)),
                ..::core::default::Default::default()
            }),
            "spec" => {
                let ty = emit::ty_tokens(space, &f.mapped.ty);
                params.push(quote!(spec: #ty));
                if optional {
                    quote!(::core::option::Option::Some(spec))
                } else {
                    quote!(spec)
                }
            }
            _ if optional => quote!(::core::option::Option::None),
            _ if f.serde_default => quote!(::core::default::Default::default()),
            // A required field besides the spec: no constructor.
            _ => return TokenStream::new(),
        };
        if init.to_string() == f.rust_name {
            inits.push(quote!(#field,));
        } else {
            inits.push(quote!(#field: #init,));
        }
    }
    if def.preserve_unknown {
        inits.push(quote!(extra: ::serde_json::Map::new(),));
    }
    let spec_doc = if params.is_empty() {
        ""
    } else {
        " with `spec`"
    };
    let doc = format!(
        " A `{name}` named `name`{spec_doc}: `apiVersion` and `kind` set, everything else empty."
    );
    quote! {
        impl #name {
            #[doc = #doc]
            pub fn new(name: &str #(, #params)*) -> Self {
                Self {
                    #(#inits)*
                }
            }
        }
    }
}

/// Whether a `spec.conversion` (as JSON) is a webhook whose client
/// config names neither a URL nor a service's name and namespace.
fn webhook_without_target(conversion: &Value) -> bool {
    let Some(config) = conversion.pointer("/webhook/clientConfig") else {
        return false;
    };
    let has = |p: &str| {
        config
            .pointer(p)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty())
    };
    config.get("url").is_none() && !(has("/service/name") && has("/service/namespace"))
}

fn str_attr(key: &'static str, v: &str) -> Attr {
    Attr {
        key,
        value: AttrValue::Str(v.to_string()),
    }
}

fn json_attr(key: &'static str, v: impl Into<Value>) -> Attr {
    Attr {
        key,
        value: AttrValue::Json(v.into()),
    }
}

fn flag(key: &'static str) -> Attr {
    Attr {
        key,
        value: AttrValue::Flag,
    }
}

/// `crd(...)` of a version: everything of the CRD `crds()` gives back,
/// the CRD-wide settings (labels, annotations, conversion,
/// `preserveUnknownFields: false`) on every version alike. What the
/// attributes cannot say (`preserveUnknownFields: true`) is a warning.
fn crd_attr(
    v: &VersionInput<'_>,
    props: &serde_json::Map<String, Value>,
    warnings: &mut Vec<String>,
) -> Attr {
    let spec = v.crd.spec.clone().unwrap_or_default();
    let names = spec.names.clone().unwrap_or_default();
    let mut inner = vec![
        str_attr("group", spec.group.as_deref().unwrap_or_default()),
        str_attr("version", v.version.name.as_deref().unwrap_or_default()),
        str_attr("kind", names.kind.as_deref().unwrap_or_default()),
    ];
    if let Some(p) = &names.plural {
        inner.push(str_attr("plural", p));
    }
    if let Some(p) = &names.singular {
        inner.push(str_attr("singular", p));
    }
    if let Some(p) = &names.list_kind {
        inner.push(str_attr("list_kind", p));
    }
    if names.singular.is_none() || names.list_kind.is_none() {
        inner.push(flag("explicit_names"));
    }
    if let Some(l) = &names.short_names {
        inner.push(Attr {
            key: "short_names",
            value: AttrValue::StrList(l.clone()),
        });
    }
    if let Some(l) = &names.categories {
        inner.push(Attr {
            key: "categories",
            value: AttrValue::StrList(l.clone()),
        });
    }
    if spec.scope.as_deref() == Some("Namespaced") {
        inner.push(flag("namespaced"));
    }
    inner.push(flag("object_root"));
    let meta = v.crd.metadata.as_ref();
    for (json, key) in [("annotations", "annotations"), ("labels", "labels")] {
        if let Some(a) = meta.and_then(|m| m.get(json))
            && a.as_object()
                .is_some_and(|a| a.values().all(Value::is_string))
        {
            inner.push(json_attr(key, a.clone()));
        }
    }
    let crd = crd_key(v.crd);
    if let Some(c) = &spec.conversion {
        let c = schema_core::model::wire::codec::Wire::encode(c);
        if webhook_without_target(&c) {
            // Charts and installers fill the service in at install time;
            // as written the API server rejects the CRD, and so would
            // `crds()`.
            if v.index == 0 {
                warnings.push(format!(
                    "{crd}: spec.conversion is not reproduced by the generated types: its webhook clientConfig has no url and no service name and namespace, which the API server requires (they are filled in at install time)"
                ));
            }
        } else {
            inner.push(json_attr("conversion", c));
        }
    }
    if spec.preserve_unknown_fields == Some(false) {
        inner.push(json_attr("preserve_unknown_fields", false));
    }
    let version = v.version;
    let sub = version.subresources.clone().unwrap_or_default();
    let has_status = sub.status.is_some();
    if has_status != props.contains_key("status") {
        inner.push(json_attr("status_subresource", has_status));
    }
    if version.subresources.is_some() && !has_status && sub.scale.is_none() {
        inner.push(flag("empty_subresources"));
    }
    if let Some(scale) = &sub.scale {
        let mut s = vec![
            str_attr(
                "spec_replicas_path",
                scale.spec_replicas_path.as_deref().unwrap_or_default(),
            ),
            str_attr(
                "status_replicas_path",
                scale.status_replicas_path.as_deref().unwrap_or_default(),
            ),
        ];
        if let Some(l) = &scale.label_selector_path {
            s.push(str_attr("label_selector_path", l));
        }
        inner.push(Attr {
            key: "scale",
            value: AttrValue::Nested(s),
        });
    }
    for c in version.additional_printer_columns.iter().flatten() {
        let mut col = vec![
            str_attr("name", c.name.as_deref().unwrap_or_default()),
            str_attr("type", c.type_.as_deref().unwrap_or_default()),
            str_attr("json_path", c.json_path.as_deref().unwrap_or_default()),
        ];
        if let Some(d) = &c.description {
            col.push(str_attr("description", d));
        }
        if let Some(f) = &c.format {
            col.push(str_attr("format", f));
        }
        if let Some(p) = c.priority {
            col.push(json_attr("priority", p));
        }
        inner.push(Attr {
            key: "printer_column",
            value: AttrValue::Nested(col),
        });
    }
    for f in version.selectable_fields.iter().flatten() {
        inner.push(str_attr(
            "selectable_field",
            f.json_path.as_deref().unwrap_or_default(),
        ));
    }
    if version.served != Some(true) {
        inner.push(json_attr("served", false));
    }
    if version.storage != Some(true) {
        inner.push(json_attr("storage", false));
    }
    if let Some(w) = &version.deprecation_warning {
        inner.push(str_attr("deprecation_warning", w));
    } else if version.deprecated == Some(true) {
        inner.push(flag("deprecated"));
    }
    // A v1 CRD cannot keep unknown fields at its root (the API server
    // requires `false`); a v1beta1 one can, and its types cannot say so.
    if v.index == 0 && spec.preserve_unknown_fields == Some(true) {
        warnings.push(format!(
            "{crd}: spec.preserveUnknownFields: true is not reproduced by the generated types (a v1 CRD cannot set it)"
        ));
    }
    Attr {
        key: "crd",
        value: AttrValue::Nested(inner),
    }
}
