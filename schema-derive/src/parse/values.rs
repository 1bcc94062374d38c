//! Values of attributes, shared by the parsers of `#[schema(...)]` and
//! `crd(...)`: a value with its span, the key of a nested meta, and the
//! readers of strings, flags, counts and JSON with their errors.

use proc_macro2::Span;
use syn::Token;
use syn::meta::ParseNestedMeta;

use crate::ctxt::Ctxt;
use crate::parse::json::{self, Json, JsonKind};

/// A value and where it was written.
#[derive(Clone, Debug)]
pub struct Val<T> {
    pub value: T,
    pub span: Span,
}

/// The key of a nested meta as a string (`type`, `enum` and `crate` are
/// keywords, so a plain `Path::get_ident` would not do).
pub(crate) fn key_of(meta: &ParseNestedMeta<'_>) -> Option<String> {
    if meta.path.segments.len() != 1 || meta.path.leading_colon.is_some() {
        return None;
    }
    meta.path.segments.first().map(|s| s.ident.to_string())
}

pub(crate) fn set<T>(cx: &Ctxt, slot: &mut Option<Val<T>>, key: &str, span: Span, value: T) {
    if slot.is_some() {
        cx.error(span, format!("duplicate schema attribute `{key}`"));
        return;
    }
    *slot = Some(Val { value, span });
}

/// Consumes whatever follows an unknown or rejected key, so that parsing
/// goes on with the next one.
pub(crate) fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        meta.input.parse::<Token![=]>()?;
        while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
            meta.input.parse::<proc_macro2::TokenTree>()?;
        }
    } else if meta.input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in meta.input);
        while !content.is_empty() {
            content.parse::<proc_macro2::TokenTree>()?;
        }
    }
    Ok(())
}

/// The JSON value after `key =`.
pub(crate) fn value_json(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Json> {
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("expected `{key} = ...`")));
    }
    let input = meta.value()?;
    json::parse(input)
}

pub(crate) fn wrong(cx: &Ctxt, v: &Json, key: &str, want: &str, example: &str) {
    cx.error(
        v.span,
        format!(
            "`{key}` takes {want}, like `{example}`; found {}",
            v.describe()
        ),
    );
}

pub(crate) fn count(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
    slot: &mut Option<Val<i64>>,
) -> syn::Result<()> {
    let v = value_json(meta, key)?;
    match v.kind {
        JsonKind::UInt(u) if i64::try_from(u).is_ok() => {
            set(cx, slot, key, span, u as i64);
        }
        _ => wrong(cx, &v, key, "a non-negative integer", &format!("{key} = 1")),
    }
    Ok(())
}

pub(crate) fn string(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
    slot: &mut Option<Val<String>>,
) -> syn::Result<()> {
    let v = value_json(meta, key)?;
    match v.kind {
        JsonKind::Str(s) => set(cx, slot, key, v.span, s),
        _ => wrong(cx, &v, key, "a string", &format!("{key} = \"...\"")),
    }
    let _ = span;
    Ok(())
}

pub(crate) fn flag(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
    slot: &mut Option<Val<bool>>,
) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let v = value_json(meta, key)?;
        match v.kind {
            JsonKind::Bool(b) => set(cx, slot, key, span, b),
            _ => wrong(cx, &v, key, "no value or a boolean", key),
        }
    } else if meta.input.is_empty() || meta.input.peek(Token![,]) {
        set(cx, slot, key, span, true);
    } else {
        cx.error(
            span,
            format!("`{key}` is a flag: write `{key}` or `{key} = false`"),
        );
        skip_value(meta)?;
    }
    Ok(())
}
