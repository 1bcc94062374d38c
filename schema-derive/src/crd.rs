//! `#[schema(crd(...))]`: a spec struct that defines a custom resource.
//! Parsing (every sub-key with its span, unknown keys with a suggestion),
//! the checks the syntax allows (required keys, the API server's name
//! rules, printer column types and formats, JSON path shapes), and the
//! expansion: the root type, its serde implementations, `CustomResource`
//! and, through a macro of `schema_core` whose body depends on its
//! features, the k8s-openapi traits.
//!
//! What needs the whole type graph (whether a printer column's path names
//! a field of the schema, the selectable fields' types) is checked when
//! `CustomResource::crd` builds the CRD.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::Token;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;

use crate::attr::{self, Val};
use crate::ctxt::Ctxt;
use crate::json::{Json, JsonKind};
use crate::names;
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

fn unknown(cx: &Ctxt, span: Span, what: &str, key: &str, keys: &[&str]) {
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
        STATUS => {
            if !meta.input.peek(Token![=]) {
                cx.error(span, "expected `status = StatusType`");
                return attr::skip_value(&meta);
            }
            let input = meta.value()?;
            let ty: syn::Type = if input.peek(syn::LitStr) {
                let s: syn::LitStr = input.parse()?;
                s.parse()?
            } else {
                input.parse()?
            };
            attr::set(cx, &mut out.status, k, ty.span(), ty);
            Ok(())
        }
        SCALE => {
            if !meta.input.peek(syn::token::Paren) {
                cx.error(
                    span,
                    "expected `scale(spec_replicas_path = \".spec.replicas\", status_replicas_path = \".status.replicas\")`",
                );
                return attr::skip_value(&meta);
            }
            let mut scale = Scale::default();
            let mut unknown_key = false;
            meta.parse_nested_meta(|m| {
                let span = m.path.span();
                let key = attr::key_of(&m).unwrap_or_default();
                let k = key.as_str();
                match k {
                    SPEC_REPLICAS_PATH => {
                        attr::string(cx, &m, k, span, &mut scale.spec_replicas_path)
                    }
                    STATUS_REPLICAS_PATH => {
                        attr::string(cx, &m, k, span, &mut scale.status_replicas_path)
                    }
                    LABEL_SELECTOR_PATH => {
                        attr::string(cx, &m, k, span, &mut scale.label_selector_path)
                    }
                    _ => {
                        unknown_key = true;
                        unknown(cx, span, SCALE, k, SCALE_KEYS);
                        attr::skip_value(&m)
                    }
                }
            })?;
            // After a misspelt key, a missing one is the same mistake.
            for (key, v) in [
                (SPEC_REPLICAS_PATH, &scale.spec_replicas_path),
                (STATUS_REPLICAS_PATH, &scale.status_replicas_path),
            ] {
                if v.is_none() && !unknown_key {
                    cx.error(span, format!("`scale(...)` needs `{key} = \"...\"`"));
                }
            }
            attr::set(cx, &mut out.scale, k, span, scale);
            Ok(())
        }
        PRINTER_COLUMN => {
            if !meta.input.peek(syn::token::Paren) {
                cx.error(
                    span,
                    "expected `printer_column(name = \"...\", type = \"...\", json_path = \"...\")`",
                );
                return attr::skip_value(&meta);
            }
            let mut col = Column::default();
            let mut unknown_key = false;
            meta.parse_nested_meta(|m| {
                let span = m.path.span();
                let key = attr::key_of(&m).unwrap_or_default();
                let k = key.as_str();
                match k {
                    NAME => attr::string(cx, &m, k, span, &mut col.name),
                    TYPE => attr::string(cx, &m, k, span, &mut col.type_),
                    JSON_PATH => attr::string(cx, &m, k, span, &mut col.json_path),
                    DESCRIPTION => attr::string(cx, &m, k, span, &mut col.description),
                    FORMAT => attr::string(cx, &m, k, span, &mut col.format),
                    PRIORITY => attr::count(cx, &m, k, span, &mut col.priority),
                    _ => {
                        unknown_key = true;
                        unknown(cx, span, PRINTER_COLUMN, k, COLUMN_KEYS);
                        attr::skip_value(&m)
                    }
                }
            })?;
            for (key, v) in [
                (NAME, &col.name),
                (TYPE, &col.type_),
                (JSON_PATH, &col.json_path),
            ] {
                if v.is_none() && !unknown_key {
                    cx.error(
                        span,
                        format!("`printer_column(...)` needs `{key} = \"...\"`"),
                    );
                }
            }
            out.printer_columns.push(Val { value: col, span });
            Ok(())
        }
        _ => {
            unknown(cx, span, CRD, k, &crd_keys());
            attr::skip_value(&meta)
        }
    }
}

/// `key = {"a": "b", ...}`: an object of strings (annotations, labels).
fn string_map(
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

fn string_list(
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

/// A printer column, checked.
pub struct ColumnModel {
    name: String,
    type_: String,
    json_path: String,
    description: Option<String>,
    format: Option<String>,
    priority: Option<i64>,
}

/// `crd(object_root, ...)`: the struct is the whole object.
pub struct ObjectRoot {
    /// The type of the `spec` field (`()` without one).
    spec: syn::Type,
}

/// The checked model of `crd(...)`.
pub struct CrdModel {
    root: syn::Ident,
    spec: syn::Ident,
    object_root: Option<ObjectRoot>,
    omitted_names: Vec<&'static str>,
    annotations: Vec<(String, String)>,
    labels: Vec<(String, String)>,
    conversion: Option<Json>,
    preserve_unknown_fields: Option<bool>,
    empty_subresources: bool,
    vis: syn::Visibility,
    group: String,
    version: String,
    kind: String,
    plural: String,
    singular: String,
    list_kind: String,
    short_names: Vec<String>,
    categories: Vec<String>,
    namespaced: bool,
    status: Option<syn::Type>,
    status_subresource: bool,
    spec_optional: bool,
    scale: Option<(String, String, Option<String>)>,
    columns: Vec<ColumnModel>,
    selectable_fields: Vec<String>,
    served: bool,
    storage: bool,
    deprecated: bool,
    deprecation_warning: Option<String>,
    doc: Option<String>,
    max_description_len: Option<i64>,
    generate_embedded_object_meta: bool,
}

const COLUMN_TYPES: &[&str] = &["boolean", "date", "integer", "number", "string"];
const COLUMN_FORMATS: &[&str] = &[
    "byte",
    "date",
    "date-time",
    "double",
    "float",
    "int32",
    "int64",
    "password",
];

fn name_errors(cx: &Ctxt, v: &Val<String>, what: &str, errs: Vec<String>) {
    if !errs.is_empty() {
        cx.error(
            v.span,
            format!("invalid {what} {:?}: {}", v.value, errs.join(", ")),
        );
    }
}

/// `validateSimpleJSONPath` and the prefix the API server asks for.
fn check_path(cx: &Ctxt, v: &Val<String>, what: &str, prefixes: &[&str]) {
    if !v.value.starts_with('.') {
        cx.error(
            v.span,
            format!(
                "invalid {what} {:?}: must be a simple json path starting with .",
                v.value
            ),
        );
    } else if !prefixes.is_empty() && !prefixes.iter().any(|p| v.value.starts_with(p)) {
        let under = prefixes
            .iter()
            .map(|p| p.trim_end_matches('.'))
            .collect::<Vec<_>>()
            .join(" or ");
        cx.error(
            v.span,
            format!(
                "invalid {what} {:?}: should be a json path under {under}",
                v.value
            ),
        );
    }
}

/// `crd(object_root, ...)`: the keys that only make sense around a spec
/// struct, and the fields the root needs.
fn object_root(
    cx: &Ctxt,
    a: &CrdAttrs,
    span: Span,
    fields: &[serde_derive_internals::ast::Field<'_>],
) -> ObjectRoot {
    let misplaced = [
        (
            STATUS,
            a.status.as_ref().map(|v| v.span),
            "the struct's own `status` field is the status",
        ),
        (
            SPEC_OPTIONAL,
            a.spec_optional.as_ref().map(|v| v.span),
            "the struct's own `spec` field says whether the spec is required",
        ),
        (
            DOC,
            a.doc.as_ref().map(|v| v.span),
            "the struct's doc comment (or `description`) describes the root",
        ),
        (
            ROOT,
            a.root.as_ref().map(|v| v.span),
            "the struct itself is the root type",
        ),
    ];
    for (key, at, why) in misplaced {
        if let Some(at) = at {
            cx.error(
                at,
                format!("`{key}` does not apply with `object_root`: {why}"),
            );
        }
    }
    let by_name = |name: &str| {
        fields
            .iter()
            .find(|f| f.attrs.name().serialize_name() == name && !f.attrs.skip_serializing())
    };
    match by_name("metadata") {
        None => cx.error(
            span,
            "`object_root` needs a `metadata` field (`pub metadata: schema_core::rust::ObjectMeta`), as every API object has",
        ),
        Some(f) => {
            let named_metadata =
                matches!(&f.member, syn::Member::Named(i) if i == "metadata");
            if !named_metadata {
                let at = f.original.ident.as_ref().map_or(f.original.span(), |i| i.span());
                cx.error(
                    at,
                    "the `metadata` field of an `object_root` struct must be named `metadata`",
                );
            }
        }
    }
    let spec = by_name("spec").map_or_else(|| syn::parse_quote!(()), |f| f.ty.clone());
    ObjectRoot { spec }
}

impl CrdModel {
    /// Whether the struct is the whole object (`crd(object_root)`).
    pub fn is_object_root(&self) -> bool {
        self.object_root.is_some()
    }
}

/// Checks `crd(...)` on the struct `input` and builds the model. `fields`
/// are the struct's fields when it has named ones (and is not a newtype
/// or transparent).
pub fn build(
    cx: &Ctxt,
    attr: &Val<Box<CrdAttrs>>,
    input: &syn::DeriveInput,
    fields: Option<&[serde_derive_internals::ast::Field<'_>]>,
) -> Option<CrdModel> {
    let a = &attr.value;
    let span = attr.span;
    let Some(fields) = fields else {
        cx.error(
            span,
            "`crd(...)` applies to a struct with named fields: the spec of the custom resource",
        );
        return None;
    };
    let object = a
        .object_root
        .as_ref()
        .filter(|v| v.value)
        .map(|_| object_root(cx, a, span, fields));
    let has_status = fields
        .iter()
        .any(|f| f.attrs.name().serialize_name() == "status");
    if !input.generics.params.is_empty() {
        cx.error(
            input.generics.span(),
            "`crd(...)` needs a spec struct without generic parameters",
        );
    }
    for (key, v) in [(GROUP, &a.group), (VERSION, &a.version), (KIND, &a.kind)] {
        if v.is_none() {
            cx.error(span, format!("`crd(...)` needs `{key} = \"...\"`"));
        }
    }
    let (Some(group), Some(version), Some(kind)) = (&a.group, &a.version, &a.kind) else {
        return None;
    };
    name_errors(cx, group, "group", names::group_errors(&group.value));
    name_errors(cx, version, "version", names::dns1035_label(&version.value));
    if kind.value.is_empty() {
        cx.error(kind.span, "`kind` must not be empty");
    } else {
        name_errors(cx, kind, "kind", names::kind_errors(&kind.value));
    }
    let plural = a
        .plural
        .as_ref()
        .map_or_else(|| names::plural(&kind.value), |p| p.value.clone());
    if let Some(p) = &a.plural {
        name_errors(cx, p, "plural", names::dns1035_label(&p.value));
    } else if !kind.value.is_empty() && !names::dns1035_label(&plural).is_empty() {
        cx.error(
            kind.span,
            format!(
                "the plural of kind {:?} would be {plural:?}, which is not a DNS-1035 label; give one with `plural = \"...\"`",
                kind.value
            ),
        );
    }
    let singular = a
        .singular
        .as_ref()
        .map_or_else(|| kind.value.to_lowercase(), |s| s.value.clone());
    if let Some(s) = &a.singular {
        name_errors(cx, s, "singular", names::dns1035_label(&s.value));
    }
    let list_kind = a
        .list_kind
        .as_ref()
        .map_or_else(|| format!("{}List", kind.value), |l| l.value.clone());
    if let Some(l) = &a.list_kind {
        name_errors(cx, l, "list_kind", names::kind_errors(&l.value));
        if l.value == kind.value {
            cx.error(l.span, "kind and listKind may not be the same");
        }
    }
    let mut short_names = Vec::new();
    for s in a.short_names.iter().flat_map(|l| &l.value) {
        name_errors(cx, s, "short name", names::dns1035_label(&s.value));
        short_names.push(s.value.clone());
    }
    let mut categories = Vec::new();
    for c in a.categories.iter().flat_map(|l| &l.value) {
        name_errors(cx, c, "category", names::dns1035_label(&c.value));
        categories.push(c.value.clone());
    }

    // The root type's name.
    let root_name = a.root.as_ref().unwrap_or(kind);
    let root = if object.is_some() {
        input.ident.clone()
    } else {
        match syn::parse_str::<syn::Ident>(&root_name.value) {
            Ok(_) => format_ident!("{}", root_name.value, span = root_name.span),
            Err(_) => {
                let hint = if a.root.is_some() {
                    ""
                } else {
                    "; name the root type with `root = \"...\"`"
                };
                cx.error(
                    root_name.span,
                    format!(
                        "`{}` is not a Rust identifier, so it cannot name the root type{hint}",
                        root_name.value
                    ),
                );
                return None;
            }
        }
    };
    if root == input.ident && object.is_none() {
        let msg = if a.root.is_some() {
            format!(
                "the root `{}` is the spec struct's own name: the derive generates the root type next to the spec, so it needs another name",
                root_name.value
            )
        } else {
            format!(
                "the kind `{0}` is the spec struct's own name: the derive generates the root type `{0}` next to it; name the spec `{0}Spec`, or the root with `root = \"...\"`",
                root_name.value
            )
        };
        cx.error(root_name.span, msg);
    }

    let has_status = if object.is_some() {
        has_status
    } else {
        a.status.is_some()
    };
    // With `object_root`, the subresource follows the `status` field
    // unless it is written (the API server allows either without the
    // other).
    let status_subresource = match (&a.status_subresource, &object) {
        (Some(s), Some(_)) => s.value,
        (None, Some(_)) => has_status,
        (Some(s), None) => {
            if !has_status {
                cx.error(
                    s.span,
                    "`status_subresource` needs a status: `status = StatusType`",
                );
            }
            has_status && s.value
        }
        (None, None) => has_status,
    };
    let scale = match &a.scale {
        None => None,
        Some(sc) => {
            if !has_status && object.is_none() {
                cx.error(
                    sc.span,
                    "`scale(...)` needs a status (`status = StatusType`): the status replicas path points into it",
                );
            }
            let s = &sc.value;
            if let Some(p) = &s.spec_replicas_path {
                check_path(cx, p, "spec_replicas_path", &[".spec."]);
            }
            if let Some(p) = &s.status_replicas_path {
                check_path(cx, p, "status_replicas_path", &[".status."]);
            }
            if let Some(p) = &s.label_selector_path {
                check_path(cx, p, "label_selector_path", &[".spec.", ".status."]);
            }
            match (&s.spec_replicas_path, &s.status_replicas_path) {
                (Some(spec), Some(status)) => Some((
                    spec.value.clone(),
                    status.value.clone(),
                    s.label_selector_path.as_ref().map(|v| v.value.clone()),
                )),
                _ => None,
            }
        }
    };

    let mut columns = Vec::new();
    // Names may repeat: the API server accepts it (cluster-api's
    // MachineDeployment has two `Available` columns).
    for c in &a.printer_columns {
        let c = &c.value;
        if let Some(n) = &c.name {
            if n.value.is_empty() {
                cx.error(n.span, "a printer column needs a non-empty `name`");
            }
        }
        if let Some(t) = &c.type_ {
            if !COLUMN_TYPES.contains(&t.value.as_str()) {
                cx.error(
                    t.span,
                    format!(
                        "unsupported printer column type {:?}: must be one of {}",
                        t.value,
                        COLUMN_TYPES.join(",")
                    ),
                );
            }
        }
        if let Some(f) = &c.format {
            if !COLUMN_FORMATS.contains(&f.value.as_str()) {
                cx.error(
                    f.span,
                    format!(
                        "unsupported printer column format {:?}: must be one of {}",
                        f.value,
                        COLUMN_FORMATS.join(",")
                    ),
                );
            }
        }
        if let Some(p) = &c.json_path {
            check_path(cx, p, "printer column json_path", &[]);
        }
        if let (Some(name), Some(type_), Some(json_path)) = (&c.name, &c.type_, &c.json_path) {
            columns.push(ColumnModel {
                name: name.value.clone(),
                type_: type_.value.clone(),
                json_path: json_path.value.clone(),
                description: c.description.as_ref().map(|v| v.value.clone()),
                format: c.format.as_ref().map(|v| v.value.clone()),
                priority: c.priority.as_ref().map(|v| v.value),
            });
        }
    }
    let mut selectable_fields = Vec::new();
    for f in &a.selectable_fields {
        check_path(cx, f, "selectable_field", &[]);
        if selectable_fields.contains(&f.value) {
            cx.error(f.span, format!("duplicate selectable field {:?}", f.value));
        }
        selectable_fields.push(f.value.clone());
    }
    if let Some(f) = a.selectable_fields.get(8) {
        cx.error(
            f.span,
            "too many selectable fields: a version may have at most 8",
        );
    }
    if let Some(w) = &a.deprecation_warning {
        if w.value.len() > 256 {
            cx.error(
                w.span,
                "`deprecation_warning` must be no more than 256 characters",
            );
        }
    }
    let deprecation_warning = a.deprecation_warning.as_ref().map(|v| v.value.clone());
    let mut omitted_names = Vec::new();
    if attr::Attrs::flag(&a.explicit_names) {
        if a.singular.is_none() {
            omitted_names.push("singular");
        }
        if a.list_kind.is_none() {
            omitted_names.push("listKind");
        }
    }
    Some(CrdModel {
        root,
        spec: input.ident.clone(),
        object_root: object,
        omitted_names,
        labels: a
            .labels
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_default(),
        conversion: a.conversion.as_ref().map(|v| v.value.clone()),
        preserve_unknown_fields: a.preserve_unknown_fields.as_ref().map(|v| v.value),
        annotations: a
            .annotations
            .as_ref()
            .map(|v| v.value.clone())
            .unwrap_or_default(),
        empty_subresources: attr::Attrs::flag(&a.empty_subresources),
        vis: input.vis.clone(),
        group: group.value.clone(),
        version: version.value.clone(),
        kind: kind.value.clone(),
        plural,
        singular,
        list_kind,
        short_names,
        categories,
        namespaced: attr::Attrs::flag(&a.namespaced),
        status: a.status.as_ref().map(|s| s.value.clone()),
        status_subresource,
        spec_optional: attr::Attrs::flag(&a.spec_optional),
        scale,
        columns,
        selectable_fields,
        served: a.served.as_ref().is_none_or(|s| s.value),
        storage: a.storage.as_ref().is_none_or(|s| s.value),
        deprecated: attr::Attrs::flag(&a.deprecated) || deprecation_warning.is_some(),
        deprecation_warning,
        doc: a.doc.as_ref().map(|d| d.value.clone()),
        max_description_len: a.max_description_len.as_ref().map(|v| v.value),
        generate_embedded_object_meta: attr::Attrs::flag(&a.generate_embedded_object_meta),
    })
}

fn opt_str(v: Option<&str>) -> TokenStream {
    match v {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

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
        None => (
            quote!(#spec),
            quote!(__sp::crd::RootDef::Generated {
                spec: __sp::crd::schema_of::<#spec>,
                spec_optional: #spec_optional,
                status: #status_schema,
                description: #description,
            }),
        ),
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
                    const __DEF: __sp::crd::CrdDef = __sp::crd::CrdDef {
                        root: #root_str,
                        version: #version,
                        schema: #root_def,
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
    if m.object_root.is_some() {
        return quote! {
            const _: () = {
                use #krate::rust::__private as __sp;

                #custom_resource

                #k8s
            };
        };
    }
    quote! {
        #[doc = #struct_doc]
        #[derive(::core::clone::Clone, ::core::fmt::Debug)]
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
