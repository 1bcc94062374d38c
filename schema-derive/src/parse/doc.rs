//! Doc comments to descriptions, with controller-gen's conventions
//! (`extractDoc` in controller-tools' `pkg/markers/zip.go`, after Go's
//! `ast.CommentGroup.Text`):
//!
//! - a `///` line whose text starts with `+` (after spaces) is a marker
//!   (`+optional`, `+kubebuilder:validation:Minimum=1`) and is dropped
//!   before anything else, as controller-gen drops marker comments;
//! - one leading space of every `///` line is removed (Go removes the first
//!   space of a line comment); lines of a `/** */` block are trimmed;
//! - trailing whitespace is removed from every line, leading and trailing
//!   blank lines are dropped and runs of blank lines become one;
//! - outside fenced code blocks (```` ``` ```` or `~~~`), a line starting
//!   with `TODO` is dropped and a line starting with `---` ends the
//!   description (the Kubernetes convention for comments not meant for
//!   users);
//! - line breaks are kept as written (controller-gen stopped joining lines
//!   into paragraphs).
//!
//! `#[derive(JsonSchema)]` follows schemars' conventions instead
//! ([`schemars_description`]).

use crate::ctxt::Dialect;

/// The description from the `#[doc]` attributes by the conventions of
/// the derive's dialect: controller-gen's ([`description`]), or
/// schemars' ([`schemars_description`]).
pub fn description_in(dialect: Dialect, attrs: &[syn::Attribute]) -> Option<String> {
    match dialect {
        Dialect::Native => description(attrs),
        Dialect::Schemars => schemars_description(attrs),
    }
}

/// The description schemars takes from the `#[doc]` attributes: their
/// lines without one leading space, joined, trimmed at both ends; a
/// first line starting with `#` is the title, not part of the
/// description.
pub fn schemars_description(attrs: &[syn::Attribute]) -> Option<String> {
    let lines: Vec<String> = doc_strings(attrs)
        .map(|l| l.strip_prefix(' ').map(str::to_string).unwrap_or(l))
        .collect();
    let joined = lines.join("\n");
    let text = joined.trim();
    let text = if text.starts_with('#') {
        text.split_once('\n').map_or("", |(_, rest)| rest).trim()
    } else {
        text
    };
    (!text.is_empty()).then(|| text.to_string())
}

/// The title schemars takes from the `#[doc]` attributes: a first line
/// starting with `#`, without the `#`s.
pub fn schemars_title(attrs: &[syn::Attribute]) -> Option<String> {
    let first = doc_strings(attrs).find(|l| !l.trim().is_empty())?;
    let title = first
        .trim()
        .strip_prefix('#')?
        .trim_start_matches('#')
        .trim();
    (!title.is_empty()).then(|| title.to_string())
}

/// The string of every `#[doc = "..."]`, in order.
fn doc_strings(attrs: &[syn::Attribute]) -> impl Iterator<Item = String> + '_ {
    attrs.iter().filter_map(|attr| {
        if !attr.path().is_ident("doc") {
            return None;
        }
        let syn::Meta::NameValue(nv) = &attr.meta else {
            return None;
        };
        match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        }
    })
}

/// The description from the `#[doc]` attributes, or `None` when empty.
pub fn description(attrs: &[syn::Attribute]) -> Option<String> {
    let mut raw: Vec<String> = Vec::new();
    for text in doc_strings(attrs) {
        if text.contains('\n') {
            // A block comment: trim every line.
            raw.extend(text.lines().map(|l| l.trim().to_string()));
        } else if !text.trim_start().starts_with('+') {
            raw.push(text.strip_prefix(' ').unwrap_or(&text).to_string());
        }
    }
    let text = extract(&raw);
    (!text.is_empty()).then_some(text)
}

/// `CommentGroup.Text` followed by `extractDoc`'s filtering.
pub fn extract(lines: &[String]) -> String {
    // Text(): trailing space trimmed, blank runs collapsed, outer blanks dropped.
    let mut text: Vec<&str> = Vec::new();
    for l in lines {
        let l = l.trim_end();
        if l.is_empty() && text.last().is_none_or(|p: &&str| p.is_empty()) {
            continue;
        }
        text.push(l);
    }
    while text.last().is_some_and(|l| l.is_empty()) {
        text.pop();
    }
    let mut out: Vec<&str> = Vec::new();
    let mut in_code = false;
    for line in text {
        if line.starts_with("```") || line.starts_with("~~~") {
            in_code = !in_code;
        }
        if !in_code {
            if line.starts_with("TODO") {
                continue;
            }
            if line.starts_with("---") {
                break;
            }
        }
        out.push(line);
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(lines: &[&str]) -> String {
        extract(&lines.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn conventions() {
        assert_eq!(
            ex(&["Foo is a foo.", "It has two lines."]),
            "Foo is a foo.\nIt has two lines."
        );
        assert_eq!(ex(&["", "A.", "", "", "B.", ""]), "A.\n\nB.");
        assert_eq!(ex(&["A.", "TODO: fix", "B."]), "A.\nB.");
        assert_eq!(ex(&["A.", "", "---", "internal"]), "A.\n");
        assert_eq!(
            ex(&["```", "TODO", "---", "```", "x"]),
            "```\nTODO\n---\n```\nx"
        );
        assert_eq!(ex(&["TODO only"]), "");
    }

    fn attrs(lines: &[&str]) -> Vec<syn::Attribute> {
        lines
            .iter()
            .map(|l| syn::parse_quote!(#[doc = #l]))
            .collect()
    }

    fn doc(lines: &[&str]) -> Option<String> {
        description(&attrs(lines))
    }

    #[test]
    fn schemars_keeps_the_lines_as_written() {
        let d = |lines: &[&str]| schemars_description(&attrs(lines));
        // One leading space per line goes, nothing else: no markers, no
        // collapsed blank lines, no `TODO` filter.
        assert_eq!(
            d(&[" A.", "", "", "  indented", " +optional", " TODO: x"]).as_deref(),
            Some("A.\n\n\n indented\n+optional\nTODO: x")
        );
        // A heading is schemars' title, not the description.
        assert_eq!(d(&[" # Title", " Body."]).as_deref(), Some("Body."));
        assert_eq!(
            schemars_title(&attrs(&["", " ## Title ", " Body."])).as_deref(),
            Some("Title")
        );
        assert_eq!(schemars_title(&attrs(&[" Body."])), None);
        assert_eq!(d(&[" # Title"]), None);
        assert_eq!(d(&[" ", ""]), None);
    }

    #[test]
    fn markers_are_dropped_before_blank_lines_collapse() {
        assert_eq!(
            doc(&[" Replicas of the proxy.", "", " +optional", "", " More."]).as_deref(),
            Some("Replicas of the proxy.\n\nMore.")
        );
        assert_eq!(
            doc(&[" +kubebuilder:validation:Minimum=1", "   +k8s:required"]),
            None
        );
        // Only a line that starts with `+` is a marker.
        assert_eq!(doc(&[" 1 + 1"]).as_deref(), Some("1 + 1"));
        // A block comment has no markers (Go's rule is for `//` comments).
        assert_eq!(
            doc(&["\n +not a marker\n"]).as_deref(),
            Some("+not a marker")
        );
    }
}
