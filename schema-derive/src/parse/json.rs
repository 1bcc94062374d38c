//! JSON values written in attributes (`default`, `example`, `enum`): JSON
//! syntax as Rust tokens, as `serde_json::json!` takes it. Scalars are
//! written directly (`default = 3`, `default = "Always"`, `default = true`,
//! `default = -1.5`); arrays as `[1, 2]`; objects as `{"key": value}` (a key
//! may also be a plain identifier, `{key: value}`); `null` is `null`.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{Lit, Token, braced, bracketed};

/// A JSON value with the span it was written at.
#[derive(Clone, Debug)]
pub struct Json {
    pub kind: JsonKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum JsonKind {
    Null,
    Bool(bool),
    /// A negative integer.
    Int(i64),
    /// A non-negative integer.
    UInt(u64),
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// What kind of JSON value this is, for messages.
    pub fn describe(&self) -> &'static str {
        match self.kind {
            JsonKind::Null => "null",
            JsonKind::Bool(_) => "a boolean",
            JsonKind::Int(_) => "a negative integer",
            JsonKind::UInt(_) => "an integer",
            JsonKind::Float(_) => "a number",
            JsonKind::Str(_) => "a string",
            JsonKind::Array(_) => "an array",
            JsonKind::Object(_) => "an object",
        }
    }

    /// The tokens of the constant `__sp::Json` value (`p` is the runtime
    /// support module in scope).
    pub fn tokens(&self) -> TokenStream {
        match &self.kind {
            JsonKind::Null => quote!(__sp::Json::Null),
            JsonKind::Bool(b) => quote!(__sp::Json::Bool(#b)),
            JsonKind::Int(i) => quote!(__sp::Json::Int(#i)),
            JsonKind::UInt(u) => quote!(__sp::Json::UInt(#u)),
            JsonKind::Float(f) => quote!(__sp::Json::Float(#f)),
            JsonKind::Str(s) => quote!(__sp::Json::Str(#s)),
            JsonKind::Array(items) => {
                let items = items.iter().map(Json::tokens);
                quote!(__sp::Json::Array(&[#(#items),*]))
            }
            JsonKind::Object(entries) => {
                let entries = entries.iter().map(|(k, v)| {
                    let v = v.tokens();
                    quote!((#k, #v))
                });
                quote!(__sp::Json::Object(&[#(#entries),*]))
            }
        }
    }
}

/// Parses one JSON value.
pub fn parse(input: ParseStream<'_>) -> syn::Result<Json> {
    let span = input.span();
    if input.peek(Token![-]) {
        let minus: Token![-] = input.parse()?;
        let lit: Lit = input.parse()?;
        let span = minus.span.join(lit.span()).unwrap_or(span);
        return match &lit {
            Lit::Int(i) => {
                let v: i64 = format!("-{}", i.base10_digits())
                    .parse()
                    .map_err(|_| syn::Error::new(lit.span(), "integer out of range"))?;
                Ok(Json {
                    kind: JsonKind::Int(v),
                    span,
                })
            }
            Lit::Float(f) => Ok(Json {
                kind: JsonKind::Float(-finite(f)?),
                span,
            }),
            _ => Err(syn::Error::new(lit.span(), "expected a number after `-`")),
        };
    }
    if input.peek(syn::token::Bracket) {
        let content;
        bracketed!(content in input);
        let mut items = Vec::new();
        while !content.is_empty() {
            items.push(parse(&content)?);
            if content.is_empty() {
                break;
            }
            content.parse::<Token![,]>()?;
        }
        return Ok(Json {
            kind: JsonKind::Array(items),
            span,
        });
    }
    if input.peek(syn::token::Brace) {
        let content;
        braced!(content in input);
        let mut entries: Vec<(String, Json)> = Vec::new();
        while !content.is_empty() {
            let key = if content.peek(syn::LitStr) {
                let k: syn::LitStr = content.parse()?;
                (k.value(), k.span())
            } else if content.peek(syn::Ident::peek_any) {
                let k = syn::Ident::parse_any(&content)?;
                (k.to_string(), k.span())
            } else {
                return Err(content.error("expected an object key (a string)"));
            };
            content.parse::<Token![:]>()?;
            let value = parse(&content)?;
            if entries.iter().any(|(k, _)| *k == key.0) {
                return Err(syn::Error::new(key.1, format!("duplicate key `{}`", key.0)));
            }
            entries.push((key.0, value));
            if content.is_empty() {
                break;
            }
            content.parse::<Token![,]>()?;
        }
        return Ok(Json {
            kind: JsonKind::Object(entries),
            span,
        });
    }
    if input.peek(syn::Ident) && !input.peek(syn::LitBool) {
        let id: syn::Ident = input.parse()?;
        if id == "null" {
            return Ok(Json {
                kind: JsonKind::Null,
                span,
            });
        }
        return Err(syn::Error::new(
            id.span(),
            format!("expected a JSON value, found `{id}` (strings are quoted: \"{id}\")"),
        ));
    }
    let lit: Lit = input.parse()?;
    let kind = match &lit {
        Lit::Str(s) => JsonKind::Str(s.value()),
        Lit::Bool(b) => JsonKind::Bool(b.value),
        Lit::Int(i) => JsonKind::UInt(
            i.base10_digits()
                .parse()
                .map_err(|_| syn::Error::new(lit.span(), "integer out of range"))?,
        ),
        Lit::Float(f) => JsonKind::Float(finite(f)?),
        _ => {
            return Err(syn::Error::new(
                lit.span(),
                "expected a JSON value: a string, number, boolean, null, [array] or {object}",
            ));
        }
    };
    Ok(Json { kind, span })
}

fn finite(f: &syn::LitFloat) -> syn::Result<f64> {
    let v: f64 = f.base10_parse()?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(syn::Error::new(f.span(), "the number is not finite"))
    }
}

impl ToTokens for Json {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(self.tokens());
    }
}
