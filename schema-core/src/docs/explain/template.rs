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
use crate::go::fmt::format_float;

/// What the template functions see: the document, and how deep to list.
pub(super) struct Template<'a> {
    /// The group-version's document.
    pub document: &'a Value,
    /// `--recursive`.
    pub recursive: bool,
    /// `--max-depth` (0: no limit).
    pub max_depth: usize,
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

/// An error the template raises (`fail`): a schema where one is needed is
/// missing.
#[derive(Debug)]
pub(super) struct TemplateFailure(pub String);

type Out = Result<String, TemplateFailure>;

impl Template<'_> {
    /// `define "output"`: follows `fields` from `schema`, then prints the
    /// description and field list of where it ends; "" when a field is not
    /// found.
    pub(super) fn output(
        &self,
        schema: &Value,
        history: &BTreeSet<String>,
        fields: &[String],
    ) -> Out {
        let ref_str = ref_string(schema);
        let mut next_history = history.clone();
        next_history.insert(ref_str.clone());
        let res = resolved(schema, self.document);
        let mut out = String::new();
        if fields.is_empty() {
            out.push_str("DESCRIPTION:\n");
            let description = self.description(res);
            let description = if description.is_empty() {
                "<empty>".to_string()
            } else {
                description
            };
            out.push_str(&indent(4, &wrap(76, &description)));
            out.push('\n');
            let docs = external_docs(res);
            if !docs.is_empty() {
                out.push('\n');
                out.push_str(&docs);
            }
            let list = self.field_list(res, 1, &BTreeSet::new())?;
            if !list.is_empty() {
                out.push_str("FIELDS:\n");
                out.push_str(&list);
            }
            return Ok(out);
        }
        if !ref_str.is_empty() && history.contains(&ref_str) {
            return Ok(out);
        }
        let props = get(res, "properties");
        let sub = props.and_then(|p| get(p, &fields[0]));
        if truthy(props) && truthy(sub) {
            let Some(sub) = sub else { return Ok(out) };
            if fields.len() == 1 {
                out.push_str("FIELD: ");
                out.push_str(&fields[0]);
                out.push_str(" <");
                out.push_str(&self.type_guess(sub)?);
                out.push_str(">\n");
                out.push_str(&extract_enum(sub, true, -1, 0));
                out.push_str("\n\n");
            }
            out.push_str(&self.output(sub, &BTreeSet::new(), &fields[1..])?);
        } else if let Some(items) = get(res, "items").filter(|i| truthy(Some(i))) {
            out.push_str(&self.output(items, &next_history, fields)?);
        } else if let Some(additional) = additional_schema(res) {
            out.push_str(&self.output(additional, &next_history, fields)?);
        } else if let Some(Value::Array(all_of)) = get(res, "allOf") {
            for sub in all_of {
                let s = self.output(sub, &next_history, fields)?;
                if !s.is_empty() {
                    out.push_str(&s);
                    break;
                }
            }
        }
        Ok(out)
    }

    /// `define "fieldList"`: the fields of `schema` (through its `$ref`,
    /// `allOf`, `items` and additional properties), one `fieldDetail` each,
    /// with their own fields below when recursive.
    fn field_list(&self, schema: &Value, level: usize, history: &BTreeSet<String>) -> Out {
        let ref_str = ref_string(schema);
        let mut out = String::new();
        if !ref_str.is_empty() && history.contains(&ref_str) {
            return Ok(out);
        }
        let mut next_history = history.clone();
        next_history.insert(ref_str);
        let res = resolved(schema, self.document);
        if let Some(Value::Object(props)) = get(res, "properties") {
            let mut names: Vec<&String> = props.keys().collect();
            names.sort();
            for name in names {
                out.push_str(&self.field_detail(name, res, self.recursive, level)?);
                if self.recursive && (self.max_depth == 0 || level < self.max_depth) {
                    out.push_str(&self.field_list(&props[name], level + 1, &next_history)?);
                }
            }
        }
        if let Some(Value::Array(all_of)) = get(res, "allOf") {
            for sub in all_of {
                out.push_str(&self.field_list(sub, level, &next_history)?);
            }
        }
        if let Some(items) = get(res, "items").filter(|i| truthy(Some(i))) {
            out.push_str(&self.field_list(items, level, &next_history)?);
        }
        if let Some(additional) = additional_schema(res) {
            out.push_str(&self.field_list(additional, level, &next_history)?);
        }
        Ok(out)
    }

    /// `define "fieldDetail"`: one field of `parent`: its name, type,
    /// `-required-` and enum on a line; unless `short`, its description
    /// and external docs below.
    fn field_detail(&self, name: &str, parent: &Value, short: bool, level: usize) -> Out {
        let indent_amount = level * 2;
        let field = get(parent, "properties")
            .and_then(|p| get(p, name))
            .unwrap_or(&Value::Null);
        let mut out = indent(indent_amount, name);
        out.push_str("\t<");
        out.push_str(&self.type_guess(field)?);
        out.push('>');
        let required = get(parent, "required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name)));
        if required {
            out.push_str(" -required-");
        }
        out.push_str(&extract_enum(field, false, 4, indent_amount));
        out.push('\n');
        if !short {
            let description = match get_str(field, "description") {
                "" => "<no description>",
                d => d,
            };
            let width = 78 - i64::try_from(indent_amount).unwrap_or(i64::MAX);
            out.push_str(&indent(indent_amount + 2, &wrap(width, description)));
            out.push('\n');
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
        Ok(out)
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
