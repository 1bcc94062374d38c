//! Rust tokens for a type space, formatted with prettyplease.

use proc_macro2::{Delimiter, Group, Literal, TokenStream, TokenTree};
use quote::{format_ident, quote};
use serde_json::Value;

use super::Options;
use super::space::{Attr, AttrValue, Body, Field, Mapped, Ty, TypeDef, TypeSpace};

/// Whether a description survives the derive's doc-comment conventions
/// unchanged, so it can be written as a doc comment: no blank first or
/// last line, no blank-line runs, no trailing whitespace, no carriage
/// return, no line that controller-gen's conventions treat specially
/// (`TODO`, `---`, code fences, a `+` marker) and no indented line
/// (rustdoc would test it as code).
pub fn doc_safe(d: &str) -> bool {
    if d.is_empty() || d.contains('\r') || d.contains("\n\n\n") {
        return false;
    }
    let lines: Vec<&str> = d.split('\n').collect();
    if lines.first().is_some_and(|l| l.is_empty()) || lines.last().is_some_and(|l| l.is_empty()) {
        return false;
    }
    lines.iter().all(|l| {
        l.trim_end() == *l
            && !l.starts_with("TODO")
            && !l.starts_with("---")
            && !l.starts_with("```")
            && !l.starts_with("~~~")
            && !l.starts_with("    ")
            && !l.starts_with('\t')
            && !l.trim_start().starts_with('+')
    })
}

/// `#[doc]` lines for a description (nothing when docs are off or the
/// text cannot be a doc comment).
pub fn doc_lines(opts: &Options, d: Option<&str>) -> TokenStream {
    let Some(d) = d else {
        return TokenStream::new();
    };
    if !opts.docs || !doc_safe(d) {
        return TokenStream::new();
    }
    d.split('\n')
        .map(|l| {
            let l = if l.is_empty() {
                String::new()
            } else {
                format!(" {l}")
            };
            quote!(#[doc = #l])
        })
        .collect()
}

/// `head` followed by a `{ ... }` group of `body`. Token streams are moved,
/// not copied as `quote!` interpolation copies them: a doc comment's text is
/// then allocated once, however deep its item is nested.
pub fn braced(mut head: TokenStream, body: TokenStream) -> TokenStream {
    head.extend([TokenTree::Group(Group::new(Delimiter::Brace, body))]);
    head
}

/// The description as an attribute, when it cannot be a doc comment (or
/// docs are off).
pub fn description_attr(opts: &Options, d: Option<&str>) -> Option<Attr> {
    let d = d?;
    (!opts.docs || !doc_safe(d)).then(|| Attr {
        key: "description",
        value: AttrValue::Str(d.to_string()),
    })
}

/// A float literal that reads back as the same `f64`: the shortest
/// decimal digits, in exponent form when the plain form would spell out
/// long runs of zeros (`3.4028234663852886e38`, not 39 digits).
fn float_literal(f: f64) -> Literal {
    let plain = Literal::f64_unsuffixed(f);
    if plain.to_string().len() <= 24 {
        return plain;
    }
    format!("{f:e}").parse().unwrap_or(plain)
}

/// A JSON value in the derive's attribute syntax.
pub fn json_tokens(v: &Value) -> TokenStream {
    match v {
        Value::Null => quote!(null),
        Value::Bool(b) => quote!(#b),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                let l = Literal::u64_unsuffixed(u);
                quote!(#l)
            } else if let Some(i) = n.as_i64() {
                let l = Literal::u64_unsuffixed(i.unsigned_abs());
                quote!(-#l)
            } else {
                let f = n.as_f64().unwrap_or(0.0);
                let l = float_literal(f.abs());
                if f.is_sign_negative() {
                    quote!(-#l)
                } else {
                    quote!(#l)
                }
            }
        }
        Value::String(s) => quote!(#s),
        Value::Array(items) => {
            let items = items.iter().map(json_tokens);
            quote!([#(#items),*])
        }
        Value::Object(m) => {
            let entries = m.iter().map(|(k, v)| {
                let v = json_tokens(v);
                quote!(#k: #v)
            });
            quote!({#(#entries),*})
        }
    }
}

fn attr_tokens(a: &Attr) -> TokenStream {
    let key = format_ident!("{}", a.key);
    let key = if a.key == "type" || a.key == "enum" {
        let k: TokenStream = a.key.parse().unwrap_or_default();
        k
    } else {
        quote!(#key)
    };
    match &a.value {
        AttrValue::Flag => quote!(#key),
        AttrValue::Str(s) => quote!(#key = #s),
        AttrValue::Json(v) => {
            let v = json_tokens(v);
            quote!(#key = #v)
        }
        AttrValue::StrList(l) => quote!(#key = [#(#l),*]),
        AttrValue::Nested(inner) => {
            let inner = inner.iter().map(attr_tokens);
            quote!(#key(#(#inner),*))
        }
        AttrValue::Path(p) => {
            let p: TokenStream = p.parse().unwrap_or_default();
            quote!(#key = #p)
        }
        AttrValue::Rule(keys) => {
            let inner = keys.iter().map(|(k, v)| {
                let k = format_ident!("{}", k);
                let v = json_tokens(v);
                quote!(#k = #v)
            });
            quote!(#key(#(#inner),*))
        }
    }
}

/// `#[schema(...)]` of `attrs` (nothing when empty).
pub fn schema_attr(attrs: &[Attr]) -> TokenStream {
    if attrs.is_empty() {
        return TokenStream::new();
    }
    let inner = attrs.iter().map(attr_tokens);
    quote!(#[schema(#(#inner),*)])
}

/// The tokens of a type expression.
pub fn ty_tokens(space: &TypeSpace, ty: &Ty) -> TokenStream {
    match ty {
        Ty::String => quote!(::std::string::String),
        Ty::Bool => quote!(bool),
        Ty::I32 => quote!(i32),
        Ty::I64 => quote!(i64),
        Ty::F32 => quote!(f32),
        Ty::F64 => quote!(f64),
        Ty::Value => quote!(::serde_json::Value),
        Ty::JsonMap => quote!(::serde_json::Map<::std::string::String, ::serde_json::Value>),
        Ty::IntOrString => quote!(::k8s_openapi::apimachinery::pkg::util::intstr::IntOrString),
        Ty::Time => quote!(::k8s_openapi::apimachinery::pkg::apis::meta::v1::Time),
        Ty::ObjectMeta => quote!(::schema_core::rust::ObjectMeta),
        Ty::Vec(t) => {
            let t = ty_tokens(space, t);
            quote!(::std::vec::Vec<#t>)
        }
        Ty::Map(t) => {
            let t = ty_tokens(space, t);
            quote!(::std::collections::BTreeMap<::std::string::String, #t>)
        }
        Ty::Named(id) => {
            let n = format_ident!("{}", space.types[*id].name);
            quote!(#n)
        }
        Ty::Option(t) => {
            let t = ty_tokens(space, t);
            quote!(::core::option::Option<#t>)
        }
    }
}

/// The doc of a use site: the node's description unless the type carries
/// the same text.
fn use_site_description<'a>(space: &TypeSpace, m: &'a Mapped) -> Option<&'a str> {
    let d = m.description.as_deref()?;
    if let Ty::Named(id) = &m.ty {
        if space.types[*id].shared_description() == Some(d) {
            return None;
        }
    }
    Some(d)
}

/// One field.
pub fn field_tokens(opts: &Options, space: &TypeSpace, f: &Field) -> TokenStream {
    let desc = use_site_description(space, &f.mapped);
    let doc = doc_lines(opts, desc);
    let mut attrs = Vec::new();
    attrs.extend(description_attr(opts, desc));
    attrs.extend(f.mapped.attrs.iter().cloned());
    let optional = f.is_option();
    if f.required && optional {
        attrs.push(Attr {
            key: "required",
            value: AttrValue::Flag,
        });
    }
    let schema = schema_attr(&attrs);
    let name: TokenStream = f.rust_name.parse().unwrap_or_default();
    let base = ty_tokens(space, &f.mapped.ty);
    let ty = if optional {
        quote!(::core::option::Option<#base>)
    } else {
        base
    };
    let json = &f.json_name;
    let rename = if f.rust_name.trim_start_matches("r#") != f.json_name {
        quote!(rename = #json,)
    } else {
        TokenStream::new()
    };
    let serde = if f.serde_default && f.mapped.ty == Ty::ObjectMeta {
        quote!(#[serde(#rename default, skip_serializing_if = "::schema_core::rust::is_empty_meta")])
    } else if f.serde_default && f.mapped.ty == Ty::String {
        quote!(#[serde(#rename default, skip_serializing_if = "::std::string::String::is_empty")])
    } else if f.serde_default {
        quote!(#[serde(#rename default)])
    } else if optional && !f.required {
        quote!(#[serde(#rename default, skip_serializing_if = "::core::option::Option::is_none")])
    } else if rename.is_empty() {
        TokenStream::new()
    } else {
        quote!(#[serde(rename = #json)])
    };
    let mut out = doc;
    out.extend([serde, schema, quote!(pub #name: #ty,)]);
    out
}

/// The derives of every generated type: `Clone` and `Debug` (kube's
/// `Api<T>` needs them), serde's, `StructuralSchema`, and the extra ones.
pub fn derives(opts: &Options) -> TokenStream {
    let always = [
        "Clone",
        "Debug",
        "Serialize",
        "Deserialize",
        "StructuralSchema",
    ];
    let extra = opts
        .derives
        .iter()
        .filter(|d| {
            !always
                .iter()
                .any(|a| d.trim().rsplit("::").next() == Some(*a))
        })
        .filter_map(|d| d.parse::<TokenStream>().ok());
    quote!(#[derive(::core::clone::Clone, ::core::fmt::Debug, ::serde::Serialize, ::serde::Deserialize, ::schema_core::StructuralSchema #(, #extra)*)])
}

/// One named type.
pub fn type_tokens(opts: &Options, space: &TypeSpace, t: &TypeDef) -> TokenStream {
    let name = format_ident!("{}", t.name);
    let shared = t.shared_description();
    let doc = doc_lines(opts, shared);
    let derives = derives(opts);
    match &t.body {
        Body::Enum(e) => {
            let mut cattrs = Vec::new();
            cattrs.extend(description_attr(opts, shared));
            let schema = schema_attr(&cattrs);
            let variants = e.variants.iter().map(|(v, value)| {
                let v = format_ident!("{}", v);
                quote!(#[serde(rename = #value)] #v,)
            });
            let mut head = doc;
            head.extend([derives, schema, quote!(pub enum #name)]);
            braced(head, variants.collect())
        }
        Body::Struct(s) => {
            let mut cattrs = Vec::new();
            cattrs.extend(description_attr(opts, shared));
            if let Some(order) = &s.required_order {
                cattrs.push(Attr {
                    key: "required_order",
                    value: AttrValue::StrList(order.clone()),
                });
            }
            let schema = schema_attr(&cattrs);
            let fields = s.fields.iter().map(|f| field_tokens(opts, space, f));
            let extra = if s.preserve_unknown {
                quote! {
                    /// The fields the schema does not name (it keeps unknown fields).
                    #[serde(flatten)]
                    pub extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
                }
            } else {
                TokenStream::new()
            };
            let mut head = doc;
            head.extend([derives, schema, quote!(pub struct #name)]);
            let mut body: TokenStream = fields.collect();
            body.extend([extra]);
            braced(head, body)
        }
    }
}

/// A raw string literal of `text` (with as many `#` as it needs).
fn raw_string(text: &str) -> Literal {
    let mut hashes = "#".to_string();
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}")
        .parse()
        .unwrap_or_else(|_| Literal::string(text))
}

/// The functions of the nodes written as JSON that some attribute names
/// (see [`RawSchema`](super::space::RawSchema)), and the one that decodes
/// them; nothing when there are none.
pub fn raw_fns(space: &TypeSpace) -> TokenStream {
    let used: Vec<_> = space.raws.iter().filter(|r| r.uses > 0).collect();
    if used.is_empty() {
        return TokenStream::new();
    }
    let decode = format_ident!("{}", super::space::DECODE_SCHEMA_FN);
    let mut out = quote! {
        /// Decodes a schema written as JSON: the nodes whose keys the API
        /// server accepts but `#[schema(...)]` attributes do not take (a key
        /// without effect on the node's type, say).
        fn #decode(
            cx: &mut ::schema_core::rust::SchemaCx,
            json: &str,
        ) -> ::schema_core::wire::JsonSchemaProps {
            let mut dcx = ::schema_core::model::wire::codec::DecodeCx::default();
            let schema = ::serde_json::from_str(json).ok().and_then(|v| {
                ::schema_core::wire::JsonSchemaProps::from_value(
                    &v,
                    &::schema_core::Path::default(),
                    &mut dcx,
                )
            });
            match schema {
                ::core::option::Option::Some(s) if dcx.errors.is_empty() => s,
                _ => {
                    cx.error(::std::format!("a schema written as JSON does not decode: {:?}", dcx.errors));
                    ::core::default::Default::default()
                }
            }
        }
    };
    for r in used {
        let name = format_ident!("{}", r.name);
        let json = raw_string(&r.json);
        out.extend(quote! {
            fn #name(cx: &mut ::schema_core::rust::SchemaCx) -> ::schema_core::wire::JsonSchemaProps {
                #decode(cx, #json)
            }
        });
    }
    out
}

/// Formats a token stream as a Rust file.
pub fn format_file(tokens: TokenStream) -> Result<String, String> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| e.to_string())?;
    Ok(prettyplease::unparse(&file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs() {
        assert!(doc_safe("A line.\nAnother.\n\nParagraph."));
        assert!(!doc_safe("TODO: x"));
        assert!(!doc_safe("a \nb"));
        assert!(!doc_safe("a\n\n\nb"));
        assert!(!doc_safe("a\n"));
        assert!(!doc_safe("    code"));
    }

    #[test]
    fn json() {
        let v = serde_json::json!({"a": [1, -2, 0.5, -0.25, "s", null, true]});
        assert_eq!(
            json_tokens(&v).to_string(),
            r#"{ "a" : [1 , - 2 , 0.5 , - 0.25 , "s" , null , true] }"#
        );
    }

    #[test]
    fn floats_read_back_exactly() {
        for (f, text) in [
            (3.402_823_466_385_288_6e38_f64, "3.4028234663852886e38"),
            (-1e300, "- 1e300"),
            (0.300_000_000_000_000_04, "0.30000000000000004"),
            (1e20, "100000000000000000000.0"),
            (5e-324, "5e-324"),
        ] {
            let t = json_tokens(&serde_json::json!(f)).to_string();
            assert_eq!(t, text);
            let back: f64 = t.replace(' ', "").parse().unwrap();
            assert_eq!(back.to_bits(), f.to_bits(), "{t}");
        }
    }
}
