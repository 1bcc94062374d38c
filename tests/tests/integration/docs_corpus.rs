//! The reference documents of the real-CRD corpus (`../shared/corpus/crds`,
//! or `SCHEMA_GEN_CORPUS_DIR`): every CRD of the corpus documented at once,
//! as Markdown and as the HTML site, and every field path of every served
//! version has exactly one anchor in its page, as `id` and `data-path`,
//! and one in its group's Markdown file (its own, or, below a field whose
//! object shape is listed earlier, the same field's under that earlier
//! one). Paths are found here by walking the wire schema, apart from the
//! documentation model. (The corpus holds two releases of
//! prometheus-operator's `ServiceMonitor`: the first one read is
//! documented, the other passed over.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;
use tests::report;

use schema_core::docs::path;
use schema_core::docs::reference::{Docs, Field};
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::input::read_input;
use schema_core::model::wire::{
    CustomResourceDefinition, JsonSchemaProps, SchemaOrArray, SchemaOrBool,
};

/// `s` as an HTML attribute value, as the site writes it.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The node whose properties are a field's fields, and the path they
/// continue from: through list items (`[]`) and map values (`{}`).
fn provider<'a>(node: &'a JsonSchemaProps, base: &str) -> (&'a JsonSchemaProps, String) {
    let mut cur = node;
    let mut base = base.to_string();
    loop {
        let has_properties = cur.properties.as_ref().is_some_and(|p| !p.is_empty());
        match (cur.type_str(), &cur.items, &cur.additional_properties) {
            ("array", Some(SchemaOrArray::Schema(items)), _) if !cur.is_int_or_string() => {
                base.push_str("[]");
                cur = items;
            }
            ("object", _, Some(SchemaOrBool::Schema(values)))
                if !has_properties && !cur.is_int_or_string() =>
            {
                base.push_str("{}");
                cur = values;
            }
            _ => return (cur, base),
        }
    }
}

/// One kind page: its fields by path, and how often each value of `id`
/// and `data-path` occurs in its HTML and of `id` in its group's Markdown.
struct Page<'a> {
    fields: HashMap<&'a str, &'a Field>,
    all: &'a [Field],
    ids: HashMap<&'a str, usize>,
    data_paths: HashMap<&'a str, usize>,
    markdown_ids: &'a HashMap<&'a str, usize>,
    anchor_prefix: String,
}

/// How often each value of the attribute `attr` occurs in `text` (values
/// as written, escaped).
fn attribute_counts<'a>(text: &'a str, attr: &str) -> HashMap<&'a str, usize> {
    let needle = format!(" {attr}=\"");
    let mut counts = HashMap::new();
    for (at, m) in text.match_indices(&needle) {
        let rest = &text[at + m.len()..];
        if let Some(end) = rest.find('"') {
            *counts.entry(&rest[..end]).or_default() += 1;
        }
    }
    counts
}

/// Checks every field below `node` (whose fields continue from `base`,
/// anchored under `anchor_base`): exactly one anchor each.
fn check_fields(
    page: &Page<'_>,
    node: &JsonSchemaProps,
    base: &str,
    anchor_base: &str,
    failures: &mut Vec<String>,
    count: &mut usize,
) {
    let Some(props) = node.properties.as_ref() else {
        return;
    };
    for (name, child) in props {
        *count += 1;
        let real = path::child(base, name);
        let anchor = path::child(anchor_base, name);
        let Some(field) = page.fields.get(anchor.as_str()) else {
            failures.push(format!(
                "{}: {real}: not in the page (as {anchor})",
                page.anchor_prefix
            ));
            continue;
        };
        let escaped = attr(&anchor);
        let md = attr(&format!("{}.{anchor}", page.anchor_prefix));
        for (what, counts, key) in [
            ("id", &page.ids, &escaped),
            ("data-path", &page.data_paths, &escaped),
            ("markdown anchor", page.markdown_ids, &md),
        ] {
            let n = counts.get(key.as_str()).copied().unwrap_or(0);
            if n != 1 {
                failures.push(format!(
                    "{}: {real}: {n} × {what} {key}",
                    page.anchor_prefix
                ));
            }
        }
        if field.truncated {
            failures.push(format!("{}: {real}: truncated", page.anchor_prefix));
        }
        let (next, real_children) = provider(child, &real);
        // Below a field whose shape is listed earlier, its fields are
        // anchored under that earlier field.
        let anchor_children = match field.same_as.and_then(|i| page.all.get(i)) {
            Some(first) => first.children_base.clone(),
            None => field.children_base.clone(),
        };
        let (_, expected) = provider(child, &anchor);
        if field.same_as.is_none() && expected != field.children_base {
            failures.push(format!(
                "{}: {real}: children base {} ≠ {expected}",
                page.anchor_prefix, field.children_base
            ));
        }
        check_fields(
            page,
            next,
            &real_children,
            &anchor_children,
            failures,
            count,
        );
    }
}

#[test]
fn docs_corpus() {
    let Some(corpus) = tests::Corpus::open() else {
        return;
    };
    let mut crds: Vec<CustomResourceDefinition> = Vec::new();
    let mut files_total = 0;
    for tests::CorpusFile { path: file, name } in &corpus.files {
        files_total += 1;
        let bytes = std::fs::read(file).expect("read corpus file");
        let docs = parse_documents(name, &bytes, &Limits::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for doc in &docs {
            let (input, _) = read_input(&doc.value).unwrap_or_else(|e| panic!("{name}: {e}"));
            if let Some(crd) = input.crd() {
                crds.push(crd.clone());
            }
        }
    }

    let started = std::time::Instant::now();
    let site = schema_core::docs::html(&crds).expect("html");
    let markdown = schema_core::docs::markdown(&crds).expect("markdown");
    let elapsed = started.elapsed();
    let site: HashMap<&str, &str> = site.iter().map(|(n, c)| (n.as_str(), c.as_str())).collect();
    let markdown: HashMap<&str, &str> = markdown
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_str()))
        .collect();
    let docs: Docs = schema_core::docs::build(&crds).expect("model");

    let mut failures = Vec::new();
    let mut markdown_ids: HashMap<String, HashMap<&str, usize>> = HashMap::new();
    let (mut pages, mut paths, mut listed, mut shared) = (0, 0, 0, 0);
    for p in &docs.passed_over {
        report!("passed over: {p}");
    }
    for (index, crd) in crds.iter().enumerate() {
        if docs.passed_over.iter().any(|p| p.index == index) {
            continue;
        }
        let spec = crd.spec.as_ref().unwrap();
        let group = spec.group.as_deref().unwrap();
        let kind = spec.names.as_ref().and_then(|n| n.kind.as_deref()).unwrap();
        for version in spec.versions.as_deref().unwrap_or(&[]) {
            if version.served != Some(true) {
                continue;
            }
            let v = version.name.as_deref().unwrap();
            pages += 1;
            let file = format!("{group}/{v}/{kind}.html");
            let Some(html) = site.get(file.as_str()) else {
                failures.push(format!("no page {file}"));
                continue;
            };
            let Some(md) = markdown.get(format!("{group}.md").as_str()) else {
                failures.push(format!("no {group}.md"));
                continue;
            };
            let ids = attribute_counts(html, "id");
            if let Some((id, n)) = ids.iter().find(|(_, n)| **n > 1) {
                failures.push(format!("{file}: {n} × id {id}"));
            }
            let kv = docs
                .groups
                .iter()
                .filter(|g| g.name == group)
                .flat_map(|g| &g.versions)
                .filter(|gv| gv.name == v)
                .flat_map(|gv| &gv.kinds)
                .find(|k| k.summary.kind == kind)
                .unwrap();
            let Some(schema) = kv.schema.as_ref() else {
                continue;
            };
            listed += schema.fields.len();
            shared += schema.fields.iter().filter(|f| f.same_as.is_some()).count();
            let markdown_ids = markdown_ids
                .entry(group.to_string())
                .or_insert_with(|| attribute_counts(md, "id"));
            let page = Page {
                fields: schema.fields.iter().map(|f| (f.path.as_str(), f)).collect(),
                all: &schema.fields,
                ids,
                data_paths: attribute_counts(html, "data-path"),
                markdown_ids,
                anchor_prefix: format!("{kind}.{v}"),
            };
            if let Some(root) = version
                .schema
                .as_ref()
                .and_then(|s| s.open_api_v3_schema.as_ref())
            {
                let (provider, base) = provider(root, "");
                check_fields(&page, provider, &base, &base, &mut failures, &mut paths);
            }
        }
    }
    for f in failures.iter().take(50) {
        report!("{f}");
    }
    report!(
        "docs corpus: files={files_total} crds={} pages={pages} field paths={paths} listed={listed} (shared shapes={shared}) rendered in {:.2} s; failures={}",
        crds.len(),
        elapsed.as_secs_f64(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} docs corpus failures",
        failures.len()
    );
}
