//! The reference documents end to end: the model of real-looking CRDs,
//! both renderers on hostile descriptions, huge and deep schemas, and
//! determinism.

use indexmap::IndexMap;
use serde_json::{Value, json};

use super::facts::{facts, type_name};
use super::reference::{MAX_DESCRIPTION_BYTES, MAX_DOCUMENTED_DEPTH};
use super::{DocsError, build, html, markdown};
use crate::model::options::Options;
use crate::model::source::{Limits, parse_documents};
use crate::model::wire::input::read_input;
use crate::model::wire::{CustomResourceDefinition, JsonSchemaProps, SchemaOrArray};

const WIDGET: &str = include_str!("../../../examples/widget-crd.yaml");

fn crds(yaml: &str) -> Vec<CustomResourceDefinition> {
    parse_documents("test.yaml", yaml.as_bytes(), &Limits::default())
        .unwrap()
        .iter()
        .map(|d| read_input(&d.value).unwrap().0.crd().unwrap().clone())
        .collect()
}

/// A CRD of group `example.com`, kind `kind`, one served version `v1`
/// with `schema` (JSON).
fn crd_with(kind: &str, schema: Value) -> CustomResourceDefinition {
    let doc = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{}s.example.com", kind.to_lowercase())},
        "spec": {
            "group": "example.com",
            "names": {"kind": kind, "plural": format!("{}s", kind.to_lowercase())},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}]
        }
    });
    read_input(&doc).unwrap().0.crd().unwrap().clone()
}

fn file<'a>(files: &'a [(String, String)], name: &str) -> &'a str {
    files
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, c)| c.as_str())
        .unwrap_or_else(|| {
            panic!(
                "no {name} in {:?}",
                files.iter().map(|f| &f.0).collect::<Vec<_>>()
            )
        })
}

fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

#[test]
fn widget_model() {
    let docs = build(&crds(WIDGET)).unwrap();
    assert_eq!(docs.groups.len(), 1);
    let g = &docs.groups[0];
    assert_eq!(g.name, "example.com");
    let k = &g.versions[0].kinds[0];
    assert_eq!(k.summary.kind, "Widget");
    assert_eq!(k.summary.short_names, ["wdg"]);
    assert_eq!(k.summary.list_kind, "WidgetList");
    assert!(k.status_subresource && k.scale.is_none());
    assert_eq!(k.columns[0].json_path, ".spec.replicas");
    let schema = k.schema.as_ref().unwrap();
    let rows: Vec<(&str, &str, bool)> = schema
        .fields
        .iter()
        .map(|f| (f.path.as_str(), f.type_name.as_str(), f.required))
        .collect();
    assert_eq!(
        rows,
        [
            ("spec", "object", false),
            ("spec.size", "string", true),
            ("spec.replicas", "integer", false),
            ("spec.port", "int-or-string", false),
            ("spec.tags", "[]string", false),
            ("spec.labels", "map[string]string", false),
            ("status", "object", false),
            ("status.ready", "boolean", false),
        ]
    );
    let replicas = &schema.fields[2];
    let labels: Vec<&str> = replicas.facts.iter().map(|f| f.fact.label).collect();
    assert_eq!(labels, ["format", "default", "minimum"]);
    assert!(
        schema.fields[3].facts.is_empty(),
        "{:?}",
        schema.fields[3].facts
    );
}

#[test]
fn widget_site_and_markdown() {
    let crds = crds(WIDGET);
    let site = html(&crds).unwrap();
    let names: Vec<&str> = site.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "index.html",
            "style.css",
            "site.js",
            "search-index.js",
            "example.com/v1/Widget.html"
        ]
    );
    let index = file(&site, "index.html");
    assert!(index.contains("<a href=\"example.com/v1/Widget.html\">Widget</a>"));
    let page = file(&site, "example.com/v1/Widget.html");
    for needle in [
        "<!DOCTYPE html>\n<html lang=\"en\">",
        "<meta charset=\"utf-8\">",
        "<input type=\"search\" id=\"search\"",
        "<ul id=\"search-results\"></ul>",
        "<script src=\"../../search-index.js\"></script>",
        "<script src=\"../../site.js\"></script>",
        "<link rel=\"stylesheet\" href=\"../../style.css\">",
        "<details class=\"field\" id=\"spec\" data-path=\"spec\" open><summary>",
        "<div class=\"field\" id=\"spec.size\" data-path=\"spec.size\">",
        "<span class=\"tag required\">required</span>",
        "<span class=\"type\">map[string]string</span>",
    ] {
        assert!(page.contains(needle), "{needle}\n{page}");
    }
    let search = file(&site, "search-index.js");
    assert!(search.contains("window.SCHEMA_GEN_SEARCH = ["));
    assert!(search.contains("\"u\":\"example.com/v1/Widget.html#spec.replicas\""));

    let md = markdown(&crds).unwrap();
    let names: Vec<&str> = md.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["README.md", "example.com.md"]);
    assert!(file(&md, "README.md").contains("[Widget](example.com.md#Widget.v1)"));
    let group = file(&md, "example.com.md");
    assert!(group.contains("### <a id=\"Widget.v1\"></a>Widget"));
    assert!(group.contains("#### <a id=\"Widget.v1.spec\"></a>`spec`"));
    assert!(
        group.contains("- <a id=\"Widget.v1.spec.size\"></a>**`size`** · `string` · **required**")
    );
    assert!(group.contains("    - *enum*: `\"small\", \"medium\", \"large\"`"));
    assert!(group.contains("- [`spec`](#Widget.v1.spec) · `object`"));
}

const HOSTILE: &str = "<script>alert(1)</script> | a | b |\n`code` ```fence``` [x](javascript:alert(1)) \
    <img src=x onerror=alert(1)> ![i](http://e/x.png) &lt;b&gt; **bold** _em_ ~~s~~ $x$\n# heading\n- item\n    indented code\n\
    </script><!-- \u{2028}\u{2029} \u{0} \u{fffe} \"quotes\" 'apos'";

fn hostile_crd() -> CustomResourceDefinition {
    crd_with(
        "Hostile",
        json!({
            "type": "object",
            "description": HOSTILE,
            "x-kubernetes-validations": [{"rule": "self.a != '</script>'", "message": HOSTILE}],
            "properties": {
                "spec": {
                    "type": "object",
                    "description": HOSTILE,
                    "properties": {
                        "a|b": {"type": "string", "description": HOSTILE, "default": HOSTILE, "pattern": "`|<script>"},
                        "x\"><script>alert(1)</script>": {"type": "string", "enum": [HOSTILE]},
                    }
                }
            }
        }),
    )
}

#[test]
fn hostile_descriptions_stay_text_in_html() {
    let site = html(&[hostile_crd()]).unwrap();
    for (name, content) in &site {
        if name.ends_with(".html") {
            // Our own three script elements at most, and no other markup
            // from the schema.
            assert_eq!(count(content, "<script"), 2, "{name}");
            assert!(!content.contains("<img"), "{name}");
            assert!(!content.contains("<!--"), "{name}");
            assert!(
                !content.contains('\u{0}') && !content.contains('\u{fffe}'),
                "{name}"
            );
        }
    }
    let page = file(&site, "example.com/v1/Hostile.html");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(
        page.contains(
            "id=\"spec[&quot;x\\&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;]\""
        )
    );
    assert!(page.contains("id=\"spec.a|b\" data-path=\"spec.a|b\""));
    let search = file(&site, "search-index.js");
    for bad in ["<", ">", "&", "\u{2028}", "\u{2029}"] {
        assert!(!search.contains(bad), "{bad:?} in search-index.js");
    }
    // The index is JSON after the assignment, and reads back as the text.
    let json_text = search
        .split_once("window.SCHEMA_GEN_SEARCH = ")
        .unwrap()
        .1
        .trim_end()
        .trim_end_matches(';');
    let entries: Value = serde_json::from_str(json_text).unwrap();
    let spec = entries
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["p"] == "spec")
        .unwrap();
    assert!(
        spec["d"]
            .as_str()
            .unwrap()
            .starts_with("<script>alert(1)</script> | a")
    );
}

/// Markdown text without its code spans (whose content is literal text).
fn without_code_spans(md: &str) -> String {
    let mut out = String::new();
    let mut rest = md;
    while let Some(at) = rest.find('`') {
        out.push_str(&rest[..at]);
        let run = rest[at..].chars().take_while(|c| *c == '`').count();
        let after = &rest[at + run..];
        // The closing run: exactly as long.
        let mut search = 0;
        let mut end = None;
        while let Some(i) = after[search..].find('`') {
            let start = search + i;
            let len = after[start..].chars().take_while(|c| *c == '`').count();
            if len == run {
                end = Some(start + len);
                break;
            }
            search = start + len;
        }
        match end {
            Some(e) => rest = &after[e..],
            None => {
                out.push_str(&rest[at..at + run]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn hostile_descriptions_stay_text_in_markdown() {
    let md = markdown(&[hostile_crd()]).unwrap();
    let group = &without_code_spans(file(&md, "example.com.md"));
    for bad in [
        "<script",
        "<img",
        "<!--",
        "[x](javascript",
        "![i](",
        "**bold**",
        "_em_",
        "~~s~~",
        "$x$",
        "\n# heading",
        "\n- item",
        "\n        indented",
        "\u{0}",
    ] {
        assert!(!group.contains(bad), "{bad:?} in\n{group}");
    }
    assert!(group.contains("&lt;script&gt;alert(1)&lt;/script&gt; \\| a \\| b \\|<br>"));
    assert!(group.contains("\\[x\\](javascript:alert(1))"));
    assert!(group.contains("&amp;lt;b&amp;gt;"));
    assert!(group.contains("\\# heading"));
    // Indented lines lose their indentation: no code block.
    assert!(group.contains("<br>\nindented code"));
    assert!(group.contains("<br>\n    indented code"));
    // Code spans are fenced past the backticks they hold.
    assert!(file(&md, "example.com.md").contains("*pattern*: `` `|<script> ``"));
    // Anchors are escaped attributes.
    assert!(group.contains(
        "<a id=\"Hostile.v1.spec[&quot;x\\&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;]\"></a>"
    ));
}

#[test]
fn a_megabyte_description_is_cut_with_a_note() {
    let big = "word ".repeat(200_000);
    let crd = crd_with(
        "Big",
        json!({"type": "object", "properties": {"spec": {"type": "string", "description": big}}}),
    );
    let site = html(std::slice::from_ref(&crd)).unwrap();
    let page = file(&site, "example.com/v1/Big.html");
    assert!(
        page.len() < MAX_DESCRIPTION_BYTES + 16 * 1024,
        "{}",
        page.len()
    );
    assert!(page.contains(&format!(
        "… description truncated: {} more bytes not shown (limit {MAX_DESCRIPTION_BYTES} bytes)",
        big.len() - MAX_DESCRIPTION_BYTES
    )));
    assert!(file(&site, "search-index.js").len() < 4096);
    let md = markdown(&[crd]).unwrap();
    let group = file(&md, "example.com.md");
    assert!(
        group.len() < MAX_DESCRIPTION_BYTES + 16 * 1024,
        "{}",
        group.len()
    );
    assert!(group.contains("*… description truncated: "));
}

/// A schema of `levels` nested objects (`a.a.a…`), built without
/// recursion.
fn deep_schema(levels: usize) -> JsonSchemaProps {
    let mut node = JsonSchemaProps {
        type_: Some("string".into()),
        ..JsonSchemaProps::default()
    };
    for _ in 0..levels {
        let mut props = IndexMap::new();
        props.insert("a".to_string(), node);
        props.insert(
            "b".to_string(),
            JsonSchemaProps {
                type_: Some("integer".into()),
                ..JsonSchemaProps::default()
            },
        );
        node = JsonSchemaProps {
            type_: Some("object".into()),
            description: Some("level".into()),
            properties: Some(props),
            ..JsonSchemaProps::default()
        };
    }
    node
}

/// Takes a deep schema apart level by level (its own `Drop` recurses).
fn drop_schema(root: JsonSchemaProps) {
    let mut stack = vec![root];
    while let Some(mut s) = stack.pop() {
        if let Some(props) = s.properties.take() {
            stack.extend(props.into_values());
        }
        if let Some(SchemaOrArray::Schema(items)) = s.items.take() {
            stack.push(*items);
        }
    }
}

fn crd_around(schema: JsonSchemaProps) -> CustomResourceDefinition {
    let mut crd = crd_with("Deep", json!({"type": "object"}));
    let version = &mut crd.spec.as_mut().unwrap().versions.as_mut().unwrap()[0];
    version.schema.as_mut().unwrap().open_api_v3_schema = Some(schema);
    crd
}

fn take_schema(mut crd: CustomResourceDefinition) -> JsonSchemaProps {
    let version = &mut crd.spec.as_mut().unwrap().versions.as_mut().unwrap()[0];
    version
        .schema
        .as_mut()
        .unwrap()
        .open_api_v3_schema
        .take()
        .unwrap()
}

#[test]
fn a_schema_two_thousand_levels_deep_is_shown_to_the_limit() {
    // On a thread with the default 2 MiB stack, as a caller would.
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let crds = vec![crd_around(deep_schema(2000))];
            let docs = build(&crds).unwrap();
            let schema = docs.groups[0].versions[0].kinds[0].schema.as_ref().unwrap();
            // `a` and `b` per level down to the limit.
            assert_eq!(schema.fields.len(), 2 * MAX_DOCUMENTED_DEPTH);
            let deepest = schema
                .fields
                .iter()
                .filter(|f| f.name == "a")
                .max_by_key(|f| f.depth)
                .unwrap();
            assert_eq!(deepest.depth, MAX_DOCUMENTED_DEPTH);
            assert!(deepest.truncated && !deepest.has_children);
            assert_eq!(schema.fields.iter().filter(|f| f.truncated).count(), 1);
            let site = html(&crds).unwrap();
            let page = file(&site, "example.com/v1/Deep.html");
            assert_eq!(count(page, "… deeper levels not shown"), 1);
            assert_eq!(count(page, "<details"), count(page, "</details>"));
            assert!(page.len() < 1 << 20, "{}", page.len());
            let md = markdown(&crds).unwrap();
            let group = file(&md, "example.com.md");
            assert_eq!(count(group, "… deeper levels not shown"), 1);
            assert!(group.len() < 1 << 20, "{}", group.len());
            for c in crds {
                drop_schema(take_schema(c));
            }
        })
        .unwrap();
    handle.join().unwrap();
}

#[test]
fn deep_lists_of_lists_are_bounded() {
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let mut node = deep_schema(1);
            for _ in 0..2000 {
                node = JsonSchemaProps {
                    type_: Some("array".into()),
                    items: Some(SchemaOrArray::Schema(Box::new(node))),
                    ..JsonSchemaProps::default()
                };
            }
            let mut props = IndexMap::new();
            props.insert("list".to_string(), node);
            let root = JsonSchemaProps {
                type_: Some("object".into()),
                properties: Some(props),
                ..JsonSchemaProps::default()
            };
            let crds = vec![crd_around(root)];
            let docs = build(&crds).unwrap();
            let schema = docs.groups[0].versions[0].kinds[0].schema.as_ref().unwrap();
            assert_eq!(schema.fields.len(), 1);
            assert!(schema.fields[0].type_name.starts_with("[][][]"));
            assert!(schema.fields[0].type_name.ends_with('…'));
            let _ = html(&crds).unwrap();
            let _ = markdown(&crds).unwrap();
            for c in crds {
                drop_schema(take_schema(c));
            }
        })
        .unwrap();
    handle.join().unwrap();
}

fn two_crds() -> Vec<CustomResourceDefinition> {
    let mut all = crds(WIDGET);
    all.push(hostile_crd());
    all.push(crd_with(
        "Alpha",
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {"x": {"type": "string"}}}}}),
    ));
    all
}

#[test]
fn output_is_deterministic_and_independent_of_input_order() {
    let crds = two_crds();
    let mut reversed = crds.clone();
    reversed.reverse();
    let h1 = html(&crds).unwrap();
    assert_eq!(h1, html(&crds).unwrap());
    assert_eq!(h1, html(&reversed).unwrap());
    let m1 = markdown(&crds).unwrap();
    assert_eq!(m1, markdown(&crds).unwrap());
    assert_eq!(m1, markdown(&reversed).unwrap());
}

#[test]
fn repeated_shapes_are_listed_once() {
    let reference = json!({
        "type": "object",
        "description": "a reference",
        "required": ["name"],
        "properties": {"name": {"type": "string"}, "namespace": {"type": "string"}}
    });
    let single = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    let crd = crd_with(
        "Shapes",
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "first": reference,
            "list": {"type": "array", "items": reference},
            "map": {"type": "object", "additionalProperties": reference},
            "other": {"type": "object", "properties": {"name": {"type": "string"}}},
            "one": single,
            "two": single,
        }}}}),
    );
    let docs = build(std::slice::from_ref(&crd)).unwrap();
    let fields = &docs.groups[0].versions[0].kinds[0]
        .schema
        .as_ref()
        .unwrap()
        .fields;
    let paths: Vec<&str> = fields.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "spec",
            "spec.first",
            "spec.first.name",
            "spec.first.namespace",
            "spec.list",
            "spec.map",
            "spec.other",
            "spec.other.name",
            "spec.one",
            "spec.one.name",
            "spec.two",
            "spec.two.name",
        ]
    );
    let first = paths.iter().position(|p| *p == "spec.first");
    for p in ["spec.list", "spec.map"] {
        let f = fields.iter().find(|f| f.path == p).unwrap();
        assert_eq!(f.same_as, first, "{p}");
        assert!(!f.has_children);
    }
    assert_eq!(fields[4].children_base, "spec.list[]");
    assert_eq!(fields[5].children_base, "spec.map{}");
    assert_eq!(fields[4].type_name, "[]object");
    assert_eq!(fields[5].type_name, "map[string]object");
    let site = html(std::slice::from_ref(&crd)).unwrap();
    let page = file(&site, "example.com/v1/Shapes.html");
    assert_eq!(
        count(
            page,
            "Fields: same as <a href=\"#spec.first\">spec.first</a>"
        ),
        2
    );
    let md = markdown(&[crd]).unwrap();
    assert_eq!(
        count(
            file(&md, "example.com.md"),
            "Fields: same as [`spec.first`](#Shapes.v1.spec.first)"
        ),
        2
    );
}

/// Every `id="…"` of an HTML text, in order.
fn ids(html: &str) -> Vec<&str> {
    html.match_indices(" id=\"")
        .filter_map(|(at, m)| {
            let rest = &html[at + m.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

#[test]
fn ids_are_unique_even_for_fields_named_like_the_search_box() {
    let crd = crd_with(
        "Names",
        json!({"type": "object", "properties": {
            "search": {"type": "object", "properties": {"search": {"type": "string"}, "search-results": {"type": "string"}}},
            "search-results": {"type": "string"},
            "a.b": {"type": "string"},
            "a": {"type": "object", "properties": {"b": {"type": "string"}}},
            "": {"type": "string"},
            "sp ace": {"type": "string"},
        }}),
    );
    let site = html(&[crd]).unwrap();
    for (name, content) in site.iter().filter(|f| f.0.ends_with(".html")) {
        let mut all = ids(content);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "{name}: duplicate ids");
        assert!(
            all.iter()
                .all(|i| !i.is_empty() && !i.contains(char::is_whitespace))
        );
        assert!(all.contains(&"search") && all.contains(&"search-results"));
    }
    let page = file(&site, "example.com/v1/Names.html");
    for id in [
        "[&quot;search&quot;]",
        "[&quot;search&quot;].search",
        "[&quot;search&quot;].search-results",
        "[&quot;search-results&quot;]",
        "[&quot;a.b&quot;]",
        "a.b",
        "[&quot;&quot;]",
        "[&quot;sp\\u{20}ace&quot;]",
    ] {
        assert!(ids(page).contains(&id), "{id}");
    }
}

#[test]
fn versions_deprecation_subresources_and_columns() {
    let yaml = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets, categories: [all, toys]}
  scope: Cluster
  versions:
  - name: v1alpha1
    served: true
    storage: false
    deprecated: true
    deprecationWarning: "example.com/v1alpha1 Gadget is <b>gone</b> soon"
    schema: {openAPIV3Schema: {type: object}}
  - name: v1beta1
    served: false
    storage: false
  - name: v1
    served: true
    storage: true
    subresources:
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
    selectableFields: [{jsonPath: .spec.color}]
    additionalPrinterColumns:
    - {name: Color, type: string, jsonPath: .spec.color, description: "the | color", priority: 1}
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations: [{rule: "self.metadata.name.size() < 10"}]
        properties:
          spec:
            type: object
            properties:
              color: {type: string, x-kubernetes-validations: [{rule: "self == oldSelf", message: frozen}]}
"#;
    let crds = crds(yaml);
    let docs = build(&crds).unwrap();
    let versions: Vec<&str> = docs.groups[0]
        .versions
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(versions, ["v1", "v1alpha1"]);
    let k = &docs.groups[0].versions[0].kinds[0];
    let summary: Vec<&str> = k.summary.versions.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(summary, ["v1", "v1beta1", "v1alpha1"]);
    assert_eq!(k.summary.singular, "gadget");
    assert_eq!(
        k.scale.as_ref().unwrap().label_selector_path.as_deref(),
        Some(".status.selector")
    );
    let color = &k.schema.as_ref().unwrap().fields[1];
    let labels: Vec<(&str, bool)> = color
        .facts
        .iter()
        .map(|f| (f.fact.label, f.fact.detail))
        .collect();
    assert_eq!(labels, [("immutable", false), ("message", true)]);

    let site = html(&crds).unwrap();
    let names: Vec<&str> = site.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(
        &names[4..],
        [
            "example.com/v1/Gadget.html",
            "example.com/v1alpha1/Gadget.html"
        ]
    );
    let old = file(&site, "example.com/v1alpha1/Gadget.html");
    assert!(old.contains("<p class=\"warning\">Deprecated: example.com/v1alpha1 Gadget is &lt;b&gt;gone&lt;/b&gt; soon</p>"));
    assert!(old.contains("<a href=\"../v1/Gadget.html\">v1</a>"));
    let new = file(&site, "example.com/v1/Gadget.html");
    assert!(new.contains("scale (spec replicas <code>.spec.replicas</code>, status replicas <code>.status.replicas</code>, label selector <code>.status.selector</code>)"));
    assert!(new.contains("<h2>Schema rules</h2>"));
    assert!(new.contains("<code>self.metadata.name.size() &lt; 10</code>"));
    assert!(new.contains("<h2>Selectable fields</h2>"));
    assert!(new.contains("<td>the | color</td>"));

    let md = markdown(&crds).unwrap();
    let group = file(&md, "example.com.md");
    assert!(
        group.contains(
            "> **Deprecated:** example.com/v1alpha1 Gadget is &lt;b&gt;gone&lt;/b&gt; soon"
        )
    );
    assert!(group.contains("| Color | string | `.spec.color` | 1 | the \\| color |"));
    assert!(group.contains("- *immutable*\n        - *message*: frozen"));
    assert!(group.contains("| v1beta1 | no | no | no |"));
}

#[test]
fn names_that_cannot_name_pages_are_errors_and_redefined_kinds_passed_over() {
    let widget = crds(WIDGET).remove(0);
    let with = |f: &dyn Fn(&mut CustomResourceDefinition)| {
        let mut c = widget.clone();
        f(&mut c);
        c
    };
    for group in [
        "../x",
        "example",
        "Example.com",
        "style.css",
        "index.html",
        "a..b",
        "",
    ] {
        let c = with(&|c| c.spec.as_mut().unwrap().group = Some(group.into()));
        let e = html(&[c]).unwrap_err();
        assert!(
            matches!(
                e,
                DocsError::InvalidName {
                    what: "group",
                    index: 0,
                    ..
                }
            ),
            "{group}: {e}"
        );
    }
    for kind in ["a/b", "../X", "", "1Kind", "K ind"] {
        let c =
            with(&|c| c.spec.as_mut().unwrap().names.as_mut().unwrap().kind = Some(kind.into()));
        let e = markdown(&[c]).unwrap_err();
        assert!(
            matches!(e, DocsError::InvalidName { what: "kind", .. }),
            "{kind}: {e}"
        );
    }
    let c = with(&|c| {
        c.spec.as_mut().unwrap().versions.as_mut().unwrap()[0].name = Some("../v1".into())
    });
    assert!(matches!(
        html(&[c]).unwrap_err(),
        DocsError::InvalidName {
            what: "version",
            ..
        }
    ));

    // The same CRD twice is documented once, silently; a different one,
    // or a kind differing in case only, is passed over and listed.
    assert_eq!(
        html(&[widget.clone(), widget.clone()]).unwrap(),
        html(std::slice::from_ref(&widget)).unwrap()
    );
    assert!(
        build(&[widget.clone(), widget.clone()])
            .unwrap()
            .passed_over
            .is_empty()
    );
    let other = with(&|c| c.spec.as_mut().unwrap().scope = Some("Cluster".into()));
    let upper =
        with(&|c| c.spec.as_mut().unwrap().names.as_mut().unwrap().kind = Some("WIDGET".into()));
    let docs = build(&[widget.clone(), other, upper]).unwrap();
    let passed: Vec<(usize, &str, usize)> = docs
        .passed_over
        .iter()
        .map(|p| (p.index, p.kind.as_str(), p.first))
        .collect();
    assert_eq!(passed, [(1, "Widget", 0), (2, "WIDGET", 0)]);
    assert_eq!(
        docs.passed_over[1].to_string(),
        "kind WIDGET of group example.com is documented from CRD \"widgets.example.com\" (kind Widget), given earlier; this CRD is passed over"
    );
    assert_eq!(docs.groups[0].versions[0].kinds.len(), 1);
    assert_eq!(
        docs.groups[0].versions[0].kinds[0].summary.scope,
        "Namespaced"
    );
    // Nothing at all: just the index.
    assert_eq!(html(&[]).unwrap().len(), 4);
    assert_eq!(markdown(&[]).unwrap().len(), 1);
}

#[test]
fn facts_read_the_published_v3_form() {
    // The `kubectl explain` renderer calls facts on published v3 nodes.
    let crds = crds(WIDGET);
    let docs = crate::crd::publish::publish_v3(&crds[0], &Options::default()).unwrap();
    let doc = &docs["apis/example.com/v1"];
    let model = doc["components"]["schemas"]
        .as_object()
        .unwrap()
        .values()
        .find(|m| m["x-kubernetes-group-version-kind"][0]["kind"] == "Widget")
        .unwrap();
    let port = &model["properties"]["spec"]["properties"]["port"];
    assert_eq!(type_name(port), "int-or-string");
    assert!(facts(port).is_empty(), "{:?}", facts(port));
    assert_eq!(type_name(&model["properties"]["metadata"]), "ObjectMeta");
    assert!(facts(&model["properties"]["metadata"]).is_empty());
    let replicas = &model["properties"]["spec"]["properties"]["replicas"];
    let labels: Vec<&str> = facts(replicas).iter().map(|f| f.label).collect();
    assert_eq!(labels, ["format", "default", "minimum"]);
    assert_eq!(
        type_name(&model["properties"]["spec"]["properties"]["labels"]),
        "map[string]string"
    );
}
