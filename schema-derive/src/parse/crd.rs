//! Parsing `#[schema(crd(...))]` into [`CrdAttrs`]: every sub-key with its
//! span, unknown keys with a suggestion, values of the wrong kind.

use proc_macro2::Span;
use syn::Token;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;

use crate::ctxt::Ctxt;
use crate::parse::json::{Json, JsonKind};
use crate::parse::values::{self as attr, Val};
use crate::symbol::*;

/// One `printer_column(...)`.
#[derive(Clone, Default)]
pub struct Column {
    pub name: Option<Val<String>>,
    pub type_: Option<Val<String>>,
    pub json_path: Option<Val<String>>,
    pub description: Option<Val<String>>,
    pub format: Option<Val<String>>,
    pub priority: Option<Val<i64>>,
}

/// `scale(...)`.
#[derive(Clone, Default)]
pub struct Scale {
    pub spec_replicas_path: Option<Val<String>>,
    pub status_replicas_path: Option<Val<String>>,
    pub label_selector_path: Option<Val<String>>,
}

/// The sub-keys of `crd(...)`, as written.
#[derive(Clone, Default)]
pub struct CrdAttrs {
    pub group: Option<Val<String>>,
    pub version: Option<Val<String>>,
    pub kind: Option<Val<String>>,
    pub plural: Option<Val<String>>,
    pub singular: Option<Val<String>>,
    pub list_kind: Option<Val<String>>,
    pub short_names: Option<Val<Vec<Val<String>>>>,
    pub categories: Option<Val<Vec<Val<String>>>>,
    pub namespaced: Option<Val<bool>>,
    pub status: Option<Val<syn::Type>>,
    pub status_subresource: Option<Val<bool>>,
    pub spec_optional: Option<Val<bool>>,
    pub scale: Option<Val<Scale>>,
    pub printer_columns: Vec<Val<Column>>,
    pub selectable_fields: Vec<Val<String>>,
    pub served: Option<Val<bool>>,
    pub storage: Option<Val<bool>>,
    pub deprecated: Option<Val<bool>>,
    pub deprecation_warning: Option<Val<String>>,
    pub doc: Option<Val<String>>,
    pub max_description_len: Option<Val<i64>>,
    pub root: Option<Val<String>>,
    pub object_root: Option<Val<bool>>,
    pub explicit_names: Option<Val<bool>>,
    pub annotations: Option<Val<Vec<(String, String)>>>,
    pub empty_subresources: Option<Val<bool>>,
    pub generate_embedded_object_meta: Option<Val<bool>>,
    pub labels: Option<Val<Vec<(String, String)>>>,
    pub conversion: Option<Val<Json>>,
    pub preserve_unknown_fields: Option<Val<bool>>,
}

/// Parses `crd(...)` into `slot`.
pub fn parse(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    span: Span,
    slot: &mut Option<Val<Box<CrdAttrs>>>,
) -> syn::Result<()> {
    if !meta.input.peek(syn::token::Paren) {
        cx.error(
            span,
            "expected `crd(group = \"...\", version = \"...\", kind = \"...\")`",
        );
        return attr::skip_value(meta);
    }
    let mut out = CrdAttrs::default();
    meta.parse_nested_meta(|m| parse_key(cx, &mut out, m))?;
    attr::set(cx, slot, CRD, span, Box::new(out));
    Ok(())
}

/// An unknown key of `what`, with the nearest known key or the list.
pub(crate) fn unknown(cx: &Ctxt, span: Span, what: &str, key: &str, keys: &[&str]) {
    let msg = match did_you_mean(key, keys.iter().copied()) {
        Some(s) => format!("unknown `{what}` attribute `{key}`; did you mean `{s}`?"),
        None => format!(
            "unknown `{what}` attribute `{key}`; expected one of {}",
            keys.join(", ")
        ),
    };
    cx.error(span, msg);
}

fn parse_key(cx: &Ctxt, out: &mut CrdAttrs, meta: ParseNestedMeta<'_>) -> syn::Result<()> {
    let span = meta.path.span();
    let Some(key) = attr::key_of(&meta) else {
        cx.error(span, "expected a `crd` attribute name");
        return attr::skip_value(&meta);
    };
    let k = key.as_str();
    match k {
        GROUP => attr::string(cx, &meta, k, span, &mut out.group),
        VERSION => attr::string(cx, &meta, k, span, &mut out.version),
        KIND => attr::string(cx, &meta, k, span, &mut out.kind),
        PLURAL => attr::string(cx, &meta, k, span, &mut out.plural),
        SINGULAR => attr::string(cx, &meta, k, span, &mut out.singular),
        LIST_KIND => attr::string(cx, &meta, k, span, &mut out.list_kind),
        DEPRECATION_WARNING => attr::string(cx, &meta, k, span, &mut out.deprecation_warning),
        DOC => attr::string(cx, &meta, k, span, &mut out.doc),
        ROOT => attr::string(cx, &meta, k, span, &mut out.root),
        NAMESPACED => attr::flag(cx, &meta, k, span, &mut out.namespaced),
        STATUS_SUBRESOURCE => attr::flag(cx, &meta, k, span, &mut out.status_subresource),
        SPEC_OPTIONAL => attr::flag(cx, &meta, k, span, &mut out.spec_optional),
        SERVED => attr::flag(cx, &meta, k, span, &mut out.served),
        STORAGE => attr::flag(cx, &meta, k, span, &mut out.storage),
        DEPRECATED => attr::flag(cx, &meta, k, span, &mut out.deprecated),
        OBJECT_ROOT => attr::flag(cx, &meta, k, span, &mut out.object_root),
        EXPLICIT_NAMES => attr::flag(cx, &meta, k, span, &mut out.explicit_names),
        EMPTY_SUBRESOURCES => attr::flag(cx, &meta, k, span, &mut out.empty_subresources),
        GENERATE_EMBEDDED_OBJECT_META => {
            attr::flag(cx, &meta, k, span, &mut out.generate_embedded_object_meta)
        }
        MAX_DESCRIPTION_LEN => attr::count(cx, &meta, k, span, &mut out.max_description_len),
        SHORT_NAMES => string_list(cx, &meta, k, span, &mut out.short_names),
        ANNOTATIONS => string_map(cx, &meta, k, span, &mut out.annotations),
        LABELS => string_map(cx, &meta, k, span, &mut out.labels),
        PRESERVE_UNKNOWN_FIELDS_CRD => {
            attr::flag(cx, &meta, k, span, &mut out.preserve_unknown_fields)?;
            if let Some(v) = &out.preserve_unknown_fields
                && v.value
            {
                cx.error(
                    v.span,
                    "`preserve_unknown_fields` must be false: an apiextensions.k8s.io/v1 CRD cannot set spec.preserveUnknownFields to true (keep unknown fields with `#[schema(preserve_unknown_fields)]` on a type instead)",
                );
            }
            Ok(())
        }
        CONVERSION => {
            let v = attr::value_json(&meta, k)?;
            if matches!(v.kind, JsonKind::Object(_)) {
                attr::set(cx, &mut out.conversion, k, span, v);
            } else {
                cx.error(
                    v.span,
                    "`conversion` takes the CRD's spec.conversion as an object, like `conversion = {\"strategy\": \"Webhook\", \"webhook\": {...}}`",
                );
            }
            Ok(())
        }
        CATEGORIES => string_list(cx, &meta, k, span, &mut out.categories),
        SELECTABLE_FIELD => {
            let mut one = None;
            attr::string(cx, &meta, k, span, &mut one)?;
            out.selectable_fields.extend(one);
            Ok(())
        }
        STATUS => status_type(cx, &meta, span, &mut out.status),
        SCALE => {
            if let Some(scale) = scale(cx, &meta, span)? {
                attr::set(cx, &mut out.scale, k, span, scale);
            }
            Ok(())
        }
        PRINTER_COLUMN => {
            let usage =
                "expected `printer_column(name = \"...\", type = \"...\", json_path = \"...\")`";
            let col = nested(
                cx,
                &meta,
                (span, PRINTER_COLUMN, COLUMN_KEYS, usage),
                |col: &mut Column, m, k, span| match k {
                    NAME => Some(attr::string(cx, m, k, span, &mut col.name)),
                    TYPE => Some(attr::string(cx, m, k, span, &mut col.type_)),
                    JSON_PATH => Some(attr::string(cx, m, k, span, &mut col.json_path)),
                    DESCRIPTION => Some(attr::string(cx, m, k, span, &mut col.description)),
                    FORMAT => Some(attr::string(cx, m, k, span, &mut col.format)),
                    PRIORITY => Some(attr::count(cx, m, k, span, &mut col.priority)),
                    _ => None,
                },
                |col| {
                    vec![
                        (NAME, col.name.is_some()),
                        (TYPE, col.type_.is_some()),
                        (JSON_PATH, col.json_path.is_some()),
                    ]
                },
            )?;
            if let Some(col) = col {
                out.printer_columns.push(Val { value: col, span });
            }
            Ok(())
        }
        _ => {
            unknown(cx, span, CRD, k, &crd_keys());
            attr::skip_value(&meta)
        }
    }
}

/// `status = StatusType` (or the type as a string, `status = "StatusType"`).
pub(crate) fn status_type(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    span: Span,
    slot: &mut Option<Val<syn::Type>>,
) -> syn::Result<()> {
    if !meta.input.peek(Token![=]) {
        cx.error(span, "expected `status = StatusType`");
        return attr::skip_value(meta);
    }
    let input = meta.value()?;
    let ty: syn::Type = if input.peek(syn::LitStr) {
        let s: syn::LitStr = input.parse()?;
        s.parse()?
    } else {
        input.parse()?
    };
    attr::set(cx, slot, STATUS, ty.span(), ty);
    Ok(())
}

/// `scale(spec_replicas_path = "...", status_replicas_path = "...",
/// label_selector_path = "...")`.
pub(crate) fn scale(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    span: Span,
) -> syn::Result<Option<Scale>> {
    let usage = "expected `scale(spec_replicas_path = \".spec.replicas\", status_replicas_path = \".status.replicas\")`";
    nested(
        cx,
        meta,
        (span, SCALE, SCALE_KEYS, usage),
        |s: &mut Scale, m, k, span| match k {
            SPEC_REPLICAS_PATH => Some(attr::string(cx, m, k, span, &mut s.spec_replicas_path)),
            STATUS_REPLICAS_PATH => Some(attr::string(cx, m, k, span, &mut s.status_replicas_path)),
            LABEL_SELECTOR_PATH => Some(attr::string(cx, m, k, span, &mut s.label_selector_path)),
            _ => None,
        },
        |s| {
            vec![
                (SPEC_REPLICAS_PATH, s.spec_replicas_path.is_some()),
                (STATUS_REPLICAS_PATH, s.status_replicas_path.is_some()),
            ]
        },
    )
}

/// `key(...)` of nested keys (`scale`, `printer_column`): `at` is where it
/// is written, its key, the nested keys and the usage shown without
/// parentheses; `read` reads one nested key (`None`: an unknown one);
/// `required` tells which required keys are present. After a misspelt key,
/// a missing one is the same mistake, so it is not reported.
pub(crate) fn nested<T: Default>(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    at: (Span, &str, &[&str], &str),
    mut read: impl FnMut(&mut T, &ParseNestedMeta<'_>, &str, Span) -> Option<syn::Result<()>>,
    required: impl Fn(&T) -> Vec<(&'static str, bool)>,
) -> syn::Result<Option<T>> {
    let (span, key, keys, usage) = at;
    if !meta.input.peek(syn::token::Paren) {
        cx.error(span, usage);
        attr::skip_value(meta)?;
        return Ok(None);
    }
    let mut value = T::default();
    let mut unknown_key = false;
    meta.parse_nested_meta(|m| {
        let span = m.path.span();
        let name = attr::key_of(&m).unwrap_or_default();
        match read(&mut value, &m, &name, span) {
            Some(read) => read,
            None => {
                unknown_key = true;
                unknown(cx, span, key, &name, keys);
                attr::skip_value(&m)
            }
        }
    })?;
    for (name, present) in required(&value) {
        if !present && !unknown_key {
            cx.error(span, format!("`{key}(...)` needs `{name} = \"...\"`"));
        }
    }
    Ok(Some(value))
}

/// `key = {"a": "b", ...}`: an object of strings (annotations, labels).
pub(crate) fn string_map(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
    slot: &mut Option<Val<Vec<(String, String)>>>,
) -> syn::Result<()> {
    let v = attr::value_json(meta, key)?;
    let pairs = match v.kind {
        JsonKind::Object(entries) => entries
            .into_iter()
            .map(|(key, value)| match value.kind {
                JsonKind::Str(s) => Some((key, s)),
                _ => None,
            })
            .collect::<Option<Vec<_>>>(),
        _ => None,
    };
    match pairs {
        Some(pairs) => attr::set(cx, slot, key, span, pairs),
        None => cx.error(
            v.span,
            format!(
                "`{key}` takes an object of strings, like `{key} = {{\"example.com/owner\": \"team-a\"}}`"
            ),
        ),
    }
    Ok(())
}

/// `key = ["a", "b"]`: an array of strings.
pub(crate) fn string_list(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
    slot: &mut Option<Val<Vec<Val<String>>>>,
) -> syn::Result<()> {
    let v = attr::value_json(meta, key)?;
    let items = match v.kind {
        JsonKind::Array(items) => items
            .into_iter()
            .map(|i| match i.kind {
                JsonKind::Str(s) => Some(Val {
                    value: s,
                    span: i.span,
                }),
                _ => None,
            })
            .collect::<Option<Vec<_>>>(),
        _ => None,
    };
    match items {
        Some(items) => attr::set(cx, slot, key, span, items),
        None => cx.error(
            v.span,
            format!("`{key}` takes an array of strings, like `{key} = [\"a\", \"b\"]`"),
        ),
    }
    Ok(())
}
