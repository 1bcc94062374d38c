//! The attributes schemars reads, for `#[derive(JsonSchema)]`:
//! `#[schemars(...)]`, and the constraints schemars takes from garde's
//! `#[garde(...)]` and validator's `#[validate(...)]`.
//!
//! schemars' validation keywords (`length`, `range`, `regex`/`pattern`,
//! `contains`, `email`, `url`, `ip`, `ipv4`, `ipv6`, `required`, `inner`)
//! take Rust expressions, evaluated when the schema is built, and apply
//! only where the schema's type admits them (`length` to strings and
//! arrays, `range` to numbers), silently elsewhere, as schemars applies
//! them; they are kept as expressions in [`Keywords`]. Keys of garde and
//! validator that schemars does not read are ignored, as schemars ignores
//! them; an unknown key of `#[schemars(...)]` is an error, with a hint
//! where `#[schema(...)]` has the feature under another name.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::spanned::Spanned;
use syn::{Expr, Token};

use crate::ctxt::Ctxt;
use crate::parse::json::{self, Json};
use crate::parse::values::{Val, key_of, skip_value};
use crate::symbol::Place;

/// The validation keywords schemars reads, as Rust expressions.
#[derive(Clone, Default)]
pub struct Keywords {
    /// `length(min = ...)` (or `equal`): `minLength` of a string,
    /// `minItems` of an array.
    pub length_min: Option<Expr>,
    /// `length(max = ...)` (or `equal`).
    pub length_max: Option<Expr>,
    /// `range(min = ...)`: `minimum` of a number.
    pub range_min: Option<Expr>,
    /// `range(max = ...)`: `maximum` of a number.
    pub range_max: Option<Expr>,
    /// `regex(pattern = ...)`, `regex = "..."`, garde's `pattern(...)`,
    /// validator's `regex(path = ...)`: a value whose `to_string()` is
    /// the pattern of a string.
    pub pattern: Option<Expr>,
    /// `contains(...)`: a substring a string must contain (the pattern
    /// matching it literally).
    pub contains: Option<Expr>,
    /// `email`, `url`, `ip`, `ipv4`, `ipv6`: the schema's `format`
    /// (`email`, `uri`, `ip`, `ipv4`, `ipv6`), whatever the type.
    pub format: Option<&'static str>,
    /// `inner(...)`: the keywords of an array's items.
    pub inner: Option<Box<Keywords>>,
}

impl Keywords {
    /// Whether no keyword is set.
    pub fn is_empty(&self) -> bool {
        self.length_min.is_none()
            && self.length_max.is_none()
            && self.range_min.is_none()
            && self.range_max.is_none()
            && self.pattern.is_none()
            && self.contains.is_none()
            && self.format.is_none()
            && self.inner.is_none()
    }
}

/// Where a schema default comes from, written in `#[schemars(...)]`.
#[derive(Clone)]
pub enum DefaultFrom {
    /// `default`: the type's `Default::default()`.
    Trait,
    /// `default = "path"`: `path()`.
    Path(syn::ExprPath),
}

/// What `#[schemars(...)]`, `#[garde(...)]` and `#[validate(...)]` say
/// about one node.
#[derive(Clone, Default)]
pub struct SchemarsAttrs {
    /// The validation keywords.
    pub keywords: Keywords,
    /// `required` (of schemars, garde or validator).
    pub required: Option<Val<bool>>,
    /// `title = "..."`.
    pub title: Option<Val<String>>,
    /// `description = "..."`.
    pub description: Option<Val<String>>,
    /// `example = value` (a JSON value).
    pub example: Option<Val<Json>>,
    /// `extend("key" = value, ...)`: schema keys set as written.
    pub extend: Vec<(String, Val<Json>)>,
    /// `with = "Type"`: the schema of another type.
    pub with_type: Option<Val<syn::Type>>,
    /// `schema_with = "path"`: a function returning a schemars `Schema`.
    pub schema_with: Option<Val<syn::ExprPath>>,
    /// `default` / `default = "path"`.
    pub default: Option<Val<DefaultFrom>>,
    /// `skip`, `skip_deserializing`: left out of the schema.
    pub skip: Option<Val<bool>>,
    /// `skip_serializing`: no schema default.
    pub skip_serializing: Option<Val<bool>>,
    /// The keys written, in order.
    pub keys: Vec<String>,
}

/// Which attribute a key was written in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Schemars,
    Garde,
    Validate,
}

impl Source {
    fn of(attr: &syn::Attribute) -> Option<Source> {
        let path = attr.path();
        if path.is_ident("schemars") {
            Some(Source::Schemars)
        } else if path.is_ident("garde") {
            Some(Source::Garde)
        } else if path.is_ident("validate") {
            Some(Source::Validate)
        } else {
            None
        }
    }

    /// Whether an unknown or malformed key is an error (schemars' own
    /// attribute) or ignored (garde's and validator's, which have many
    /// keys schemars does not read).
    fn strict(self) -> bool {
        self == Source::Schemars
    }
}

/// The keys of `#[schemars(...)]` this derive reads.
const SCHEMARS_KEYS: &[&str] = &[
    "title",
    "description",
    "example",
    "extend",
    "with",
    "schema_with",
    "default",
    "skip",
    "skip_serializing",
    "skip_deserializing",
    "required",
    "length",
    "range",
    "regex",
    "pattern",
    "contains",
    "email",
    "url",
    "ip",
    "ipv4",
    "ipv6",
    "inner",
    "crate",
];

/// Keys of `#[schemars(...)]` read by schemars that change nothing in a
/// structural schema (schemars' own crate path, trait bounds, inlining,
/// serde's rejection of unknown fields, which kube-derive's schemas drop
/// too), accepted and ignored.
const IGNORED_SCHEMARS_KEYS: &[&str] = &[
    "crate",
    "bound",
    "inline",
    "deny_unknown_fields",
    "_unstable_ref_variants",
];

/// serde's keys, which schemars also reads from `#[schemars(...)]` to
/// override serde's for the schema alone; the derive reads serde's own.
const SERDE_KEYS: &[&str] = &[
    "rename",
    "rename_all",
    "rename_all_fields",
    "tag",
    "content",
    "untagged",
    "flatten",
    "transparent",
    "from",
    "into",
    "try_from",
    "remote",
    "alias",
    "serialize_with",
    "deserialize_with",
    "skip_serializing_if",
    "other",
];

/// For a schemars key written in `#[schema(...)]`: the keys that say it
/// there, for the message.
pub fn native_equivalent(key: &str) -> Option<&'static str> {
    Some(match key {
        "length" => "`min_length`/`max_length` (strings) or `min_items`/`max_items` (arrays)",
        "range" => "`minimum`/`maximum`",
        "regex" | "contains" => "`pattern = \"...\"`",
        "email" => "`format = \"email\"`",
        "url" => "`format = \"uri\"`",
        "inner" => "`items(...)`",
        "schema_with" => "`with = path` (a function returning a `JsonSchemaProps`)",
        "extend" => "the attribute of each key (`external_docs`, `validation(...)`, ...)",
        _ => return None,
    })
}

/// Reads every `#[schemars(...)]`, `#[garde(...)]` and `#[validate(...)]`
/// among `attrs`.
/// `target` is where they are written.
pub fn parse(cx: &Ctxt, attrs: &[syn::Attribute], target: Place) -> SchemarsAttrs {
    let mut out = SchemarsAttrs::default();
    for attr in attrs {
        let Some(source) = Source::of(attr) else {
            continue;
        };
        if !matches!(attr.meta, syn::Meta::List(_)) {
            if source.strict() {
                cx.error_spanned_by(attr, "expected `#[schemars(...)]`");
            }
            continue;
        }
        let result = attr.parse_nested_meta(|meta| parse_key(cx, &mut out, meta, source, target));
        if let Err(e) = result {
            if source.strict() {
                cx.syn_error(e);
            }
        }
    }
    out
}

fn parse_key(
    cx: &Ctxt,
    out: &mut SchemarsAttrs,
    meta: ParseNestedMeta<'_>,
    source: Source,
    target: Place,
) -> syn::Result<()> {
    let span = meta.path.span();
    let Some(key) = key_of(&meta) else {
        if source.strict() {
            cx.error(span, "expected a schemars attribute name");
        }
        return skip_value(&meta);
    };
    if let Some(done) = parse_keyword(cx, &mut out.keywords, &meta, &key, source)? {
        if done {
            out.keys.push(key);
        }
        return Ok(());
    }
    if key == "required" {
        // garde and validator may both say it.
        if out.required.is_none() {
            out.required = Some(Val { value: true, span });
            out.keys.push(key);
        } else {
            duplicate(cx, source, span, &key);
        }
        return skip_value(&meta);
    }
    if !source.strict() {
        // garde's and validator's other keys: schemars does not read them.
        return skip_value(&meta);
    }
    match key.as_str() {
        "title" => set(cx, &mut out.title, &key, span, string(&meta, &key)?),
        "description" => set(cx, &mut out.description, &key, span, string(&meta, &key)?),
        "example" => {
            let v = json_value(&meta, &key)?;
            set(cx, &mut out.example, &key, span, v);
        }
        "extend" => parse_extend(cx, out, &meta)?,
        "with" => {
            let s = string_lit(&meta, &key)?;
            match s.parse::<syn::Type>() {
                Ok(ty) => set(cx, &mut out.with_type, &key, span, ty),
                Err(_) => cx.error(s.span(), "`with` takes a type, like `with = \"String\"`"),
            }
        }
        "schema_with" => {
            let s = string_lit(&meta, &key)?;
            match s.parse::<syn::ExprPath>() {
                Ok(p) => set(cx, &mut out.schema_with, &key, span, p),
                Err(_) => cx.error(
                    s.span(),
                    "`schema_with` takes the path of a function, like `schema_with = \"my_schema\"`",
                ),
            }
        }
        "default" => {
            let from = if meta.input.peek(Token![=]) {
                let s = string_lit(&meta, &key)?;
                match s.parse::<syn::ExprPath>() {
                    Ok(p) => DefaultFrom::Path(p),
                    Err(_) => {
                        cx.error(
                            s.span(),
                            "`default` takes the path of a function, like `default = \"default_port\"`",
                        );
                        return Ok(());
                    }
                }
            } else {
                DefaultFrom::Trait
            };
            set(cx, &mut out.default, &key, span, from);
        }
        "skip" | "skip_deserializing" => set_flag(cx, &mut out.skip, &key, span),
        "skip_serializing" => set_flag(cx, &mut out.skip_serializing, &key, span),
        k if IGNORED_SCHEMARS_KEYS.contains(&k) => return skip_value(&meta),
        // A type's `rename` names schemars' definition, which a structural
        // schema (everything inlined) does not have.
        "rename" if target == Place::Type => return skip_value(&meta),
        k if SERDE_KEYS.contains(&k) => {
            cx.error(
                span,
                format!(
                    "`{k}` in `#[schemars(...)]` would change the schema but not serde; write it in `#[serde(...)]`, which this derive reads"
                ),
            );
            return skip_value(&meta);
        }
        "transform" => {
            cx.error(
                span,
                "`transform` is not supported: it runs on schemars' schemas; give the node's schema with `schema_with = \"path\"` or `#[schema(with = path)]`",
            );
            return skip_value(&meta);
        }
        k => {
            let msg = match crate::symbol::did_you_mean(k, SCHEMARS_KEYS.iter().copied()) {
                _ if schema_attrs::attribute(k).is_some() => format!(
                    "unknown schemars attribute `{k}`: it is a key of `#[schema(...)]`, which this derive reads too; write `#[schema({k} ...)]`"
                ),
                Some(s) => format!("unknown schemars attribute `{k}`; did you mean `{s}`?"),
                None => format!(
                    "unknown schemars attribute `{k}`; expected one of {}",
                    SCHEMARS_KEYS.join(", ")
                ),
            };
            cx.error(span, msg);
            return skip_value(&meta);
        }
    }
    out.keys.push(key);
    Ok(())
}

/// A validation keyword: `Some(true)` when read, `Some(false)` when the
/// key is a keyword but was not read (an error, or ignored), `None` when
/// it is no keyword of this attribute.
fn parse_keyword(
    cx: &Ctxt,
    k: &mut Keywords,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    source: Source,
) -> syn::Result<Option<bool>> {
    let span = meta.path.span();
    let format = match key {
        "email" => Some("email"),
        "url" => Some("uri"),
        "ip" => Some("ip"),
        "ipv4" => Some("ipv4"),
        "ipv6" => Some("ipv6"),
        _ => None,
    };
    if let Some(f) = format {
        if k.format.is_some() {
            duplicate(cx, source, span, key);
        } else {
            k.format = Some(f);
        }
        // validator allows `email(message = "...")`.
        skip_value(meta)?;
        return Ok(Some(true));
    }
    match key {
        "length" | "range" => {
            let (min, max) = min_max(cx, meta, key, source)?;
            let (slot_min, slot_max) = if key == "length" {
                (&mut k.length_min, &mut k.length_max)
            } else {
                (&mut k.range_min, &mut k.range_max)
            };
            if slot_min.is_some() || slot_max.is_some() {
                duplicate(cx, source, span, key);
                return Ok(Some(false));
            }
            *slot_min = min;
            *slot_max = max;
            Ok(Some(true))
        }
        "regex" if source != Source::Garde => {
            let expr = if meta.input.peek(Token![=]) {
                Some(meta.value()?.parse::<Expr>()?)
            } else {
                let inner = if source == Source::Validate {
                    "path"
                } else {
                    "pattern"
                };
                named_expr(cx, meta, key, inner, source)?
            };
            set_pattern(cx, k, expr, span, key, source)
        }
        "pattern" if source != Source::Validate => {
            let expr = if meta.input.peek(Token![=]) {
                Some(meta.value()?.parse::<Expr>()?)
            } else {
                Some(parenthesized_expr(meta)?)
            };
            set_pattern(cx, k, expr, span, key, source)
        }
        "contains" => {
            let expr = if meta.input.peek(Token![=]) {
                Some(meta.value()?.parse::<Expr>()?)
            } else if source == Source::Garde {
                Some(parenthesized_expr(meta)?)
            } else {
                contains_expr(cx, meta, source)?
            };
            if k.pattern.is_some() || k.contains.is_some() {
                duplicate(cx, source, span, key);
                return Ok(Some(false));
            }
            k.contains = expr;
            Ok(Some(k.contains.is_some()))
        }
        "inner" if source != Source::Validate => {
            if !meta.input.peek(syn::token::Paren) {
                if source.strict() {
                    cx.error(span, "expected `inner(...)` with the keywords of the items");
                }
                skip_value(meta)?;
                return Ok(Some(false));
            }
            let inner = k.inner.get_or_insert_with(Box::default);
            meta.parse_nested_meta(|m| {
                let Some(key) = key_of(&m) else {
                    return skip_value(&m);
                };
                if parse_keyword(cx, inner, &m, &key, source)?.is_none() {
                    if source.strict() {
                        cx.error(
                            m.path.span(),
                            format!("`{key}` is not a validation keyword, so it cannot be inside `inner(...)`"),
                        );
                    }
                    skip_value(&m)?;
                }
                Ok(())
            })?;
            Ok(Some(true))
        }
        _ => Ok(None),
    }
}

fn set_pattern(
    cx: &Ctxt,
    k: &mut Keywords,
    expr: Option<Expr>,
    span: Span,
    key: &str,
    source: Source,
) -> syn::Result<Option<bool>> {
    if k.pattern.is_some() || k.contains.is_some() {
        duplicate(cx, source, span, key);
        return Ok(Some(false));
    }
    k.pattern = expr;
    Ok(Some(k.pattern.is_some()))
}

/// `key(min = ..., max = ..., equal = ...)`; garde's and validator's
/// other items (garde's `chars`, `bytes`, validator's `message`) are
/// ignored.
fn min_max(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    source: Source,
) -> syn::Result<(Option<Expr>, Option<Expr>)> {
    if !meta.input.peek(syn::token::Paren) {
        if source.strict() {
            cx.error(
                meta.path.span(),
                format!("expected `{key}(min = ..., max = ...)`"),
            );
        }
        skip_value(meta)?;
        return Ok((None, None));
    }
    let (mut min, mut max, mut equal) = (None, None, None);
    meta.parse_nested_meta(|m| {
        let item = key_of(&m).unwrap_or_default();
        let slot = match item.as_str() {
            "min" => &mut min,
            "max" => &mut max,
            "equal" => &mut equal,
            _ => {
                if source.strict() {
                    cx.error(
                        m.path.span(),
                        format!(
                            "unknown item `{item}` in schemars `{key}(...)`: expected `min`, `max` or `equal`"
                        ),
                    );
                }
                return skip_value(&m);
            }
        };
        if !m.input.peek(Token![=]) {
            if source.strict() {
                cx.error(m.path.span(), format!("expected `{item} = ...`"));
            }
            return skip_value(&m);
        }
        *slot = Some(expr_in_str(m.value()?)?);
        Ok(())
    })?;
    if let Some(e) = equal {
        if (min.is_some() || max.is_some()) && source.strict() {
            cx.error(
                meta.path.span(),
                format!("`{key}(equal = ...)` cannot be combined with `min` or `max`"),
            );
        }
        return Ok((Some(e.clone()), Some(e)));
    }
    Ok((min, max))
}

/// `regex(pattern = ...)` / validator's `regex(path = ...)`: the named
/// item's expression.
fn named_expr(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    name: &str,
    source: Source,
) -> syn::Result<Option<Expr>> {
    if !meta.input.peek(syn::token::Paren) {
        if source.strict() {
            cx.error(meta.path.span(), format!("expected `{key}({name} = ...)`"));
        }
        skip_value(meta)?;
        return Ok(None);
    }
    let mut found = None;
    meta.parse_nested_meta(|m| {
        if m.path.is_ident(name) && m.input.peek(Token![=]) {
            // validator's `path = "RE"` names the regex; schemars'
            // `pattern = "..."` is the pattern itself.
            let input = m.value()?;
            found = Some(if name == "path" {
                expr_in_str(input)?
            } else {
                input.parse()?
            });
            return Ok(());
        }
        if source.strict() {
            cx.error(m.path.span(), format!("expected `{key}({name} = ...)`"));
        }
        skip_value(&m)
    })?;
    if found.is_none() && source.strict() {
        cx.error(
            meta.path.span(),
            format!("`{key}(...)` needs `{name} = ...`"),
        );
    }
    Ok(found)
}

/// `contains(pattern = ...)` (validator, schemars) or `contains(expr)`
/// (schemars, as garde writes it).
fn contains_expr(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    source: Source,
) -> syn::Result<Option<Expr>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let named = content.peek(syn::Ident) && (content.peek2(Token![=]) || content.peek2(Token![,]));
    if source == Source::Schemars && !named {
        return Ok(Some(content.parse::<Expr>()?));
    }
    let mut found = None;
    while !content.is_empty() {
        let name: syn::Ident = content.call(syn::ext::IdentExt::parse_any)?;
        if content.peek(Token![=]) {
            content.parse::<Token![=]>()?;
            let e: Expr = content.parse()?;
            if name == "pattern" {
                found = Some(e);
            } else if source.strict() {
                cx.error(
                    name.span(),
                    format!(
                        "unknown item `{name}` in schemars `contains(...)`: expected `pattern`"
                    ),
                );
            }
        }
        if content.peek(Token![,]) {
            content.parse::<Token![,]>()?;
        } else if !content.is_empty() {
            content.parse::<proc_macro2::TokenStream>()?;
        }
    }
    if found.is_none() && source.strict() {
        cx.error(meta.path.span(), "`contains(...)` needs `pattern = ...`");
    }
    Ok(found)
}

/// An expression; a string literal is read as the expression it holds,
/// as schemars reads `min = "MAX"` and validator's `path = "RE"`.
fn expr_in_str(input: ParseStream<'_>) -> syn::Result<Expr> {
    let e: Expr = input.parse()?;
    match &e {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => s.parse(),
        _ => Ok(e),
    }
}

/// `key(expr)`.
fn parenthesized_expr(meta: &ParseNestedMeta<'_>) -> syn::Result<Expr> {
    let content;
    syn::parenthesized!(content in meta.input);
    content.parse::<Expr>()
}

/// `extend("key" = value, ...)`.
fn parse_extend(cx: &Ctxt, out: &mut SchemarsAttrs, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if !meta.input.peek(syn::token::Paren) {
        cx.error(meta.path.span(), "expected `extend(\"key\" = value, ...)`");
        return skip_value(meta);
    }
    let content;
    syn::parenthesized!(content in meta.input);
    while !content.is_empty() {
        let key: syn::LitStr = content.parse()?;
        content.parse::<Token![=]>()?;
        let value = json::parse(&content)?;
        if out.extend.iter().any(|(k, _)| *k == key.value()) {
            cx.error(
                key.span(),
                format!("duplicate extension key `{}`", key.value()),
            );
        } else {
            out.extend.push((
                key.value(),
                Val {
                    value,
                    span: key.span(),
                },
            ));
        }
        if !content.is_empty() {
            content.parse::<Token![,]>()?;
        }
    }
    Ok(())
}

fn string_lit(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<syn::LitStr> {
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("expected `{key} = \"...\"`")));
    }
    meta.value()?.parse()
}

fn string(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<String> {
    Ok(string_lit(meta, key)?.value())
}

fn json_value(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Json> {
    if !meta.input.peek(Token![=]) {
        return Err(meta.error(format!("expected `{key} = ...`")));
    }
    json::parse(meta.value()?)
}

fn set<T>(cx: &Ctxt, slot: &mut Option<Val<T>>, key: &str, span: Span, value: T) {
    if slot.is_some() {
        cx.error(span, format!("duplicate schemars attribute `{key}`"));
        return;
    }
    *slot = Some(Val { value, span });
}

fn set_flag(cx: &Ctxt, slot: &mut Option<Val<bool>>, key: &str, span: Span) {
    set(cx, slot, key, span, true);
}

fn duplicate(cx: &Ctxt, source: Source, span: Span, key: &str) {
    if source.strict() {
        cx.error(span, format!("duplicate schemars attribute `{key}`"));
    }
}
