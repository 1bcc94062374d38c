//! `kubectl explain`, offline: the plaintext kubectl prints for a resource
//! or one of its fields, from the OpenAPI v3 document the API server
//! publishes for the CRD's group-version ([`publish_v3`]).
//!
//! - [`resolve`] turns what a user types (`widgets.spec.size`,
//!   `Widget`, `wdg.spec`, `widgets.example.com.spec`) into a CRD, a
//!   version and a field path, as kubectl's REST mapper and discovery do:
//!   kind, plural, singular or short name, case-insensitive; the version
//!   discovery prefers (the served version first in Kubernetes' version
//!   order) unless `--api-version` names one.
//! - [`explain`] renders kubectl's `plaintext` template (`template`) over
//!   the document, to the byte; a field that does not exist is kubectl's
//!   error, with a suggestion.
//!
//! [`publish_v3`]: crate::crd::publish::publish_v3

mod json;
mod resolve;
mod template;
mod wrap;

use std::collections::BTreeSet;

use serde_json::Value;

pub use resolve::{ResolveError, Target, resolve};
pub use template::EXTRA_MARK;
use template::{Template, truthy};

/// The longest chain of `items`, `additionalProperties` and `allOf`
/// members (through `$ref`s) followed when looking for a field: real
/// chains are a few members long; the bound ends reference cycles.
const MAX_SCHEMA_CHAIN: usize = 64;

/// A group, version and kind: what kubectl finds in the document's paths
/// and matches against the models' `x-kubernetes-group-version-kind`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gvk {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The version.
    pub version: String,
    /// The kind.
    pub kind: String,
}

/// How much to print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--recursive`: every field below, names and types only.
    pub recursive: bool,
    /// `--max-depth`: how many levels `--recursive` prints (0: all).
    pub max_depth: usize,
    /// Add what kubectl does not show: each field's default, enum values
    /// beyond the four kubectl lists, bounds, pattern, list and map
    /// semantics, CEL rules and messages, `immutable`, nullable and
    /// preserve-unknown-fields, on lines that start with [`EXTRA_MARK`]
    /// (removing them leaves kubectl's output).
    pub extras: bool,
}

/// Why kubectl's template stops.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExplainError {
    /// No operation of the document's paths names the resource's kind.
    #[error("GVR ({0}) not found in OpenAPI schema")]
    GvrNotFound(String),
    /// No model of the document has the kind's group-version-kind.
    #[error("GVK {0} not found in OpenAPI schema")]
    GvkNotFound(String),
    /// The field path leads nowhere; kubectl names its last element.
    #[error("field \"{field}\" does not exist")]
    FieldNotFound {
        /// The last element of the field path, as kubectl names it.
        field: String,
        /// The element that is missing, its position in the path, and the
        /// closest field name where it is missing, if one is close.
        missing: Option<(usize, String, Option<String>)>,
    },
    /// The template failed on a schema it cannot read.
    #[error("{0}")]
    Template(String),
}

/// What `explain` printed before it failed (kubectl writes the `GROUP`,
/// `KIND` and `VERSION` header before it looks for the fields), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplainFailure {
    /// The output written before the error.
    pub printed: String,
    /// The error.
    pub error: ExplainError,
}

/// A group, version and resource, as kubectl asks for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gvr {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The version.
    pub version: String,
    /// The resource (a plural).
    pub resource: String,
}

impl std::fmt::Display for Gvr {
    /// `schema.GroupVersionResource.String()`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/{}, Resource={}",
            self.group, self.version, self.resource
        )
    }
}

/// kubectl's `plaintext` explanation of `fields` (empty: the resource
/// itself) of the kind `gvk`, from `document`, a group-version's OpenAPI
/// v3 document.
///
/// # Errors
///
/// [`ExplainFailure`] as kubectl fails: the kind is not in the document,
/// or the field path does not exist.
pub fn explain(
    document: &Value,
    gvk: &Gvk,
    fields: &[String],
    options: Options,
) -> Result<String, ExplainFailure> {
    render(document, &gvk_value(gvk), fields, options)
}

/// [`explain`] as kubectl starts it, from a resource: the kind is the
/// `x-kubernetes-group-version-kind` of the resource's operations in the
/// document's `paths` (its list, or its get by name, cluster-wide or in a
/// namespace).
///
/// # Errors
///
/// As [`explain`], and [`ExplainError::GvrNotFound`] when no operation of
/// the resource names a kind.
pub fn explain_resource(
    document: &Value,
    gvr: &Gvr,
    fields: &[String],
    options: Options,
) -> Result<String, ExplainFailure> {
    let prefix = if gvr.group.is_empty() {
        "/api".to_string()
    } else {
        format!("/apis/{}", gvr.group)
    };
    let (v, r) = (&gvr.version, &gvr.resource);
    let searched = [
        format!("{prefix}/{v}/{r}"),
        format!("{prefix}/{v}/{r}/{{name}}"),
        format!("{prefix}/{v}/namespaces/{{namespace}}/{r}"),
        format!("{prefix}/{v}/namespaces/{{namespace}}/{r}/{{name}}"),
    ];
    // As the template: every path found assigns the kind again, from its
    // first operation that has one (or from its last operation).
    let mut gvk: Option<&Value> = None;
    for path in &searched {
        let element = document.get("paths").and_then(|p| p.get(path));
        if !truthy(element) {
            continue;
        }
        for method in ["get", "post", "put", "patch", "delete"] {
            let op = element.and_then(|e| e.get(method));
            if !truthy(op) {
                continue;
            }
            gvk = op.and_then(|o| o.get("x-kubernetes-group-version-kind"));
            if truthy(gvk) {
                break;
            }
        }
    }
    match gvk.filter(|g| truthy(Some(g))) {
        Some(gvk) => render(document, gvk, fields, options),
        None => Err(ExplainFailure {
            printed: String::new(),
            error: ExplainError::GvrNotFound(gvr.to_string()),
        }),
    }
}

/// The header kubectl prints before it looks for the fields.
fn header(gvk: &Value) -> String {
    let part = |k: &str| {
        gvk.get(k)
            .map(template::print_value)
            .unwrap_or_else(|| "<no value>".into())
    };
    let mut out = String::new();
    if truthy(gvk.get("group")) {
        out.push_str(&format!("GROUP:      {}\n", part("group")));
    }
    out.push_str(&format!("KIND:       {}\n", part("kind")));
    out.push_str(&format!("VERSION:    {}\n\n", part("version")));
    out
}

/// Runs `f` on the explanation of `fields` of the kind `gvk` (an object
/// with `group`, `version` and `kind`) in `document`.
fn explained<T>(
    document: &Value,
    gvk: &Value,
    fields: &[String],
    options: Options,
    f: impl FnOnce(&Template<'_>, &template::Explained<'_>) -> T,
) -> Result<T, ExplainFailure> {
    let printed = header(gvk);
    let fail = |error| ExplainFailure {
        printed: printed.clone(),
        error,
    };
    let Some(model) = model_of(document, gvk) else {
        return Err(fail(ExplainError::GvkNotFound(template::print_value(gvk))));
    };
    let template = Template {
        document,
        recursive: options.recursive,
        max_depth: options.max_depth,
        extras: options.extras,
    };
    match template.output(model, &BTreeSet::new(), fields) {
        Ok(Some(e)) => Ok(f(&template, &e)),
        Ok(None) => {
            let field = fields.last().cloned().unwrap_or_default();
            let missing = first_missing(document, model, fields);
            Err(fail(ExplainError::FieldNotFound { field, missing }))
        }
        Err(e) => Err(fail(ExplainError::Template(e.0))),
    }
}

/// The template from the header on.
fn render(
    document: &Value,
    gvk: &Value,
    fields: &[String],
    options: Options,
) -> Result<String, ExplainFailure> {
    explained(document, gvk, fields, options, |t, e| {
        format!("{}{}\n", header(gvk), t.plaintext(e))
    })
}

/// [`explain`] as data (`explain -o json`): the kind, the field the path
/// ends at, its description and facts, and its fields with their types,
/// descriptions and facts (nested when `options.recursive`).
///
/// # Errors
///
/// As [`explain`].
pub fn explain_json(
    document: &Value,
    gvk: &Gvk,
    fields: &[String],
    options: Options,
) -> Result<Value, ExplainFailure> {
    let gvk = gvk_value(gvk);
    explained(document, &gvk, fields, options, |_, e| {
        json::to_json(&gvk, fields, e)
    })
}

/// A kind as the template holds it: `{group, kind, version}`.
fn gvk_value(gvk: &Gvk) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("group".into(), Value::String(gvk.group.clone()));
    m.insert("kind".into(), Value::String(gvk.kind.clone()));
    m.insert("version".into(), Value::String(gvk.version.clone()));
    Value::Object(m)
}

/// The model whose `x-kubernetes-group-version-kind` lists `gvk`: the
/// first in name order, as the template ranges over `components.schemas`.
fn model_of<'d>(document: &'d Value, gvk: &Value) -> Option<&'d Value> {
    let schemas = document.pointer("/components/schemas")?.as_object()?;
    let mut names: Vec<&String> = schemas.keys().collect();
    names.sort();
    names.into_iter().map(|n| &schemas[n]).find(|s| {
        s.get("x-kubernetes-group-version-kind")
            .and_then(Value::as_array)
            .is_some_and(|list| list.contains(gvk))
    })
}

/// The object a schema's `$ref` names, else the schema.
fn through_ref<'a>(schema: &'a Value, document: &'a Value) -> &'a Value {
    match template::resolve_ref(schema.get("$ref"), document) {
        Some(r) if truthy(Some(r)) => r,
        _ => schema,
    }
}

/// The fields reachable as the next element of a path from `schema`, as
/// the template looks for them: its properties, or those of its items,
/// additional properties or `allOf` members, through `$ref`s.
fn field_names<'a>(
    schema: &'a Value,
    document: &'a Value,
    names: &mut BTreeSet<&'a str>,
    depth: usize,
) {
    if depth > MAX_SCHEMA_CHAIN {
        return;
    }
    let s = through_ref(schema, document);
    if let Some(Value::Object(props)) = s.get("properties") {
        names.extend(props.keys().map(String::as_str));
    }
    if let Some(items) = s.get("items").filter(|i| i.is_object()) {
        field_names(items, document, names, depth + 1);
    }
    if let Some(add) = s.get("additionalProperties").filter(|a| a.is_object()) {
        field_names(add, document, names, depth + 1);
    }
    if let Some(Value::Array(all_of)) = s.get("allOf") {
        for sub in all_of {
            field_names(sub, document, names, depth + 1);
        }
    }
}

/// The schema of the property `name` reachable from `schema` as in
/// [`field_names`].
fn field_schema<'a>(
    schema: &'a Value,
    document: &'a Value,
    name: &str,
    depth: usize,
) -> Option<&'a Value> {
    if depth > MAX_SCHEMA_CHAIN {
        return None;
    }
    let s = through_ref(schema, document);
    if let Some(p) = s.get("properties").and_then(|p| p.get(name)) {
        return Some(p);
    }
    let nested = [s.get("items"), s.get("additionalProperties")];
    let all_of = s
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    nested
        .into_iter()
        .flatten()
        .filter(|v| v.is_object())
        .chain(all_of)
        .find_map(|sub| field_schema(sub, document, name, depth + 1))
}

/// Where `fields` first leaves the schema: the element's position, the
/// element, and the closest existing name there.
fn first_missing(
    document: &Value,
    model: &Value,
    fields: &[String],
) -> Option<(usize, String, Option<String>)> {
    let mut at = model;
    for (i, f) in fields.iter().enumerate() {
        match field_schema(at, document, f, 0) {
            Some(next) => at = next,
            None => {
                let mut names = BTreeSet::new();
                field_names(at, document, &mut names, 0);
                return Some((i, f.clone(), closest(f, names.into_iter())));
            }
        }
    }
    None
}

/// The candidate closest to `wanted`, if close enough to be a typo:
/// equal ignoring case, or within a third of its length in edits.
pub(crate) fn closest<'a>(
    wanted: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<String> {
    let lower = wanted.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = if c.to_lowercase() == lower {
            0
        } else {
            strsim::levenshtein(&lower, &c.to_lowercase())
        };
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    let limit = (wanted.chars().count() / 3).max(1);
    best.filter(|(d, _)| *d <= limit)
        .map(|(_, c)| c.to_string())
}
