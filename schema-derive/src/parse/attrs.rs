//! Parsing `#[schema(...)]` into [`Attrs`]: every key with its span, the
//! errors (unknown key with a suggestion, duplicate key, a key not allowed
//! here, a value of the wrong kind) collected in the [`Ctxt`].

use proc_macro2::Span;
use schema_attrs::{Apply, Attribute, ValueKind};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Ident, Token};

use crate::ctxt::{Ctxt, Dialect};
use crate::parse::crd::CrdAttrs;
use crate::parse::json::{Json, JsonKind};
use crate::parse::schemars::{self, SchemarsAttrs};
use crate::parse::values::{Val, count, flag, key_of, set, skip_value, string, value_json, wrong};
use crate::symbol::*;

pub use schema_attrs::Num;

/// One `validation(...)`.
#[derive(Clone, Debug, Default)]
pub struct Rule {
    pub rule: Option<Val<String>>,
    pub message: Option<Val<String>>,
    pub message_expression: Option<Val<String>>,
    pub reason: Option<Val<String>>,
    pub field_path: Option<Val<String>>,
    pub optional_old_self: Option<Val<bool>>,
}

/// Which one-of group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneOfKind {
    AtMost,
    Exactly,
    AtLeast,
}

/// A one-of group: the Rust field names.
#[derive(Clone, Debug)]
pub struct OneOfGroup {
    pub kind: OneOfKind,
    pub fields: Vec<Ident>,
}

/// The `#[schema(...)]` attributes of one node (a type, a field or an
/// `items(...)`).
#[derive(Clone, Default)]
pub struct Attrs {
    pub minimum: Option<Val<Num>>,
    pub maximum: Option<Val<Num>>,
    pub exclusive_minimum: Option<Val<bool>>,
    pub exclusive_maximum: Option<Val<bool>>,
    pub multiple_of: Option<Val<Num>>,
    pub min_length: Option<Val<i64>>,
    pub max_length: Option<Val<i64>>,
    pub pattern: Option<Val<String>>,
    pub format: Option<Val<String>>,
    pub enum_: Option<Val<Vec<Json>>>,
    pub min_items: Option<Val<i64>>,
    pub max_items: Option<Val<i64>>,
    pub unique_items: Option<Val<bool>>,
    pub min_properties: Option<Val<i64>>,
    pub max_properties: Option<Val<i64>>,
    pub items: Option<Val<Box<Attrs>>>,
    pub default: Option<Val<Json>>,
    pub nullable: Option<Val<bool>>,
    pub required: Option<Val<bool>>,
    pub optional: Option<Val<bool>>,
    pub title: Option<Val<String>>,
    pub description: Option<Val<String>>,
    pub example: Option<Val<Json>>,
    pub type_: Option<Val<String>>,
    pub schemaless: Option<Val<bool>>,
    pub preserve_unknown_fields: Option<Val<bool>>,
    pub embedded_resource: Option<Val<bool>>,
    pub int_or_string: Option<Val<bool>>,
    pub list_type: Option<Val<String>>,
    pub list_map_keys: Option<Val<Vec<String>>>,
    /// `all_of`, `any_of`, `one_of` (arrays of schemas) and `not` (a
    /// schema), as JSON, in the order written.
    pub junctors: Vec<(&'static str, Val<Json>)>,
    /// The attributes the runtime applies by their schema key
    /// (`schema_attrs::Apply::SetKey`), in the order written.
    pub set_keys: Vec<(&'static Attribute, Val<Json>)>,
    pub required_order: Option<Val<Vec<String>>>,
    pub map_type: Option<Val<String>>,
    pub struct_type: Option<Val<String>>,
    pub validations: Vec<Val<Rule>>,
    pub immutable: Option<Val<bool>>,
    pub one_of: Vec<Val<OneOfGroup>>,
    pub with: Option<Val<syn::ExprPath>>,
    pub skip: Option<Val<bool>>,
    pub crate_path: Option<Val<syn::Path>>,
    /// `crd(...)`: the custom resource this spec struct defines.
    pub crd: Option<Val<Box<CrdAttrs>>>,
    /// What schemars reads (`#[derive(JsonSchema)]` only) beyond the keys
    /// merged into the fields above (`title`, `description`, `example`,
    /// `required`, `skip`).
    pub schemars: SchemarsAttrs,
    /// The first `#[schema]` attribute, to point errors at all of it.
    pub first_attr: Option<syn::Attribute>,
    /// The keys written, in order.
    pub keys: Vec<String>,
}

impl Attrs {
    /// Whether a flag is set (and not `= false`).
    pub fn flag(v: &Option<Val<bool>>) -> bool {
        v.as_ref().is_some_and(|v| v.value)
    }

    /// Whether the node's schema comes from the attributes rather than the
    /// Rust type (`with`, `type`, `schemaless`, `int_or_string`, schemars'
    /// `schema_with`).
    pub fn replaces(&self) -> bool {
        self.has_schema_fn()
            || self.type_.is_some()
            || Self::flag(&self.schemaless)
            || Self::flag(&self.int_or_string)
    }

    /// Whether a function gives the node's schema (`with`, schemars'
    /// `schema_with`).
    pub fn has_schema_fn(&self) -> bool {
        self.with.is_some() || self.schemars.schema_with.is_some()
    }

    /// Whether no schema key is written.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// Parses every `#[schema(...)]` among `attrs` for `target`.
pub fn parse(cx: &Ctxt, attrs: &[syn::Attribute], target: Place) -> Attrs {
    let mut out = Attrs::default();
    for attr in attrs {
        if !attr.path().is_ident("schema") {
            continue;
        }
        if out.first_attr.is_none() {
            out.first_attr = Some(attr.clone());
        }
        if let syn::Meta::Path(_) = attr.meta {
            cx.error_spanned_by(attr, "expected `#[schema(...)]`");
            continue;
        }
        if let Err(e) = attr.parse_nested_meta(|meta| parse_key(cx, &mut out, meta, target)) {
            cx.syn_error(e);
        }
    }
    if cx.dialect() == Dialect::Schemars {
        merge_schemars(cx, &mut out, schemars::parse(cx, attrs, target));
        // schemars' title from a doc comment's `# heading`.
        if out.title.is_none() {
            if let Some(title) = crate::parse::doc::schemars_title(attrs) {
                out.title = Some(Val {
                    value: title,
                    span: Span::call_site(),
                });
            }
        }
    }
    out
}

/// Merges what schemars reads into the node's attributes: the keys that
/// mean what ours mean become ours (a key given both ways is an error),
/// the rest stays in [`Attrs::schemars`] (`skip_serializing` only takes
/// the default away, as schemars judges required fields as
/// deserialization does).
fn merge_schemars(cx: &Ctxt, out: &mut Attrs, mut s: SchemarsAttrs) {
    fn take<T>(cx: &Ctxt, slot: &mut Option<Val<T>>, from: Option<Val<T>>, key: &str) {
        let Some(v) = from else { return };
        if slot.is_some() {
            cx.error(
                v.span,
                format!(
                    "`{key}` is given both in `#[schema(...)]` and in `#[schemars(...)]`; keep one"
                ),
            );
        } else {
            *slot = Some(v);
        }
    }
    take(cx, &mut out.title, s.title.take(), TITLE);
    take(cx, &mut out.description, s.description.take(), DESCRIPTION);
    take(cx, &mut out.example, s.example.take(), EXAMPLE);
    take(cx, &mut out.required, s.required.take(), REQUIRED);
    take(cx, &mut out.skip, s.skip.take(), SKIP);
    if let (Some(w), Some(_)) = (&s.schema_with, &out.with) {
        cx.error(
            w.span,
            "`schema_with` cannot be combined with `#[schema(with = ...)]`",
        );
    }
    out.keys.append(&mut s.keys);
    out.schemars = s;
}

fn parse_key(
    cx: &Ctxt,
    out: &mut Attrs,
    meta: ParseNestedMeta<'_>,
    target: Place,
) -> syn::Result<()> {
    let span = meta.path.span();
    let Some(key) = key_of(&meta) else {
        cx.error(span, "expected a schema attribute name");
        return skip_value(&meta);
    };
    match allowed(&key, target) {
        None => {
            let candidates = ATTRIBUTES
                .iter()
                .filter(|a| a.places.contains(target))
                .map(|a| a.key);
            let msg = match (
                schemars::native_equivalent(&key),
                did_you_mean(&key, candidates),
            ) {
                (Some(ours), _) => format!(
                    "unknown schema attribute `{key}`: `{key}` is schemars' key; here write {ours}, or derive `schema_core::kube::JsonSchema`, which reads it in `#[schemars(...)]`"
                ),
                (None, Some(s)) => format!("unknown schema attribute `{key}`; did you mean `{s}`?"),
                (None, None) => format!("unknown schema attribute `{key}`"),
            };
            cx.error(span, msg);
            return skip_value(&meta);
        }
        Some(false) => {
            cx.error(
                span,
                format!(
                    "`{key}` is not allowed on {}; it applies to {}",
                    target.describe(),
                    places_of(&key)
                ),
            );
            return skip_value(&meta);
        }
        Some(true) => {}
    }
    out.keys.push(key.clone());
    if let Some(a) = schema_attrs::attribute(&key).filter(|a| a.apply == Apply::SetKey) {
        return set_key(cx, out, &meta, a, span);
    }
    let k = key.as_str();
    match k {
        MINIMUM => num(cx, &meta, k, span, &mut out.minimum),
        MAXIMUM => num(cx, &meta, k, span, &mut out.maximum),
        MULTIPLE_OF => num(cx, &meta, k, span, &mut out.multiple_of),
        EXCLUSIVE_MINIMUM => flag(cx, &meta, k, span, &mut out.exclusive_minimum),
        EXCLUSIVE_MAXIMUM => flag(cx, &meta, k, span, &mut out.exclusive_maximum),
        UNIQUE_ITEMS => flag(cx, &meta, k, span, &mut out.unique_items),
        NULLABLE => flag(cx, &meta, k, span, &mut out.nullable),
        REQUIRED => flag(cx, &meta, k, span, &mut out.required),
        OPTIONAL => flag(cx, &meta, k, span, &mut out.optional),
        SCHEMALESS => flag(cx, &meta, k, span, &mut out.schemaless),
        PRESERVE_UNKNOWN_FIELDS => flag(cx, &meta, k, span, &mut out.preserve_unknown_fields),
        EMBEDDED_RESOURCE => flag(cx, &meta, k, span, &mut out.embedded_resource),
        INT_OR_STRING => flag(cx, &meta, k, span, &mut out.int_or_string),
        IMMUTABLE => flag(cx, &meta, k, span, &mut out.immutable),
        SKIP => flag(cx, &meta, k, span, &mut out.skip),
        MIN_LENGTH => count(cx, &meta, k, span, &mut out.min_length),
        MAX_LENGTH => count(cx, &meta, k, span, &mut out.max_length),
        MIN_ITEMS => count(cx, &meta, k, span, &mut out.min_items),
        MAX_ITEMS => count(cx, &meta, k, span, &mut out.max_items),
        MIN_PROPERTIES => count(cx, &meta, k, span, &mut out.min_properties),
        MAX_PROPERTIES => count(cx, &meta, k, span, &mut out.max_properties),
        PATTERN => string(cx, &meta, k, span, &mut out.pattern),
        FORMAT => string(cx, &meta, k, span, &mut out.format),
        TITLE => string(cx, &meta, k, span, &mut out.title),
        DESCRIPTION => string(cx, &meta, k, span, &mut out.description),
        TYPE => string(cx, &meta, k, span, &mut out.type_),
        LIST_TYPE => string(cx, &meta, k, span, &mut out.list_type),
        MAP_TYPE => string(cx, &meta, k, span, &mut out.map_type),
        STRUCT_TYPE => string(cx, &meta, k, span, &mut out.struct_type),
        DEFAULT => json_value(cx, &meta, k, span, &mut out.default),
        EXAMPLE => json_value(cx, &meta, k, span, &mut out.example),
        ENUM => {
            let v = value_json(&meta, k)?;
            match v.kind {
                JsonKind::Array(items) if !items.is_empty() => {
                    set(cx, &mut out.enum_, k, span, items);
                }
                _ => cx.error(
                    v.span,
                    format!(
                        "`{k}` takes a non-empty array of values, like `enum = [\"A\", \"B\"]`"
                    ),
                ),
            }
            Ok(())
        }
        ALL_OF | ANY_OF | ONE_OF | NOT => {
            let v = value_json(&meta, k)?;
            let key = match k {
                ALL_OF => ALL_OF,
                ANY_OF => ANY_OF,
                ONE_OF => ONE_OF,
                _ => NOT,
            };
            let ok = match &v.kind {
                JsonKind::Array(items) => {
                    key != NOT
                        && !items.is_empty()
                        && items.iter().all(|i| matches!(i.kind, JsonKind::Object(_)))
                }
                JsonKind::Object(_) => key == NOT,
                _ => false,
            };
            if !ok {
                let want = if key == NOT {
                    "a schema as a JSON object, like `not = {\"required\": [\"a\"]}`".to_string()
                } else {
                    format!(
                        "a non-empty array of schemas as JSON objects, like `{key} = [{{\"required\": [\"a\"]}}, {{\"required\": [\"b\"]}}]`"
                    )
                };
                cx.error(v.span, format!("`{k}` takes {want}"));
            } else if out.junctors.iter().any(|(j, _)| *j == key) {
                cx.error(span, format!("duplicate schema attribute `{k}`"));
            } else {
                out.junctors.push((key, Val { value: v, span }));
            }
            Ok(())
        }
        REQUIRED_ORDER => strings(
            cx,
            &meta,
            k,
            span,
            &mut out.required_order,
            "property names",
        ),
        LIST_MAP_KEYS => strings(cx, &meta, k, span, &mut out.list_map_keys, "strings"),
        ITEMS => {
            if !meta.input.peek(syn::token::Paren) {
                cx.error(
                    span,
                    "expected `items(...)` with the attributes of the items",
                );
                return skip_value(&meta);
            }
            let mut inner = Attrs::default();
            meta.parse_nested_meta(|m| parse_key(cx, &mut inner, m, Place::Items))?;
            set(cx, &mut out.items, k, span, Box::new(inner));
            Ok(())
        }
        VALIDATION => {
            if !meta.input.peek(syn::token::Paren) {
                cx.error(
                    span,
                    "expected `validation(rule = \"...\", message = \"...\")`",
                );
                return skip_value(&meta);
            }
            let mut rule = Rule::default();
            meta.parse_nested_meta(|m| parse_rule_key(cx, &mut rule, m))?;
            if rule.rule.is_none() {
                cx.error(span, "`validation(...)` needs a `rule = \"...\"`");
            }
            out.validations.push(Val { value: rule, span });
            Ok(())
        }
        EXACTLY_ONE_OF | AT_MOST_ONE_OF | AT_LEAST_ONE_OF => {
            let kind = match k {
                EXACTLY_ONE_OF => OneOfKind::Exactly,
                AT_MOST_ONE_OF => OneOfKind::AtMost,
                _ => OneOfKind::AtLeast,
            };
            if !meta.input.peek(syn::token::Paren) {
                cx.error(span, format!("expected `{k}(field_a, field_b, ...)`"));
                return skip_value(&meta);
            }
            let mut fields = Vec::new();
            meta.parse_nested_meta(|m| {
                match m.path.get_ident() {
                    Some(id) if m.input.is_empty() || m.input.peek(Token![,]) => {
                        fields.push(id.clone())
                    }
                    _ => {
                        cx.error(m.path.span(), "expected a field name");
                        skip_value(&m)?;
                    }
                }
                Ok(())
            })?;
            if fields.len() < 2 {
                cx.error(span, format!("`{k}(...)` needs at least two fields"));
            }
            out.one_of.push(Val {
                value: OneOfGroup { kind, fields },
                span,
            });
            Ok(())
        }
        WITH => {
            let input = meta.value()?;
            let path: syn::ExprPath = if input.peek(syn::LitStr) {
                let s: syn::LitStr = input.parse()?;
                s.parse()?
            } else {
                input.parse()?
            };
            set(cx, &mut out.with, k, span, path);
            Ok(())
        }
        CRD => crate::parse::crd::parse(cx, &meta, span, &mut out.crd),
        CRATE => {
            let input = meta.value()?;
            let path: syn::Path = if input.peek(syn::LitStr) {
                let s: syn::LitStr = input.parse()?;
                s.parse()?
            } else {
                input.parse()?
            };
            set(cx, &mut out.crate_path, k, span, path);
            Ok(())
        }
        _ => {
            cx.error(span, format!("unsupported schema attribute `{k}`"));
            skip_value(&meta)
        }
    }
}

/// `key = ["a", "b"]`: a non-empty array of strings (`what` in the
/// message), like the table's example.
fn strings(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
    slot: &mut Option<Val<Vec<String>>>,
    what: &str,
) -> syn::Result<()> {
    let v = value_json(meta, key)?;
    let list = match v.kind {
        JsonKind::Array(items) if !items.is_empty() => items
            .into_iter()
            .map(|i| match i.kind {
                JsonKind::Str(s) => Some(s),
                _ => None,
            })
            .collect::<Option<Vec<String>>>(),
        _ => None,
    };
    match list {
        Some(list) => set(cx, slot, key, span, list),
        None => {
            let example = schema_attrs::attribute(key).map_or("", |a| a.example);
            cx.error(
                v.span,
                format!("`{key}` takes a non-empty array of {what}, like `{example}`"),
            );
        }
    }
    Ok(())
}

/// An attribute the runtime applies by its schema key: its value read and
/// checked by the kind the table gives it.
fn set_key(
    cx: &Ctxt,
    out: &mut Attrs,
    meta: &ParseNestedMeta<'_>,
    a: &'static Attribute,
    span: Span,
) -> syn::Result<()> {
    let v = value_json(meta, a.key)?;
    let ok = match (a.value, &v.kind) {
        (ValueKind::Json, _) => true,
        (ValueKind::JsonObject, JsonKind::Object(_)) => true,
        (ValueKind::JsonArray, JsonKind::Array(items)) => !items.is_empty(),
        (ValueKind::String | ValueKind::Regex, JsonKind::Str(_)) => true,
        (ValueKind::Count, JsonKind::UInt(u)) => i64::try_from(*u).is_ok(),
        (ValueKind::Number, JsonKind::Int(_) | JsonKind::UInt(_) | JsonKind::Float(_)) => true,
        (ValueKind::Flag, JsonKind::Bool(_)) => true,
        _ => false,
    };
    if !ok {
        wrong(cx, &v, a.key, a.value.describe(), a.example);
    } else if out.set_keys.iter().any(|(b, _)| b.key == a.key) {
        cx.error(span, format!("duplicate schema attribute `{}`", a.key));
    } else {
        out.set_keys.push((a, Val { value: v, span }));
    }
    Ok(())
}

fn parse_rule_key(cx: &Ctxt, rule: &mut Rule, meta: ParseNestedMeta<'_>) -> syn::Result<()> {
    let span = meta.path.span();
    let Some(key) = key_of(&meta) else {
        cx.error(span, "expected a rule attribute name");
        return skip_value(&meta);
    };
    let k = key.as_str();
    match k {
        RULE => string(cx, &meta, k, span, &mut rule.rule),
        MESSAGE => string(cx, &meta, k, span, &mut rule.message),
        MESSAGE_EXPRESSION => string(cx, &meta, k, span, &mut rule.message_expression),
        REASON => string(cx, &meta, k, span, &mut rule.reason),
        FIELD_PATH => string(cx, &meta, k, span, &mut rule.field_path),
        OPTIONAL_OLD_SELF => flag(cx, &meta, k, span, &mut rule.optional_old_self),
        _ => {
            let msg = match did_you_mean(k, RULE_KEYS.iter().copied()) {
                Some(s) => format!("unknown `validation` attribute `{k}`; did you mean `{s}`?"),
                None => format!(
                    "unknown `validation` attribute `{k}`; expected one of {}",
                    RULE_KEYS.join(", ")
                ),
            };
            cx.error(span, msg);
            skip_value(&meta)
        }
    }
}

fn json_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
    slot: &mut Option<Val<Json>>,
) -> syn::Result<()> {
    let v = value_json(meta, key)?;
    set(cx, slot, key, span, v);
    Ok(())
}

fn num(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    span: Span,
    slot: &mut Option<Val<Num>>,
) -> syn::Result<()> {
    let v = value_json(meta, key)?;
    let n = match v.kind {
        JsonKind::Int(i) => Num::Int(i),
        JsonKind::UInt(u) => Num::UInt(u),
        JsonKind::Float(f) => Num::Float(f),
        _ => {
            wrong(cx, &v, key, "a number", &format!("{key} = 1"));
            return Ok(());
        }
    };
    set(cx, slot, key, span, n);
    Ok(())
}
