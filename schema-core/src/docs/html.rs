//! The static HTML site of the reference documents; its structure, a
//! contract, is stated on [`html`].

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::facts::FactStyle;
use super::path::fragment;
use super::reference::{
    self, Description, Docs, DocsError, Field, KindVersion, MAX_DESCRIPTION_BYTES,
    MAX_DOCUMENTED_DEPTH, ScopedFact,
};
use super::summary::{self, VersionName};
use super::text::{html as esc, html_into, script_json};
use crate::model::wire::CustomResourceDefinition;

/// The site's stylesheet.
const STYLE_CSS: &str = include_str!("assets/style.css");
/// The site's script: fragment navigation and search.
const SITE_JS: &str = include_str!("assets/site.js");

/// The longest part of a description the search index holds for a field,
/// in characters (the search matches within it).
pub const SEARCH_TEXT_CHARS: usize = 400;

/// The static site documenting `crds`: files as paths relative to the
/// site's root (`/`-separated) with their contents, `index.html` first.
/// The same CRDs give the same bytes.
///
/// The site's structure is a contract (a browser test and links from
/// elsewhere rely on it):
///
/// - `index.html`: the groups, their versions and kinds, each kind linking
///   to its page;
/// - `<group>/<version>/<Kind>.html`: one page per kind and served
///   version, the kind's summary then its field tree;
/// - every field is an element whose `id` and `data-path` are its path
///   ([`super::path`], e.g. `spec.template.spec`, no prefix): `<details
///   class="field">` (its `<summary>` first, then its description and
///   facts, then its fields) when its fields follow, open down to the
///   second level, else `<div class="field">`;
/// - every page has `<input type="search" id="search">` and `<ul
///   id="search-results">`; `site.js` filters `search-index.js`
///   (`window.SCHEMA_GEN_SEARCH = [...]`, loaded by `<script src>` as
///   `file://` allows no fetch; each entry `{u, p, k, d}`: the link from
///   the site's root, the field path or kind, the page, the first
///   [`SEARCH_TEXT_CHARS`] characters of the description) over field paths
///   and descriptions, listing `<li><a href="relative/page.html#field.path">`
///   results (relative to the page, percent-encoded fragments); on load
///   and on every fragment change it opens the `<details>` around the
///   fragment's target and scrolls to it;
/// - `style.css` (light and dark by `prefers-color-scheme`, fluid down to
///   a phone's width) and `site.js` are the only other files: nothing is
///   loaded from the network.
///
/// Pages have no ids but the fields' and the two of the search; a root
/// property named like one of those is quoted in its path. Text is
/// escaped, and forbidden code points are shown as U+FFFD, so every page
/// is valid HTML whatever the schema holds.
///
/// # Errors
///
/// As [`reference::build`].
pub fn html(crds: &[CustomResourceDefinition]) -> Result<Vec<(String, String)>, DocsError> {
    Ok(site(&reference::build(crds)?))
}

/// The static site of a reference (see [`html`]).
pub fn site(docs: &Docs) -> Vec<(String, String)> {
    let mut search = Vec::new();
    let mut pages = Vec::new();
    for g in &docs.groups {
        for v in &g.versions {
            for k in &v.kinds {
                let file = page_file(k);
                let content = page(k, &file, &mut search);
                pages.push((file, content));
            }
        }
    }
    let mut files = vec![
        ("index.html".to_string(), index(docs)),
        ("style.css".to_string(), STYLE_CSS.to_string()),
        ("site.js".to_string(), SITE_JS.to_string()),
        ("search-index.js".to_string(), search_index(&search)),
    ];
    files.extend(pages);
    files
}

/// `<group>/<version>/<Kind>.html` (the reference's names are checked to be
/// safe path segments).
fn page_file(k: &KindVersion) -> String {
    format!(
        "{}/{}/{}.html",
        k.summary.group, k.version.name, k.summary.kind
    )
}

fn search_index(entries: &[Value]) -> String {
    let json = serde_json::to_string(entries).unwrap_or_else(|_| "[]".to_string());
    format!(
        "// The search index of the site: one entry per kind page and field.\nwindow.SCHEMA_GEN_SEARCH = {};\n",
        script_json(&json)
    )
}

/// The page frame: head, header with the search box, `main`, scripts.
/// `root` is the way back to the site's root (`""` or `"../../"`).
fn layout(title: &str, root: &str, main: &str) -> String {
    let mut out = String::with_capacity(main.len() + 2048);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"color-scheme\" content=\"light dark\">\n");
    let _ = writeln!(out, "<title>{}</title>", esc(title));
    out.push_str("<link rel=\"icon\" href=\"data:,\">\n");
    let _ = writeln!(out, "<link rel=\"stylesheet\" href=\"{root}style.css\">");
    out.push_str("</head>\n");
    let _ = writeln!(out, "<body data-root=\"{root}\">");
    out.push_str("<header class=\"top\">\n");
    let _ = writeln!(
        out,
        "<a class=\"home\" href=\"{root}index.html\">API reference</a>"
    );
    out.push_str("<div class=\"search\">\n<input type=\"search\" id=\"search\" placeholder=\"Search fields and descriptions\" aria-label=\"Search fields and descriptions\" autocomplete=\"off\" spellcheck=\"false\">\n<ul id=\"search-results\"></ul>\n</div>\n</header>\n");
    out.push_str("<main>\n");
    out.push_str(main);
    out.push_str("</main>\n");
    let _ = writeln!(out, "<script src=\"{root}search-index.js\"></script>");
    let _ = writeln!(out, "<script src=\"{root}site.js\"></script>");
    out.push_str("</body>\n</html>\n");
    out
}

fn index(docs: &Docs) -> String {
    let mut main = String::new();
    main.push_str("<h1>API reference</h1>\n");
    let _ = writeln!(main, "<p>{}</p>", docs.summary());
    for g in &docs.groups {
        let _ = writeln!(main, "<section class=\"group\">\n<h2>{}</h2>", esc(&g.name));
        for v in &g.versions {
            let _ = writeln!(main, "<h3>{}</h3>\n<ul class=\"kinds\">", esc(&v.name));
            for k in &v.kinds {
                let _ = write!(
                    main,
                    "<li><a href=\"{}\">{}</a> <span class=\"scope\">{}</span>",
                    esc(&page_file(k)),
                    esc(&k.summary.kind),
                    esc(&k.summary.scope)
                );
                if k.version.deprecated {
                    main.push_str(" <span class=\"tag deprecated\">deprecated</span>");
                }
                if let Some(e) = k.excerpt() {
                    let _ = write!(main, "<br><span class=\"excerpt\">{}</span>", esc(&e));
                }
                main.push_str("</li>\n");
            }
            main.push_str("</ul>\n");
        }
        main.push_str("</section>\n");
    }
    layout("API reference", "", &main)
}

fn description(out: &mut String, d: &Description) {
    out.push_str("<p class=\"desc\">");
    html_into(out, &d.text);
    out.push_str("</p>\n");
    if d.omitted_bytes > 0 {
        let _ = writeln!(
            out,
            "<p class=\"note\">… description truncated: {} more bytes not shown (limit {MAX_DESCRIPTION_BYTES} bytes)</p>",
            d.omitted_bytes
        );
    }
}

fn facts_list(out: &mut String, facts: &[ScopedFact]) {
    if facts.is_empty() {
        return;
    }
    out.push_str("<ul class=\"facts\">\n");
    for f in facts {
        out.push_str(if f.fact.detail {
            "<li class=\"detail\">"
        } else {
            "<li>"
        });
        out.push_str("<span class=\"label\">");
        if !f.of.is_empty() {
            html_into(out, &f.of);
            out.push(' ');
        }
        html_into(out, f.fact.label);
        out.push_str("</span>");
        match f.fact.style {
            FactStyle::Flag => {}
            FactStyle::Code => {
                out.push_str(" <code>");
                html_into(out, &f.fact.value);
                out.push_str("</code>");
            }
            FactStyle::Text => {
                out.push_str(" <span class=\"text\">");
                html_into(out, &f.fact.value);
                out.push_str("</span>");
            }
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n");
}

/// A field's line: name, type, required.
fn field_head(out: &mut String, f: &Field) {
    out.push_str("<code class=\"name\">");
    html_into(out, &f.name);
    out.push_str("</code> <span class=\"type\">");
    html_into(out, &f.type_name);
    out.push_str("</span>");
    if f.required {
        out.push_str(" <span class=\"tag required\">required</span>");
    }
}

fn field_body(out: &mut String, f: &Field, fields: &[Field]) {
    out.push_str("<div class=\"body\">\n");
    let _ = writeln!(
        out,
        "<a class=\"path\" href=\"#{}\">{}</a>",
        esc(&fragment(&f.path)),
        esc(&f.path)
    );
    if let Some(d) = &f.description {
        description(out, d);
    }
    facts_list(out, &f.facts);
    if let Some(first) = f.same_as.and_then(|i| fields.get(i)) {
        let _ = writeln!(
            out,
            "<p class=\"same\">Fields: same as <a href=\"#{}\">{}</a></p>",
            esc(&fragment(&first.path)),
            esc(&first.path)
        );
    }
    if f.truncated {
        let _ = writeln!(
            out,
            "<p class=\"note\">… deeper levels not shown (limit {MAX_DOCUMENTED_DEPTH} levels)</p>"
        );
    }
    out.push_str("</div>\n");
}

/// The field tree, nested by an explicit stack of open fields.
fn field_tree(out: &mut String, fields: &[Field]) {
    out.push_str("<div class=\"tree\">\n");
    let mut open: Vec<usize> = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        while let Some(&top) = open.last() {
            if Some(top) == f.parent {
                break;
            }
            out.push_str("</div>\n</details>\n");
            open.pop();
        }
        let id = esc(&f.path);
        if f.has_children {
            let _ = write!(
                out,
                "<details class=\"field\" id=\"{id}\" data-path=\"{id}\"{}><summary>",
                if f.depth <= 2 { " open" } else { "" }
            );
            field_head(out, f);
            out.push_str("</summary>\n");
            field_body(out, f, fields);
            out.push_str("<div class=\"children\">\n");
            open.push(i);
        } else {
            let _ = write!(
                out,
                "<div class=\"field\" id=\"{id}\" data-path=\"{id}\"><div class=\"head\">"
            );
            field_head(out, f);
            out.push_str("</div>\n");
            field_body(out, f, fields);
            out.push_str("</div>\n");
        }
    }
    for _ in open {
        out.push_str("</div>\n</details>\n");
    }
    out.push_str("</div>\n");
}

fn summary_row(out: &mut String, name: &str, value_html: &str) {
    let _ = writeln!(
        out,
        "<tr><th scope=\"row\">{name}</th><td>{value_html}</td></tr>"
    );
}

fn code_list(items: &[String]) -> String {
    items
        .iter()
        .map(|s| format!("<code>{}</code>", esc(s)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn page(k: &KindVersion, file: &str, search: &mut Vec<Value>) -> String {
    let s = &k.summary;
    let v = &k.version;
    let gv = format!("{}/{}", s.group, v.name);
    let mut main = String::new();
    let _ = writeln!(
        main,
        "<nav class=\"crumbs\"><a href=\"../../index.html\">Index</a> › {} › {}</nav>",
        esc(&s.group),
        esc(&v.name)
    );
    let _ = writeln!(
        main,
        "<h1>{} <span class=\"gv\">{}</span></h1>",
        esc(&s.kind),
        esc(&gv)
    );
    if v.deprecated {
        let warning = v
            .deprecation_warning
            .clone()
            .unwrap_or_else(|| format!("{gv} {} is deprecated", s.kind));
        let _ = writeln!(
            main,
            "<p class=\"warning\">Deprecated: {}</p>",
            esc(&warning)
        );
    }
    if let Some(d) = k.schema.as_ref().and_then(|x| x.description.as_ref()) {
        description(&mut main, d);
    }
    main.push_str("<div class=\"table-wrap\"><table class=\"summary\"><tbody>\n");
    summary_row(
        &mut main,
        "API version",
        &format!("<code>{}</code>", esc(&gv)),
    );
    summary_row(
        &mut main,
        "Kind",
        &format!(
            "<code>{}</code> (list: <code>{}</code>)",
            esc(&s.kind),
            esc(&s.list_kind)
        ),
    );
    summary_row(&mut main, "Scope", &esc(&s.scope));
    summary_row(
        &mut main,
        "Names",
        &format!(
            "plural <code>{}</code>, singular <code>{}</code>{}",
            esc(&s.plural),
            esc(&s.singular),
            if s.short_names.is_empty() {
                String::new()
            } else {
                format!(", short names {}", code_list(&s.short_names))
            }
        ),
    );
    if !s.categories.is_empty() {
        summary_row(&mut main, "Categories", &code_list(&s.categories));
    }
    summary_row(
        &mut main,
        "CRD",
        &format!("<code>{}</code>", esc(&s.crd_name)),
    );
    summary_row(&mut main, "Conversion", &esc(&s.conversion));
    summary_row(
        &mut main,
        "Subresources",
        &summary::subresources(k, |c| format!("<code>{}</code>", esc(c))),
    );
    main.push_str("</tbody></table></div>\n");

    main.push_str("<h2>Versions</h2>\n<div class=\"table-wrap\"><table>\n<thead><tr><th scope=\"col\">Version</th><th scope=\"col\">Served</th><th scope=\"col\">Storage</th><th scope=\"col\">Deprecated</th></tr></thead>\n<tbody>\n");
    for row in summary::version_rows(k, esc) {
        let name = match row.name_kind {
            VersionName::Current => format!("<strong>{}</strong>", esc(row.name)),
            VersionName::Served => format!(
                "<a href=\"../{}/{}.html\">{}</a>",
                esc(row.name),
                esc(&s.kind),
                esc(row.name)
            ),
            VersionName::Unserved => esc(row.name),
        };
        let _ = writeln!(
            main,
            "<tr><td>{name}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            row.served, row.storage, row.deprecated
        );
    }
    main.push_str("</tbody></table></div>\n");

    if !k.columns.is_empty() {
        main.push_str("<h2>Printer columns</h2>\n<div class=\"table-wrap\"><table>\n<thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Type</th><th scope=\"col\">JSON path</th><th scope=\"col\">Priority</th><th scope=\"col\">Description</th></tr></thead>\n<tbody>\n");
        for c in &k.columns {
            let ty = match &c.format {
                Some(f) => format!("{} ({})", esc(&c.type_), esc(f)),
                None => esc(&c.type_),
            };
            let _ = write!(
                main,
                "<tr><td>{}</td><td>{ty}</td><td><code>{}</code></td><td>{}</td><td>",
                esc(&c.name),
                esc(&c.json_path),
                c.priority
            );
            if let Some(d) = &c.description {
                html_into(&mut main, &d.text);
                if d.omitted_bytes > 0 {
                    main.push_str(" … (truncated)");
                }
            }
            main.push_str("</td></tr>\n");
        }
        main.push_str("</tbody></table></div>\n");
    }
    if !k.selectable_fields.is_empty() {
        let _ = writeln!(
            main,
            "<h2>Selectable fields</h2>\n<p>{}</p>",
            code_list(&k.selectable_fields)
        );
    }
    let page_title = format!("{} {}", s.kind, gv);
    search.push(json!({
        "u": file,
        "p": s.kind,
        "k": gv,
        "d": k.excerpt().unwrap_or_default(),
    }));
    match &k.schema {
        None => main.push_str("<h2>Fields</h2>\n<p>This version has no schema.</p>\n"),
        Some(schema) => {
            if !schema.facts.is_empty() {
                main.push_str("<h2>Schema rules</h2>\n");
                facts_list(&mut main, &schema.facts);
            }
            main.push_str("<h2>Fields</h2>\n");
            if schema.fields.is_empty() {
                let _ = writeln!(
                    main,
                    "<p>The schema (<span class=\"type\">{}</span>) has no fields.</p>",
                    esc(&schema.type_name)
                );
            }
            if schema.truncated {
                let _ = writeln!(
                    main,
                    "<p class=\"note\">… deeper levels not shown (limit {MAX_DOCUMENTED_DEPTH} levels)</p>"
                );
            }
            field_tree(&mut main, &schema.fields);
            for f in &schema.fields {
                let text: String = f
                    .description
                    .as_ref()
                    .map(|d| d.text.chars().take(SEARCH_TEXT_CHARS).collect())
                    .unwrap_or_default();
                search.push(json!({
                    "u": format!("{file}#{}", fragment(&f.path)),
                    "p": f.path,
                    "k": page_title,
                    "d": text,
                }));
            }
        }
    }
    layout(
        &format!("{} ({gv}) — API reference", s.kind),
        "../../",
        &main,
    )
}
