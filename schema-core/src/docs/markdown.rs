//! The Markdown reference documents (GitHub and MkDocs render them alike):
//! `README.md`, the index of groups, versions and kinds, and one
//! `<group>.md` per API group with, per version and kind, the kind's
//! summary and its fields.
//!
//! Fields are listed object by object: the root's fields, then a section
//! per field that has fields of its own (`#### spec.template`), in the
//! schema's order. A field's anchor is `<Kind>.<version>.<path>`
//! (`Workflow.v1alpha1.spec.templates[].container`), on its section's
//! heading when it has one, else on its item in its object's list; a kind
//! and version's anchor is `<Kind>.<version>`. Kinds and versions have no
//! dots, so no two anchors of a file are equal. Every description and
//! value is escaped ([`super::text`]): nothing in a schema becomes markup.

use std::fmt::Write as _;

use super::facts::FactStyle;
use super::path::fragment;
use super::reference::{
    self, Description, Docs, DocsError, Field, KindVersion, MAX_DESCRIPTION_BYTES,
    MAX_DOCUMENTED_DEPTH, ScopedFact,
};
use super::summary::{self, VersionName};
use super::text::{code_span, html as esc, markdown as md};
use crate::model::wire::CustomResourceDefinition;

/// The Markdown documents of `crds`: `README.md` (the index) first, then
/// `<group>.md` per group, as file names with their contents. The same
/// CRDs give the same bytes.
///
/// # Errors
///
/// As [`reference::build`].
pub fn markdown(crds: &[CustomResourceDefinition]) -> Result<Vec<(String, String)>, DocsError> {
    Ok(documents(&reference::build(crds)?))
}

/// The Markdown documents of a reference (see [`markdown`]).
pub fn documents(docs: &Docs) -> Vec<(String, String)> {
    let mut files = vec![("README.md".to_string(), readme(docs))];
    for g in &docs.groups {
        let mut out = String::new();
        let _ = writeln!(out, "# {}\n", md(&g.name, ""));
        out.push_str("[API reference index](README.md)\n");
        for v in &g.versions {
            let _ = writeln!(out, "\n## {}", md(&v.name, ""));
            for k in &v.kinds {
                kind_version(&mut out, k);
            }
        }
        files.push((format!("{}.md", g.name), out));
    }
    files
}

/// A kind and version's anchor: `<Kind>.<version>`.
fn kind_anchor(k: &KindVersion) -> String {
    format!("{}.{}", k.summary.kind, k.version.name)
}

/// A field's anchor: `<Kind>.<version>.<path>`.
fn field_anchor(k: &KindVersion, path: &str) -> String {
    format!("{}.{}", kind_anchor(k), path)
}

/// A link to an anchor of the same file.
fn link(text_md: &str, anchor: &str) -> String {
    format!("[{text_md}](#{})", fragment(anchor))
}

/// An empty element carrying an anchor.
fn anchor_tag(anchor: &str) -> String {
    format!("<a id=\"{}\"></a>", esc(anchor))
}

fn readme(docs: &Docs) -> String {
    let mut out = String::from("# API reference\n\n");
    let _ = writeln!(out, "{}", docs.summary());
    for g in &docs.groups {
        let file = format!("{}.md", g.name);
        let _ = writeln!(out, "\n## {}", md(&g.name, ""));
        for v in &g.versions {
            let _ = writeln!(out, "\n### {}\n", md(&v.name, ""));
            for k in &v.kinds {
                let _ = write!(
                    out,
                    "- [{}]({}#{}) ({})",
                    md(&k.summary.kind, ""),
                    file,
                    fragment(&kind_anchor(k)),
                    md(&k.summary.scope, "")
                );
                if k.version.deprecated {
                    out.push_str(" **deprecated**");
                }
                if let Some(e) = k.excerpt() {
                    let _ = write!(out, " — {}", md(&e, ""));
                }
                out.push('\n');
            }
        }
    }
    out
}

/// Markdown text for a table cell: one line.
fn cell(s: &str) -> String {
    md(s, "").replace("<br>\n", "<br>")
}

fn description(out: &mut String, d: &Description, indent: &str) {
    let _ = writeln!(out, "{indent}{}", md(&d.text, indent));
    if d.omitted_bytes > 0 {
        let _ = writeln!(
            out,
            "\n{indent}*… description truncated: {} more bytes not shown (limit {MAX_DESCRIPTION_BYTES} bytes)*",
            d.omitted_bytes
        );
    }
}

fn facts_list(out: &mut String, facts: &[ScopedFact], indent: &str) {
    for f in facts {
        let mut label = String::new();
        if !f.of.is_empty() {
            label.push_str(&f.of);
            label.push(' ');
        }
        label.push_str(f.fact.label);
        let inner = if f.fact.detail { "    " } else { "" };
        let value = match f.fact.style {
            FactStyle::Flag => String::new(),
            FactStyle::Code => format!(": {}", code_span(&f.fact.value, false)),
            FactStyle::Text => format!(": {}", md(&f.fact.value, &format!("{indent}{inner}  "))),
        };
        let _ = writeln!(out, "{indent}{inner}- *{}*{value}", md(&label, ""));
    }
}

/// `` `type` `` and ` · **required**`.
fn type_line(f: &Field) -> String {
    let mut s = code_span(&f.type_name, false);
    if f.required {
        s.push_str(" · **required**");
    }
    s
}

/// A field as an item of its object's list: in full, with its anchor,
/// unless its fields follow in its own section (then a link to it).
fn field_item(out: &mut String, k: &KindVersion, f: &Field, fields: &[Field]) {
    let anchor = field_anchor(k, &f.path);
    let name = code_span(&f.name, false);
    if f.has_children {
        let _ = writeln!(out, "- {} · {}", link(&name, &anchor), type_line(f));
        return;
    }
    let _ = writeln!(
        out,
        "- {}**{name}** · {}",
        anchor_tag(&anchor),
        type_line(f)
    );
    const IN: &str = "    ";
    if let Some(d) = &f.description {
        out.push('\n');
        description(out, d, IN);
    }
    let mut notes = Vec::new();
    if let Some(first) = f.same_as.and_then(|i| fields.get(i)) {
        notes.push(format!(
            "Fields: same as {}",
            link(
                &code_span(&first.path, false),
                &field_anchor(k, &first.path)
            )
        ));
    }
    if f.truncated {
        notes.push(format!(
            "*… deeper levels not shown (limit {MAX_DOCUMENTED_DEPTH} levels)*"
        ));
    }
    if !f.facts.is_empty() || !notes.is_empty() {
        out.push('\n');
        facts_list(out, &f.facts, IN);
        for n in notes {
            let _ = writeln!(out, "{IN}- {n}");
        }
    }
    out.push('\n');
}

/// The section of a field whose fields follow: its heading (and anchor),
/// type, description, facts and its fields' list.
fn field_section(
    out: &mut String,
    k: &KindVersion,
    index: usize,
    fields: &[Field],
    children: &[usize],
) {
    let Some(f) = fields.get(index) else {
        return;
    };
    let _ = writeln!(
        out,
        "\n#### {}{}\n",
        anchor_tag(&field_anchor(k, &f.path)),
        code_span(&f.path, false)
    );
    let mut line = type_line(f);
    if let Some(parent) = f.parent.and_then(|p| fields.get(p)) {
        let _ = write!(
            line,
            " · in {}",
            link(
                &code_span(&parent.path, false),
                &field_anchor(k, &parent.path)
            )
        );
    }
    let _ = writeln!(out, "{line}\n");
    if let Some(d) = &f.description {
        description(out, d, "");
        out.push('\n');
    }
    if !f.facts.is_empty() {
        facts_list(out, &f.facts, "");
        out.push('\n');
    }
    out.push_str("**Fields**\n\n");
    for child in children.iter().filter_map(|&c| fields.get(c)) {
        field_item(out, k, child, fields);
    }
}

fn summary_item(out: &mut String, name: &str, value_md: &str) {
    let _ = writeln!(out, "- **{name}:** {value_md}");
}

fn codes(items: &[String]) -> String {
    items
        .iter()
        .map(|s| code_span(s, false))
        .collect::<Vec<_>>()
        .join(", ")
}

fn kind_version(out: &mut String, k: &KindVersion) {
    let s = &k.summary;
    let v = &k.version;
    let gv = format!("{}/{}", s.group, v.name);
    let _ = writeln!(
        out,
        "\n### {}{}\n",
        anchor_tag(&kind_anchor(k)),
        md(&s.kind, "")
    );
    let _ = writeln!(out, "{} · {}\n", code_span(&gv, false), md(&s.scope, ""));
    if v.deprecated {
        let warning = v
            .deprecation_warning
            .clone()
            .unwrap_or_else(|| format!("{gv} {} is deprecated", s.kind));
        let _ = writeln!(out, "> **Deprecated:** {}\n", md(&warning, "> "));
    }
    if let Some(d) = k.schema.as_ref().and_then(|x| x.description.as_ref()) {
        description(out, d, "");
        out.push('\n');
    }
    summary_item(
        out,
        "Kind",
        &format!(
            "{} (list: {})",
            code_span(&s.kind, false),
            code_span(&s.list_kind, false)
        ),
    );
    summary_item(out, "Scope", &md(&s.scope, ""));
    let mut names = format!(
        "plural {}, singular {}",
        code_span(&s.plural, false),
        code_span(&s.singular, false)
    );
    if !s.short_names.is_empty() {
        let _ = write!(names, ", short names {}", codes(&s.short_names));
    }
    summary_item(out, "Names", &names);
    if !s.categories.is_empty() {
        summary_item(out, "Categories", &codes(&s.categories));
    }
    summary_item(out, "CRD", &code_span(&s.crd_name, false));
    summary_item(out, "Conversion", &md(&s.conversion, ""));
    summary_item(
        out,
        "Subresources",
        &summary::subresources(k, |c| code_span(c, false)),
    );
    out.push_str("\n**Versions**\n\n| Version | Served | Storage | Deprecated |\n| --- | --- | --- | --- |\n");
    for row in summary::version_rows(k, cell) {
        let name = match row.name_kind {
            VersionName::Current => format!("**{}**", cell(row.name)),
            VersionName::Served => format!(
                "[{}](#{})",
                cell(row.name),
                fragment(&format!("{}.{}", s.kind, row.name))
            ),
            VersionName::Unserved => cell(row.name),
        };
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} |",
            row.served, row.storage, row.deprecated
        );
    }
    if !k.columns.is_empty() {
        out.push_str("\n**Printer columns**\n\n| Name | Type | JSON path | Priority | Description |\n| --- | --- | --- | --- | --- |\n");
        for c in &k.columns {
            let ty = match &c.format {
                Some(f) => format!("{} ({})", cell(&c.type_), cell(f)),
                None => cell(&c.type_),
            };
            let mut desc = c
                .description
                .as_ref()
                .map(|d| cell(&d.text))
                .unwrap_or_default();
            if c.description.as_ref().is_some_and(|d| d.omitted_bytes > 0) {
                desc.push_str(" … (truncated)");
            }
            let _ = writeln!(
                out,
                "| {} | {ty} | {} | {} | {desc} |",
                cell(&c.name),
                code_span(&c.json_path, true),
                c.priority
            );
        }
    }
    if !k.selectable_fields.is_empty() {
        let _ = writeln!(
            out,
            "\n**Selectable fields:** {}",
            codes(&k.selectable_fields)
        );
    }
    let Some(schema) = &k.schema else {
        out.push_str("\nThis version has no schema.\n");
        return;
    };
    if !schema.facts.is_empty() {
        out.push_str("\n**Schema rules**\n\n");
        facts_list(out, &schema.facts, "");
    }
    let _ = writeln!(
        out,
        "\n#### Fields of {} {}\n",
        md(&s.kind, ""),
        md(&v.name, "")
    );
    if schema.truncated {
        let _ = writeln!(
            out,
            "*… deeper levels not shown (limit {MAX_DOCUMENTED_DEPTH} levels)*\n"
        );
    }
    if schema.fields.is_empty() {
        let _ = writeln!(
            out,
            "The schema ({}) has no fields.",
            code_span(&schema.type_name, false)
        );
        return;
    }
    // The fields of each field, by index, in order.
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); schema.fields.len()];
    for (i, f) in schema.fields.iter().enumerate() {
        match f.parent.and_then(|p| children.get_mut(p)) {
            Some(c) => c.push(i),
            None => field_item(out, k, f, &schema.fields),
        }
    }
    for (i, f) in schema.fields.iter().enumerate() {
        if f.has_children {
            let c = children.get(i).map_or(&[][..], Vec::as_slice);
            field_section(out, k, i, &schema.fields, c);
        }
    }
}
