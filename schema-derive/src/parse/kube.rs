//! Parsing kube-derive's `#[kube(...)]` into [`KubeAttrs`]: the keys that
//! name the custom resource land in the same [`CrdAttrs`] as
//! `#[schema(crd(...))]`'s, so that one model checks both; the rest
//! (derives and attributes of the root, the schema mode, root rules,
//! `cel`, `crates(...)`) are kept beside them. Several `#[kube(...)]`
//! attributes are read as one, as kube-derive reads them.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Token, parenthesized};

use crate::ctxt::Ctxt;
use crate::parse::attrs::Rule;
use crate::parse::crd::{self, Column, CrdAttrs, Scale};
use crate::parse::json::{self, Json, JsonKind};
use crate::parse::values::{self as attr, Val};
use crate::symbol::{crd_keys, did_you_mean};

/// The keys of `#[kube(...)]`, as kube-derive 5 documents them.
pub const KUBE_KEYS: &[&str] = &[
    "group",
    "version",
    "kind",
    "doc",
    "root",
    "plural",
    "singular",
    "namespaced",
    "derive",
    "attr",
    "schema",
    "status",
    "category",
    "shortname",
    "printcolumn",
    "selectable",
    "scale",
    "crates",
    "annotation",
    "label",
    "validation",
    "cel",
    "storage",
    "served",
    "deprecated",
    "no_spec",
];

/// The keys of kube-derive 5 this derive does not read yet, with what to
/// write instead.
const NOT_YET: &[(&str, &str)] = &[(
    "no_spec",
    "write the root type itself, with `metadata` and the fields at its root, as `#[derive(StructuralSchema)]` with `#[schema(crd(object_root, ...))]`",
)];

/// The keys kube-derive reads any number of times.
const REPEATED_KEYS: &[&str] = &[
    "shortname",
    "category",
    "printcolumn",
    "selectable",
    "derive",
    "attr",
    "annotation",
    "label",
    "validation",
];

/// The keys of `crates(...)`.
const CRATES_KEYS: &[&str] = &[
    "kube",
    "kube_core",
    "k8s_openapi",
    "schemars",
    "serde",
    "serde_json",
    "std",
];

/// The keys of a typed `printcolumn(...)`.
const PRINTCOLUMN_KEYS: &[&str] = &[
    "name",
    "type_",
    "json_path",
    "description",
    "format",
    "priority",
];

/// Attributes `attr = "..."` may not set on the root, with kube-derive:
/// the derive writes them itself.
const NOT_ALLOWED_ATTRS: &[&str] = &["derive", "serde", "schemars"];

/// `schema = "..."`: where the CRD's schema comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaMode {
    /// `derived` (the default): the spec's and status's schemas.
    Derived,
    /// `manual`: the CRD has no schema; the user sets one.
    Manual,
    /// `disabled`: the CRD has no schema.
    Disabled,
}

/// `#[kube(...)]`, as written, every attribute merged.
#[derive(Default)]
pub struct KubeAttrs {
    /// The keys `crd(...)` also has (names, scope, status, scale,
    /// columns, selectable fields, annotations, labels, served, storage,
    /// deprecation, doc, root).
    pub crd: CrdAttrs,
    /// The first `#[kube]` attribute, for errors about the whole.
    pub span: Option<Span>,
    /// `derive = "..."`, in order.
    pub derives: Vec<Val<syn::Path>>,
    /// `attr = "..."`, in order.
    pub attrs: Vec<syn::Meta>,
    /// `schema = "..."`.
    pub schema: Option<Val<SchemaMode>>,
    /// `validation = ...`: the root's CEL rules.
    pub validations: Vec<Val<Rule>>,
    /// The `validation` expressions that are not string literals (kube's
    /// `Rule` builder), kept to be type-checked as kube-derive's are.
    pub rule_exprs: Vec<syn::Expr>,
    /// `cel`.
    pub cel: Option<Val<bool>>,
}

/// Reads every `#[kube(...)]` attribute of `attrs`.
pub fn parse(cx: &Ctxt, attrs: &[syn::Attribute]) -> KubeAttrs {
    let mut out = KubeAttrs::default();
    let mut seen = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("kube")) {
        out.span.get_or_insert(a.span());
        if let Err(e) = a.parse_nested_meta(|m| parse_key(cx, &mut out, &mut seen, m)) {
            cx.syn_error(e);
        }
    }
    out
}

fn parse_key(
    cx: &Ctxt,
    out: &mut KubeAttrs,
    seen: &mut Vec<String>,
    meta: ParseNestedMeta<'_>,
) -> syn::Result<()> {
    let span = meta.path.span();
    let Some(key) = attr::key_of(&meta) else {
        cx.error(span, "expected a `kube` attribute name");
        return attr::skip_value(&meta);
    };
    let k = key.as_str();
    if KUBE_KEYS.contains(&k) && !REPEATED_KEYS.contains(&k) {
        if seen.contains(&key) {
            cx.error(
                span,
                format!(
                    "`{k}` is written twice: the `#[kube(...)]` attributes are read as one, where only {} may repeat",
                    REPEATED_KEYS.join(", ")
                ),
            );
            return attr::skip_value(&meta);
        }
        seen.push(key.clone());
    }
    let c = &mut out.crd;
    match k {
        "group" => attr::string(cx, &meta, k, span, &mut c.group),
        "version" => attr::string(cx, &meta, k, span, &mut c.version),
        "kind" => attr::string(cx, &meta, k, span, &mut c.kind),
        "doc" => attr::string(cx, &meta, k, span, &mut c.doc),
        "root" => attr::string(cx, &meta, k, span, &mut c.root),
        "plural" => attr::string(cx, &meta, k, span, &mut c.plural),
        "singular" => attr::string(cx, &meta, k, span, &mut c.singular),
        "namespaced" => attr::flag(cx, &meta, k, span, &mut c.namespaced),
        "storage" => attr::flag(cx, &meta, k, span, &mut c.storage),
        "served" => attr::flag(cx, &meta, k, span, &mut c.served),
        "cel" => attr::flag(cx, &meta, k, span, &mut out.cel),
        "status" => crd::status_type(cx, &meta, span, &mut c.status),
        "shortname" => push_string(cx, &meta, k, span, &mut c.short_names),
        "category" => push_string(cx, &meta, k, span, &mut c.categories),
        "selectable" => {
            let mut one = None;
            attr::string(cx, &meta, k, span, &mut one)?;
            c.selectable_fields.extend(one);
            Ok(())
        }
        "annotation" => key_value(cx, &meta, k, span, &mut c.annotations),
        "label" => key_value(cx, &meta, k, span, &mut c.labels),
        "deprecated" => deprecated(cx, &meta, span, c),
        "scale" => {
            let scale = if meta.input.peek(Token![=]) {
                raw_json(cx, &meta, k)?.map(|j| scale_from_json(cx, &j))
            } else {
                crd::scale(cx, &meta, span)?
            };
            if let Some(scale) = scale {
                attr::set(cx, &mut c.scale, k, span, scale);
            }
            Ok(())
        }
        "printcolumn" => {
            let column = if meta.input.peek(Token![=]) {
                raw_json(cx, &meta, k)?.map(|j| column_from_json(cx, &j))
            } else {
                typed_column(cx, &meta, span)?
            };
            if let Some(column) = column {
                c.printer_columns.push(Val {
                    value: column,
                    span,
                });
            }
            Ok(())
        }
        "derive" => {
            let mut one = None;
            attr::string(cx, &meta, k, span, &mut one)?;
            if let Some(d) = one {
                match syn::parse_str::<syn::Path>(&d.value) {
                    Ok(path) => out.derives.push(Val {
                        value: path,
                        span: d.span,
                    }),
                    Err(e) => cx.error(d.span, format!("`derive` takes a path: {e}")),
                }
            }
            Ok(())
        }
        "attr" => {
            let mut one = None;
            attr::string(cx, &meta, k, span, &mut one)?;
            if let Some(a) = one {
                root_attr(cx, &a, &mut out.attrs);
            }
            Ok(())
        }
        "schema" => {
            let mut one = None;
            attr::string(cx, &meta, k, span, &mut one)?;
            if let Some(s) = one {
                let mode = match s.value.as_str() {
                    "derived" => Some(SchemaMode::Derived),
                    "manual" => Some(SchemaMode::Manual),
                    "disabled" => Some(SchemaMode::Disabled),
                    _ => None,
                };
                match mode {
                    Some(mode) => attr::set(cx, &mut out.schema, k, s.span, mode),
                    None => {
                        let modes = ["derived", "manual", "disabled"];
                        let hint = did_you_mean(&s.value, modes)
                            .map_or_else(String::new, |m| format!("; did you mean {m:?}?"));
                        cx.error(
                            s.span,
                            format!(
                                "unknown schema mode {:?}: expected \"derived\", \"manual\" or \"disabled\"{hint}",
                                s.value
                            ),
                        );
                    }
                }
            }
            Ok(())
        }
        "validation" => {
            let input = meta.value()?;
            let expr: syn::Expr = input.parse()?;
            if let Some(rule) = rule_of(cx, &expr) {
                out.validations.push(Val { value: rule, span });
            }
            if !matches!(expr, syn::Expr::Lit(_)) {
                out.rule_exprs.push(expr);
            }
            Ok(())
        }
        "crates" => crates(cx, &meta, span),
        _ if NOT_YET.iter().any(|(key, _)| *key == k) => {
            let hint = NOT_YET
                .iter()
                .find(|(key, _)| *key == k)
                .map_or("", |(_, hint)| *hint);
            cx.error(
                span,
                format!("kube-derive's `{k}` is not supported by this derive yet: {hint}"),
            );
            attr::skip_value(&meta)
        }
        _ if did_you_mean(k, KUBE_KEYS.iter().copied()).is_none() && crd_keys().contains(&k) => {
            cx.error(
                span,
                format!(
                    "`{k}` is a key of `#[schema(crd(...))]`, not of kube-derive's `#[kube(...)]`; expected one of {}",
                    KUBE_KEYS.join(", ")
                ),
            );
            attr::skip_value(&meta)
        }
        _ => {
            crd::unknown(cx, span, "kube", k, KUBE_KEYS);
            attr::skip_value(&meta)
        }
    }
}

/// `key = "..."`, one item of a list the key repeats (`shortname`,
/// `category`).
fn push_string(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
    slot: &mut Option<Val<Vec<Val<String>>>>,
) -> syn::Result<()> {
    let mut one = None;
    attr::string(cx, meta, key, span, &mut one)?;
    if let Some(v) = one {
        slot.get_or_insert_with(|| Val {
            value: Vec::new(),
            span,
        })
        .value
        .push(v);
    }
    Ok(())
}

/// `annotation("key", "value")`, `label("key", "value")`.
fn key_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
    slot: &mut Option<Val<Vec<(String, String)>>>,
) -> syn::Result<()> {
    let usage = format!("expected `{key}(\"example.com/key\", \"value\")`");
    if !meta.input.peek(syn::token::Paren) {
        cx.error(span, usage);
        return attr::skip_value(meta);
    }
    let content;
    parenthesized!(content in meta.input);
    let pair = (|| {
        let k: syn::LitStr = content.parse()?;
        content.parse::<Token![,]>()?;
        let v: syn::LitStr = content.parse()?;
        if !content.is_empty() {
            return Err(content.error("unexpected tokens"));
        }
        Ok((k.value(), v.value()))
    })();
    match pair {
        Ok(pair) => {
            let entries = &mut slot
                .get_or_insert_with(|| Val {
                    value: Vec::new(),
                    span,
                })
                .value;
            if entries.iter().any(|(k, _)| *k == pair.0) {
                cx.error(span, format!("duplicate {key} {:?}", pair.0));
            } else {
                entries.push(pair);
            }
        }
        Err(_) => {
            cx.error(span, usage);
            while !content.is_empty() {
                content.parse::<proc_macro2::TokenTree>()?;
            }
        }
    }
    Ok(())
}

/// `deprecated` or `deprecated = "warning"`.
fn deprecated(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    span: Span,
    c: &mut CrdAttrs,
) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        attr::string(cx, meta, "deprecated", span, &mut c.deprecation_warning)
    } else {
        attr::flag(cx, meta, "deprecated", span, &mut c.deprecated)
    }
}

/// `attr = "..."`: one attribute of the root type.
fn root_attr(cx: &Ctxt, a: &Val<String>, out: &mut Vec<syn::Meta>) {
    let meta = match syn::parse_str::<syn::Meta>(&a.value) {
        Ok(meta) => meta,
        Err(e) => {
            cx.error(a.span, format!("`attr` takes an attribute: {e}"));
            return;
        }
    };
    match meta.path().get_ident().map(ToString::to_string) {
        Some(name) if name == "derive" => cx.error(
            a.span,
            "`attr` cannot set derives; use `derive = \"...\"` for each",
        ),
        Some(name) if NOT_ALLOWED_ATTRS.contains(&name.as_str()) => cx.error(
            a.span,
            format!(
                "`attr` cannot set `#[{name}(...)]` on the root: the derive writes the root's serialization and schema itself"
            ),
        ),
        _ => out.push(meta),
    }
}

/// `crates(kube_core = "...", ...)`: accepted for kube-derive's sake; the
/// code this derive generates names `::schema_core` alone, so the paths
/// are checked and not used.
fn crates(cx: &Ctxt, meta: &ParseNestedMeta<'_>, span: Span) -> syn::Result<()> {
    if !meta.input.peek(syn::token::Paren) {
        cx.error(span, "expected `crates(kube_core = \"::kube::core\", ...)`");
        return attr::skip_value(meta);
    }
    meta.parse_nested_meta(|m| {
        let span = m.path.span();
        let name = attr::key_of(&m).unwrap_or_default();
        if !CRATES_KEYS.contains(&name.as_str()) {
            crd::unknown(cx, span, "crates", &name, CRATES_KEYS);
            return attr::skip_value(&m);
        }
        let mut one = None;
        attr::string(cx, &m, &name, span, &mut one)?;
        if let Some(p) = one
            && let Err(e) = syn::parse_str::<syn::Path>(&p.value)
        {
            cx.error(p.span, format!("`{name}` takes a path: {e}"));
        }
        Ok(())
    })
}

/// `printcolumn(name = "...", type_ = "...", json_path = "...", ...)`.
fn typed_column(cx: &Ctxt, meta: &ParseNestedMeta<'_>, span: Span) -> syn::Result<Option<Column>> {
    let usage = "expected `printcolumn(name = \"...\", type_ = \"...\", json_path = \"...\")` or `printcolumn = r#\"{\"name\": ...}\"#`";
    crd::nested(
        cx,
        meta,
        (span, "printcolumn", PRINTCOLUMN_KEYS, usage),
        |col: &mut Column, m, k, span| match k {
            "name" => Some(attr::string(cx, m, k, span, &mut col.name)),
            "type_" => Some(attr::string(cx, m, k, span, &mut col.type_)),
            "json_path" => Some(attr::string(cx, m, k, span, &mut col.json_path)),
            "description" => Some(attr::string(cx, m, k, span, &mut col.description)),
            "format" => Some(attr::string(cx, m, k, span, &mut col.format)),
            "priority" => Some(attr::count(cx, m, k, span, &mut col.priority)),
            _ => None,
        },
        |col| {
            vec![
                ("name", col.name.is_some()),
                ("type_", col.type_.is_some()),
                ("json_path", col.json_path.is_some()),
            ]
        },
    )
}

/// `key = r#"{...}"#`: the JSON object in the string, read as JSON tokens
/// (positions within the string are not kept: errors point at it).
fn raw_json(cx: &Ctxt, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<Option<Json>> {
    let input = meta.value()?;
    if !input.peek(syn::LitStr) {
        cx.error(
            meta.path.span(),
            format!("`{key} = ...` takes a JSON object in a string, like `{key} = r#\"{{...}}\"#`"),
        );
        while !input.is_empty() && !input.peek(Token![,]) {
            input.parse::<proc_macro2::TokenTree>()?;
        }
        return Ok(None);
    }
    let lit: syn::LitStr = input.parse()?;
    let parsed = syn::parse::Parser::parse_str(json::parse, &lit.value());
    Ok(match parsed {
        Ok(j) if matches!(j.kind, JsonKind::Object(_)) => Some(Json {
            span: lit.span(),
            ..j
        }),
        Ok(_) => {
            cx.error(lit.span(), format!("`{key}` takes a JSON object"));
            None
        }
        Err(e) => {
            cx.error(lit.span(), format!("`{key}` is not a JSON object: {e}"));
            None
        }
    })
}

/// The string members of a JSON object, by their camelCase keys, each
/// stored into its slot (`other` reads the rest, and says whether it knew
/// the key); an unknown key, a value that is not a string or a missing
/// `required` key is an error at the string.
fn json_fields(
    cx: &Ctxt,
    j: &Json,
    (what, required): (&str, &[&str]),
    strings: &mut [(&str, &mut Option<Val<String>>)],
    mut other: impl FnMut(&str, &Json) -> bool,
) {
    let JsonKind::Object(entries) = &j.kind else {
        return;
    };
    for (key, value) in entries {
        if let Some((_, slot)) = strings.iter_mut().find(|(k, _)| *k == key.as_str()) {
            match &value.kind {
                JsonKind::Str(s) => {
                    **slot = Some(Val {
                        value: s.clone(),
                        span: j.span,
                    });
                }
                _ => cx.error(j.span, format!("`{key}` of `{what}` takes a string")),
            }
        } else if !other(key, value) {
            let keys: Vec<&str> = strings.iter().map(|(k, _)| *k).collect();
            let hint = did_you_mean(key, keys.iter().copied())
                .map_or_else(String::new, |s| format!("; did you mean `{s}`?"));
            cx.error(j.span, format!("unknown key `{key}` in `{what}`{hint}"));
        }
    }
    for (key, slot) in strings.iter() {
        if required.contains(key) && slot.is_none() {
            cx.error(j.span, format!("`{what}` needs `{key}`"));
        }
    }
}

fn scale_from_json(cx: &Ctxt, j: &Json) -> Scale {
    let mut s = Scale::default();
    json_fields(
        cx,
        j,
        ("scale", &["specReplicasPath", "statusReplicasPath"]),
        &mut [
            ("specReplicasPath", &mut s.spec_replicas_path),
            ("statusReplicasPath", &mut s.status_replicas_path),
            ("labelSelectorPath", &mut s.label_selector_path),
        ],
        |_, _| false,
    );
    s
}

fn column_from_json(cx: &Ctxt, j: &Json) -> Column {
    let mut c = Column::default();
    let mut priority = None;
    json_fields(
        cx,
        j,
        ("printcolumn", &["name", "type", "jsonPath"]),
        &mut [
            ("name", &mut c.name),
            ("type", &mut c.type_),
            ("jsonPath", &mut c.json_path),
            ("description", &mut c.description),
            ("format", &mut c.format),
        ],
        |key, value| {
            if key != "priority" {
                return false;
            }
            match value.kind {
                JsonKind::UInt(p) => priority = i64::try_from(p).ok(),
                _ => cx.error(j.span, "`priority` of `printcolumn` takes an integer"),
            }
            true
        },
    );
    c.priority = priority.map(|value| Val {
        value,
        span: j.span,
    });
    c
}

/// `validation = ...`: a string literal (the rule), or kube's `Rule`
/// builder written out: `Rule::new("...")` followed by `.message(...)`,
/// `.reason(Reason::...)`, `.field_path("...")`,
/// `.optional_old_self(...)`, and `.into()`.
fn rule_of(cx: &Ctxt, expr: &syn::Expr) -> Option<Rule> {
    let unsupported = |e: &syn::Expr| {
        cx.error_spanned_by(
            e,
            "`validation` is read at compile time: write the rule as a string, or as `Rule::new(\"...\")` with `.message(\"...\")`, `.reason(Reason::...)`, `.field_path(\"...\")` or `.optional_old_self(true)`",
        );
        None
    };
    match expr {
        syn::Expr::Lit(_) | syn::Expr::Group(_) | syn::Expr::Paren(_) => {
            let Some(s) = string_of(expr) else {
                return unsupported(expr);
            };
            Some(Rule {
                rule: Some(s),
                ..Rule::default()
            })
        }
        syn::Expr::Call(call) => {
            let is_new = matches!(&*call.func, syn::Expr::Path(p)
                if p.path.segments.last().is_some_and(|s| s.ident == "new" || s.ident == "from"));
            match (is_new, call.args.first().and_then(string_of)) {
                (true, Some(rule)) if call.args.len() == 1 => Some(Rule {
                    rule: Some(rule),
                    ..Rule::default()
                }),
                _ => unsupported(expr),
            }
        }
        syn::Expr::MethodCall(m) => {
            let mut rule = rule_of(cx, &m.receiver)?;
            let method = m.method.to_string();
            let arg = m.args.first();
            let ok = match (method.as_str(), arg) {
                ("into", None) => true,
                ("message", Some(a)) => message_of(a, &mut rule),
                ("reason", Some(a)) => match a {
                    syn::Expr::Path(p) => p.path.segments.last().is_some_and(|s| {
                        rule.reason = Some(Val {
                            value: s.ident.to_string(),
                            span: s.ident.span(),
                        });
                        true
                    }),
                    _ => string_of(a).is_some_and(|s| {
                        rule.reason = Some(s);
                        true
                    }),
                },
                ("field_path", Some(a)) => string_of(a).is_some_and(|s| {
                    rule.field_path = Some(s);
                    true
                }),
                ("optional_old_self", Some(syn::Expr::Lit(l))) => match &l.lit {
                    syn::Lit::Bool(b) => {
                        rule.optional_old_self = Some(Val {
                            value: b.value,
                            span: b.span,
                        });
                        true
                    }
                    _ => false,
                },
                _ => false,
            };
            if ok { Some(rule) } else { unsupported(expr) }
        }
        _ => unsupported(expr),
    }
}

/// `.message("...")`, `.message(Message::Message("..."))` or
/// `.message(Message::Expression("..."))`.
fn message_of(arg: &syn::Expr, rule: &mut Rule) -> bool {
    if let Some(s) = string_of(arg) {
        rule.message = Some(s);
        return true;
    }
    let syn::Expr::Call(call) = arg else {
        return false;
    };
    let syn::Expr::Path(p) = &*call.func else {
        return false;
    };
    let Some(s) = call.args.first().and_then(string_of) else {
        return false;
    };
    match p
        .path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .as_deref()
    {
        Some("Message") => rule.message = Some(s),
        Some("Expression") => rule.message_expression = Some(s),
        _ => return false,
    }
    true
}

/// A string literal, also as `"...".into()`, `"...".to_string()`,
/// `"...".to_owned()` or `String::from("...")`.
fn string_of(e: &syn::Expr) -> Option<Val<String>> {
    match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(Val {
            value: s.value(),
            span: s.span(),
        }),
        syn::Expr::Group(g) => string_of(&g.expr),
        syn::Expr::Paren(p) => string_of(&p.expr),
        syn::Expr::MethodCall(m)
            if m.args.is_empty()
                && ["into", "to_string", "to_owned"].contains(&m.method.to_string().as_str()) =>
        {
            string_of(&m.receiver)
        }
        syn::Expr::Call(c) if c.args.len() == 1 => match &*c.func {
            syn::Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "from") => {
                c.args.first().and_then(string_of)
            }
            _ => None,
        },
        _ => None,
    }
}
