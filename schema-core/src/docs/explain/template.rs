//! kubectl's `plaintext` explain template (`k8s.io/kubectl`
//! `pkg/explain/v2/templates/plaintext.tmpl`, v0.37), written out as Rust
//! over the OpenAPI v3 document of a group-version. Each function is one
//! of the template's `define`s and keeps its name; Go templates' notions
//! are kept where they decide the output: truthiness (an empty object,
//! list or string is false), `range` over an object in key order,
//! `resolveRef` following `#/...` fragments only, and the `$ref` history
//! that stops at cycles.

use std::collections::BTreeSet;

use serde_json::Value;

use super::wrap::{indent, wrap};
use crate::docs::facts::{Fact, FactStyle, facts, type_name};
use crate::go::fmt::format_float;

/// What the template functions see: the document, and how deep to list.
pub(super) struct Template<'a> {
    /// The group-version's document.
    pub document: &'a Value,
    /// `--recursive`.
    pub recursive: bool,
    /// `--max-depth` (0: no limit).
    pub max_depth: usize,
    /// Whether to add the lines kubectl leaves out ([`extra_lines`]).
    pub extras: bool,
}

/// The marker that starts every line kubectl does not print: removing
/// the lines that start with it (after their indentation) leaves kubectl's
/// output.
pub const EXTRA_MARK: &str = "~ ";

/// The widest value of a fact on the one line a field gets in a
/// recursive listing.
const SHORT_FACT_CHARS: usize = 60;

/// What kubectl does not print about a node: its facts (default, bounds,
/// list semantics, CEL rules, ...), one per line indented by `indent`
/// and marked with [`EXTRA_MARK`]; a rule's details one step further in.
/// `enum` only when kubectl cut the list short (more than `enum_shown`
/// values).
fn extra_lines(node: &Value, indent: usize, enum_shown: Option<usize>) -> String {
    let mut out = String::new();
    for fact in shown_facts(node, enum_shown) {
        let pad = " ".repeat(indent + if fact.detail { 2 } else { 0 });
        for (i, line) in fact.value.split('\n').enumerate() {
            out.push_str(&pad);
            out.push_str(EXTRA_MARK);
            if i == 0 {
                out.push_str(fact.label);
                if fact.style != FactStyle::Flag {
                    out.push_str(": ");
                    out.push_str(line);
                }
            } else {
                out.push_str("  ");
                out.push_str(line);
            }
            out.push('\n');
        }
    }
    out
}

/// The same facts on one line (`~ default: 1; minimum: 0; immutable`),
/// each value cut to [`SHORT_FACT_CHARS`], or "" without facts.
fn extra_line(node: &Value, indent: usize) -> String {
    let parts: Vec<String> = shown_facts(node, Some(4))
        .into_iter()
        .filter(|f| !f.detail)
        .map(|f| {
            if f.style == FactStyle::Flag {
                return f.label.to_string();
            }
            let one_line = f.value.replace('\n', " ");
            let value = match one_line.char_indices().nth(SHORT_FACT_CHARS) {
                Some((i, _)) => format!("{}…", &one_line[..i]),
                None => one_line,
            };
            format!("{}: {value}", f.label)
        })
        .collect();
    if parts.is_empty() {
        return String::new();
    }
    format!("{}{EXTRA_MARK}{}\n", " ".repeat(indent), parts.join("; "))
}

/// The facts of a node that kubectl leaves out: an int-or-string's type
/// (kubectl names it `Object`), then [`facts`].
fn shown_facts(node: &Value, enum_shown: Option<usize>) -> Vec<Fact> {
    let enum_len = get(node, "enum")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let int_or_string = (type_name(node) == "int-or-string").then(|| Fact {
        label: "type",
        value: "int-or-string (an integer or a string)".into(),
        style: FactStyle::Text,
        detail: false,
    });
    int_or_string
        .into_iter()
        .chain(facts(node))
        .filter(|f| f.label != "external docs")
        .filter(|f| f.label != "enum" || enum_shown.is_some_and(|n| enum_len > n))
        .collect()
}

/// Go templates' truth of a value.
pub(super) fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

/// `.key` of a schema, when the schema is an object.
fn get<'v>(schema: &'v Value, key: &str) -> Option<&'v Value> {
    schema.as_object().and_then(|m| m.get(key))
}

/// The string at `.key`, or "" (a missing key prints as nothing here).
fn get_str<'v>(schema: &'v Value, key: &str) -> &'v str {
    get(schema, key).and_then(Value::as_str).unwrap_or("")
}

/// `and .additionalProperties (not (eq "bool" (printf "%T" ...)))`: the
/// additional properties as a schema, when they are one.
fn additional_schema(schema: &Value) -> Option<&Value> {
    let a = get(schema, "additionalProperties")?;
    (truthy(Some(a)) && !a.is_boolean()).then_some(a)
}

/// The template function `resolveRef`: the object a `#/a/b/c` reference
/// names in the document, or `None` (not a string, not a fragment-only
/// reference, or not found).
pub(super) fn resolve_ref<'d>(reference: Option<&Value>, document: &'d Value) -> Option<&'d Value> {
    let r = reference?.as_str()?;
    // jsonreference.New: only a reference that is just a fragment is
    // resolved; its fragment is percent-decoded as a URL's.
    let fragment = r.strip_prefix('#')?;
    if fragment.is_empty() {
        return None;
    }
    let fragment = percent_decode(fragment)?;
    walk(document, &fragment)
}

/// The object at `fragment`'s components, each an object.
fn walk<'d>(document: &'d Value, fragment: &str) -> Option<&'d Value> {
    let mut cur = document;
    cur.as_object()?;
    for k in fragment.split('/') {
        if k.is_empty() {
            continue;
        }
        cur = cur.as_object()?.get(k)?;
        cur.as_object()?;
    }
    Some(cur)
}

/// A URL fragment's percent-decoding (`url.Parse`); `None` when it is
/// malformed, as `jsonreference.New` then fails.
fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `or (resolveRef $ref $.Document) $.schema`.
fn resolved<'a>(schema: &'a Value, document: &'a Value) -> &'a Value {
    match resolve_ref(get(schema, "$ref"), document) {
        Some(r) if truthy(Some(r)) => r,
        _ => schema,
    }
}

/// `or (index $.schema "$ref") ""`, as the history's key.
fn ref_string(schema: &Value) -> String {
    match get(schema, "$ref") {
        Some(Value::String(s)) => s.clone(),
        Some(v) if truthy(Some(v)) => v.to_string(),
        _ => String::new(),
    }
}

/// What the template explains: a node and the fields it lists.
pub(super) struct Explained<'d> {
    /// The field the path ends at (`FIELD:`), absent for the resource.
    pub field: Option<FieldHeader<'d>>,
    /// The node as its parent has it (its facts), and through its `$ref`.
    pub node: &'d Value,
    /// The node through its `$ref` (description, external docs).
    pub resolved: &'d Value,
    /// `define "description"` of the node: each description met, each
    /// followed by a newline; "" for none.
    pub description: String,
    /// `define "fieldList"` of the node.
    pub fields: Vec<Entry<'d>>,
}

/// The `FIELD:` line of an explanation.
pub(super) struct FieldHeader<'d> {
    /// The field's name.
    pub name: String,
    /// Its type as kubectl names it.
    pub type_name: String,
    /// Its schema (its enum).
    pub schema: &'d Value,
}

/// One field of a field list.
pub(super) struct Entry<'d> {
    /// The property name.
    pub name: String,
    /// Its type as kubectl names it.
    pub type_name: String,
    /// Whether its object requires it.
    pub required: bool,
    /// Its schema.
    pub schema: &'d Value,
    /// Its depth (1: a field of the explained node).
    pub level: usize,
    /// Its own fields, when listed recursively.
    pub fields: Vec<Entry<'d>>,
}

/// An error the template raises (`fail`): a schema where one is needed is
/// missing.
#[derive(Debug)]
pub(super) struct TemplateFailure(pub String);

type Out = Result<String, TemplateFailure>;

impl<'a> Template<'a> {
    /// `define "output"`: follows `fields` from `schema` to the node they
    /// name and explains it; `None` where the template prints nothing (a
    /// field is not found).
    pub(super) fn output<'d>(
        &self,
        schema: &'d Value,
        history: &BTreeSet<String>,
        fields: &[String],
    ) -> Result<Option<Explained<'d>>, TemplateFailure>
    where
        'a: 'd,
    {
        let ref_str = ref_string(schema);
        let mut next_history = history.clone();
        next_history.insert(ref_str.clone());
        let res = resolved(schema, self.document);
        if fields.is_empty() {
            return Ok(Some(Explained {
                field: None,
                node: schema,
                resolved: res,
                description: self.description(res),
                fields: self.field_list(res, 1, &BTreeSet::new())?,
            }));
        }
        if !ref_str.is_empty() && history.contains(&ref_str) {
            return Ok(None);
        }
        let props = get(res, "properties");
        let sub = props.and_then(|p| get(p, &fields[0]));
        if let Some(sub) = sub.filter(|s| truthy(props) && truthy(Some(s))) {
            let header = if fields.len() == 1 {
                Some(FieldHeader {
                    name: fields[0].clone(),
                    type_name: self.type_guess(sub)?,
                    schema: sub,
                })
            } else {
                None
            };
            let below = self.output(sub, &BTreeSet::new(), &fields[1..])?;
            return Ok(below.map(|mut e| {
                if header.is_some() {
                    e.field = header;
                }
                e
            }));
        }
        if let Some(items) = get(res, "items").filter(|i| truthy(Some(i))) {
            return self.output(items, &next_history, fields);
        }
        if let Some(additional) = additional_schema(res) {
            return self.output(additional, &next_history, fields);
        }
        if let Some(Value::Array(all_of)) = get(res, "allOf") {
            for sub in all_of {
                if let Some(e) = self.output(sub, &next_history, fields)? {
                    return Ok(Some(e));
                }
            }
        }
        Ok(None)
    }

    /// `define "fieldList"`: the fields of `schema` (through its `$ref`,
    /// `allOf`, `items` and additional properties), each with its own
    /// fields below when recursive (to the depth limit).
    fn field_list<'d>(
        &self,
        schema: &'d Value,
        level: usize,
        history: &BTreeSet<String>,
    ) -> Result<Vec<Entry<'d>>, TemplateFailure>
    where
        'a: 'd,
    {
        let ref_str = ref_string(schema);
        let mut out = Vec::new();
        if !ref_str.is_empty() && history.contains(&ref_str) {
            return Ok(out);
        }
        let mut next_history = history.clone();
        next_history.insert(ref_str);
        let res = resolved(schema, self.document);
        if let Some(Value::Object(props)) = get(res, "properties") {
            let mut names: Vec<&String> = props.keys().collect();
            names.sort();
            let required = get(res, "required").and_then(Value::as_array);
            for name in names {
                let field = &props[name];
                let fields = if self.recursive && (self.max_depth == 0 || level < self.max_depth) {
                    self.field_list(field, level + 1, &next_history)?
                } else {
                    Vec::new()
                };
                out.push(Entry {
                    name: name.clone(),
                    type_name: self.type_guess(field)?,
                    required: required.is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name))),
                    schema: field,
                    level,
                    fields,
                });
            }
        }
        if let Some(Value::Array(all_of)) = get(res, "allOf") {
            for sub in all_of {
                out.extend(self.field_list(sub, level, &next_history)?);
            }
        }
        if let Some(items) = get(res, "items").filter(|i| truthy(Some(i))) {
            out.extend(self.field_list(items, level, &next_history)?);
        }
        if let Some(additional) = additional_schema(res) {
            out.extend(self.field_list(additional, level, &next_history)?);
        }
        Ok(out)
    }

    /// The plaintext of an explanation: `FIELD:` (for a field), then
    /// `DESCRIPTION:`, `EXTERNAL DOCS:` and `FIELDS:`.
    pub(super) fn plaintext(&self, e: &Explained<'_>) -> String {
        let mut out = String::new();
        if let Some(h) = &e.field {
            out.push_str("FIELD: ");
            out.push_str(&h.name);
            out.push_str(" <");
            out.push_str(&h.type_name);
            out.push_str(">\n");
            out.push_str(&extract_enum(h.schema, true, -1, 0));
            out.push_str("\n\n");
        }
        out.push_str("DESCRIPTION:\n");
        let description = if e.description.is_empty() {
            "<empty>"
        } else {
            &e.description
        };
        out.push_str(&indent(4, &wrap(76, description)));
        out.push('\n');
        if self.extras {
            out.push_str(&extra_lines(e.node, 4, None));
        }
        let docs = external_docs(e.resolved);
        if !docs.is_empty() {
            out.push('\n');
            out.push_str(&docs);
        }
        if !e.fields.is_empty() {
            out.push_str("FIELDS:\n");
            self.field_lines(&e.fields, &mut out);
        }
        out
    }

    /// The lines of `entries` and of the fields below them.
    fn field_lines(&self, entries: &[Entry<'_>], out: &mut String) {
        for e in entries {
            self.field_detail(e, out);
            self.field_lines(&e.fields, out);
        }
    }

    /// `define "fieldDetail"`: one field: its name, type, `-required-` and
    /// enum on a line; unless recursive, its description and external docs
    /// below.
    fn field_detail(&self, e: &Entry<'_>, out: &mut String) {
        let indent_amount = e.level * 2;
        let field = e.schema;
        out.push_str(&indent(indent_amount, &e.name));
        out.push_str("\t<");
        out.push_str(&e.type_name);
        out.push('>');
        if e.required {
            out.push_str(" -required-");
        }
        out.push_str(&extract_enum(field, false, 4, indent_amount));
        out.push('\n');
        if self.recursive {
            if self.extras {
                out.push_str(&extra_line(field, indent_amount + 2));
            }
            return;
        }
        let description = match get_str(field, "description") {
            "" => "<no description>",
            d => d,
        };
        let width = 78 - i64::try_from(indent_amount).unwrap_or(i64::MAX);
        out.push_str(&indent(indent_amount + 2, &wrap(width, description)));
        out.push('\n');
        if self.extras {
            out.push_str(&extra_lines(field, indent_amount + 2, Some(4)));
        }
        if let Some(docs) = get(field, "externalDocs").filter(|d| truthy(Some(d))) {
            out.push('\n');
            out.push_str(&indent(indent_amount + 2, "EXTERNAL DOCS:"));
            out.push('\n');
            let d = get_str(docs, "description");
            if !d.is_empty() {
                let width = 76 - i64::try_from(indent_amount).unwrap_or(i64::MAX);
                out.push_str(&indent(indent_amount + 4, &wrap(width, d)));
                out.push('\n');
            }
            let url = get_str(docs, "url");
            if !url.is_empty() {
                out.push_str(&indent(indent_amount + 4, &format!("URL: {url}")));
                out.push('\n');
            }
        }
        out.push('\n');
    }

    /// `define "description"`: the description of `schema` (through its
    /// `$ref`) and of its `allOf`, `items` and additional properties, each
    /// followed by a newline.
    fn description(&self, schema: &Value) -> String {
        let mut out = String::new();
        let s = resolved(schema, self.document);
        if !truthy(Some(s)) {
            return out;
        }
        let d = get_str(s, "description");
        if !d.is_empty() {
            out.push_str(d);
            out.push('\n');
        }
        if let Some(Value::Array(all_of)) = get(s, "allOf") {
            for sub in all_of {
                out.push_str(&self.description(sub));
            }
        }
        if let Some(items) = get(s, "items").filter(|i| truthy(Some(i))) {
            out.push_str(&self.description(items));
        }
        if let Some(additional) = additional_schema(s) {
            out.push_str(&self.description(additional));
        }
        out
    }

    /// `define "typeGuess"`: the type kubectl prints between `<` and `>`:
    /// `string`, `integer`, `Object`, `[]T`, `map[string]T`, or the last
    /// dotted part of a referenced object's name.
    pub(super) fn type_guess(&self, schema: &Value) -> Out {
        if !truthy(Some(schema)) {
            return Err(TemplateFailure(
                "expected schema argument to subtemplate 'typeguess'".into(),
            ));
        }
        if let Some(items) = get(schema, "items").filter(|i| truthy(Some(i))) {
            return Ok(format!("[]{}", self.type_guess(items)?));
        }
        if let Some(additional) = additional_schema(schema) {
            return Ok(format!("map[string]{}", self.type_guess(additional)?));
        }
        if let Some(Value::Array(all_of)) = get(schema, "allOf")
            && !all_of.is_empty()
            && !truthy(get(schema, "properties"))
            && all_of.len() == 1
        {
            return self.type_guess(&all_of[0]);
        }
        if let Some(r) = get(schema, "$ref").filter(|r| truthy(Some(r))) {
            let target = resolve_ref(Some(r), self.document).filter(|t| truthy(Some(t)));
            let target_type = target.and_then(|t| get(t, "type"));
            let object_like = target.is_none()
                || !truthy(target_type)
                || target_type.and_then(Value::as_str) == Some("object");
            if object_like {
                let r = r.as_str().unwrap_or_default();
                let name = r.rsplit('/').next().unwrap_or(r);
                let last = name.rsplit('.').next().unwrap_or(name);
                return Ok(if last.is_empty() {
                    "Object".into()
                } else {
                    last.into()
                });
            }
            return Ok(print_value(target_type.unwrap_or(&Value::Null)));
        }
        Ok(match get(schema, "type") {
            Some(Value::String(t)) if t == "object" => "Object".into(),
            t if truthy(t) => print_value(t.unwrap_or(&Value::Null)),
            _ => "Object".into(),
        })
    }
}

/// `define "externalDocs"`: the `EXTERNAL DOCS:` section of a schema.
fn external_docs(schema: &Value) -> String {
    let mut out = String::new();
    let Some(docs) = get(schema, "externalDocs").filter(|d| truthy(Some(d))) else {
        return out;
    };
    out.push_str("EXTERNAL DOCS:\n");
    let d = get_str(docs, "description");
    if !d.is_empty() {
        out.push_str(&indent(4, &wrap(76, d)));
        out.push('\n');
    }
    let url = get_str(docs, "url");
    if !url.is_empty() {
        out.push_str(&indent(4, &format!("URL: {url}")));
        out.push('\n');
    }
    out
}

/// `define "extractEnum"`: the enum of a schema, on one line after
/// `enum: ` (at most `limit` values, then `, ....`) or, in the long view,
/// one per line after `ENUM:`.
fn extract_enum(schema: &Value, long_view: bool, limit: i64, indent_amount: usize) -> String {
    let mut out = String::new();
    let Some(Value::Array(values)) = get(schema, "enum") else {
        return out;
    };
    if values.is_empty() {
        return out;
    }
    let limit = if limit == 0 { -1 } else { limit };
    if long_view {
        out.push_str("ENUM:");
    } else {
        out.push('\n');
        out.push_str(&" ".repeat(indent_amount));
        out.push_str("enum: ");
    }
    for (i, v) in values.iter().enumerate() {
        if limit > -1 && i64::try_from(i).unwrap_or(i64::MAX) >= limit {
            out.push_str(", ....");
            break;
        }
        if i > 0 && !long_view {
            out.push_str(", ");
        } else if long_view {
            out.push_str("\n    ");
        }
        match v {
            Value::String(s) if s.is_empty() => out.push_str("\"\""),
            v => out.push_str(&print_value(v)),
        }
    }
    out
}

/// How a template prints a value decoded by `encoding/json` into `any`:
/// strings as they are, numbers as `float64` (`%v`), `<nil>`, `[a b]`,
/// `map[k:v]` with sorted keys.
pub(super) fn print_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format_float(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => s.clone(),
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(print_value).collect();
            format!("[{}]", parts.join(" "))
        }
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{k}:{}", print_value(&m[*k])))
                .collect();
            format!("map[{}]", parts.join(" "))
        }
    }
}
