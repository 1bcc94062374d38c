//! Field paths of the reference documents: one printed form per field,
//! used as its anchor (`id`) and in links, so it must be stable and unique.
//!
//! A path is the field's property names joined by `.`
//! (`spec.template.spec`), with a marker after a field for each container
//! level between it and the object whose properties come next:
//!
//! - `[]` for the items of a list (`spec.containers[].name`);
//! - `{}` for the values of a map (`spec.selectors{}.matchLabels`).
//!
//! A property name that is empty or contains `.`, `[`, `]`, `{`, `}`, `"`,
//! `\`, whitespace, a control character or a Unicode noncharacter is written
//! quoted, `["app.kubernetes.io/name"]` (no `.` before it), with `"` and `\`
//! escaped by a backslash and the other characters of that list as
//! `\u{hex}`. A root property whose name is one of the page's own element
//! ids ([`RESERVED_IDS`]) is quoted too, so no field anchor can equal them.
//! Plain names never contain the characters the syntax uses, so two
//! different fields never print the same path, and a path is never empty
//! and never contains whitespace (it is a valid HTML `id`).

use crate::model::schema_step::SchemaStep;

/// The element ids the HTML pages use besides field paths (the search box
/// and its result list). A root property of one of these names is quoted.
pub const RESERVED_IDS: [&str; 2] = ["search", "search-results"];

/// Whether a character forces a property name into the quoted form.
fn needs_quoting(c: char) -> bool {
    matches!(c, '.' | '[' | ']' | '{' | '}' | '"' | '\\')
        || c.is_whitespace()
        || c.is_control()
        || is_noncharacter(c)
}

/// Unicode noncharacters (U+FDD0..U+FDEF and the last two code points of
/// every plane), which HTML forbids in documents.
pub(crate) fn is_noncharacter(c: char) -> bool {
    let u = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&u) || (u & 0xFFFE) == 0xFFFE
}

/// Whether `name` is written as it is at this place of a path.
fn is_plain(name: &str, at_root: bool) -> bool {
    let reserved = at_root && RESERVED_IDS.contains(&name);
    !name.is_empty() && !reserved && !name.chars().any(needs_quoting)
}

/// Appends one step to `path` (empty for the root).
pub fn push(path: &mut String, step: SchemaStep<&str>) {
    match step {
        SchemaStep::Items => path.push_str("[]"),
        SchemaStep::AdditionalProperties => path.push_str("{}"),
        SchemaStep::Property(name) if is_plain(name, path.is_empty()) => {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(name);
        }
        SchemaStep::Property(name) => {
            path.push_str("[\"");
            for c in name.chars() {
                match c {
                    '"' => path.push_str("\\\""),
                    '\\' => path.push_str("\\\\"),
                    c if needs_quoting(c) && !matches!(c, '.' | '[' | ']' | '{' | '}') => {
                        path.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
                    }
                    c => path.push(c),
                }
            }
            path.push_str("\"]");
        }
    }
}

/// The path of `steps` from the root.
pub fn from_steps<'a>(steps: impl IntoIterator<Item = SchemaStep<&'a str>>) -> String {
    let mut path = String::new();
    for s in steps {
        push(&mut path, s);
    }
    path
}

/// `base` followed by one property (`base` empty for a root property).
pub fn child(base: &str, name: &str) -> String {
    let mut path = base.to_string();
    push(&mut path, SchemaStep::Property(name));
    path
}

/// Whether a byte is kept as it is in a URL fragment: ASCII letters and
/// digits and `-._~!$*+,;=:@/`. Everything else is percent-encoded, which
/// keeps the link valid HTML, valid Markdown link syntax (no parentheses,
/// brackets or spaces) and a valid URL; browsers decode it to find the
/// element.
fn fragment_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$*+,;=:@/".contains(&b)
}

/// `s` percent-encoded for a URL fragment (without the `#`).
pub fn fragment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if fragment_safe(b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_with_markers() {
        let p = from_steps([
            SchemaStep::Property("spec"),
            SchemaStep::Property("containers"),
            SchemaStep::Items,
            SchemaStep::Property("env"),
            SchemaStep::AdditionalProperties,
            SchemaStep::Items,
            SchemaStep::Property("name"),
        ]);
        assert_eq!(p, "spec.containers[].env{}[].name");
    }

    #[test]
    fn quoted_names_and_reserved_ids() {
        assert_eq!(child("", "search"), "[\"search\"]");
        assert_eq!(child("spec", "search"), "spec.search");
        assert_eq!(child("", "search-results"), "[\"search-results\"]");
        assert_eq!(
            child("m", "app.kubernetes.io/name"),
            "m[\"app.kubernetes.io/name\"]"
        );
        assert_eq!(child("m", "a b"), "m[\"a\\u{20}b\"]");
        assert_eq!(child("m", "q\"\\"), "m[\"q\\\"\\\\\"]");
        assert_eq!(child("m", ""), "m[\"\"]");
        assert_eq!(child("m", "x\u{1}"), "m[\"x\\u{1}\"]");
        assert_eq!(child("m", "\u{fffe}"), "m[\"\\u{fffe}\"]");
        // Never whitespace, never empty.
        for name in ["", " ", "\t\n", "a\u{2028}b", "[]", "{}"] {
            let p = child("", name);
            assert!(!p.is_empty());
            assert!(!p.chars().any(char::is_whitespace), "{p:?}");
        }
    }

    #[test]
    fn distinct_steps_give_distinct_paths() {
        let cases = [
            from_steps([SchemaStep::Property("a"), SchemaStep::Items]),
            from_steps([SchemaStep::Property("a[]")]),
            from_steps([SchemaStep::Property("a"), SchemaStep::AdditionalProperties]),
            from_steps([SchemaStep::Property("a{}")]),
            from_steps([SchemaStep::Property("a.b")]),
            from_steps([SchemaStep::Property("a"), SchemaStep::Property("b")]),
            from_steps([SchemaStep::Property("a"), SchemaStep::Property("[\"b\"]")]),
            from_steps([SchemaStep::Property("a"), SchemaStep::Property("b\"]")]),
        ];
        for (i, a) in cases.iter().enumerate() {
            for b in &cases[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn fragments_are_percent_encoded() {
        assert_eq!(fragment("spec.a[].b"), "spec.a%5B%5D.b");
        assert_eq!(fragment("a(b) c%"), "a%28b%29%20c%25");
        assert_eq!(fragment("é"), "%C3%A9");
    }
}
