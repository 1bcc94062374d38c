//! The attribute reference (`schema_core::rust`'s `attributes.md`) and the
//! table agree: the same keys, places, examples and documentation lines.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use schema_attrs::{ATTRIBUTES, CRD_SETTINGS, attribute, crd_setting};

const REFERENCE: &str = include_str!("../../schema-core/src/rust/attributes.md");

/// The rows of the first table under the heading that starts with
/// `heading`, as cells.
fn rows(heading: &str) -> Vec<Vec<String>> {
    let section = REFERENCE
        .split("\n## ")
        .find(|s| s.starts_with(heading))
        .unwrap_or_else(|| panic!("no section {heading}"));
    section
        .lines()
        .skip_while(|l| !l.starts_with("| key |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(cells)
        .collect()
}

/// The cells of a table row (`\|` is a `|` inside a cell).
fn cells(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = line.trim().trim_matches('|').chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().unwrap().push_str("\\|");
                chars.next();
            }
            '|' => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out.iter().map(|c| c.trim().to_string()).collect()
}

/// The keys a row's first cell names (`` `min_length`, `max_length` ``,
/// `` `items(...)` ``, `` `with = path` ``).
fn keys(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(|k| {
            k.chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect()
        })
        .collect()
}

fn unquoted(cell: &str) -> &str {
    cell.trim_matches('`')
}

#[test]
fn schema_keys_match_the_reference() {
    let mut documented = Vec::new();
    for row in rows("`#[schema(...)]`") {
        let [key, place, example, doc] = row.as_slice() else {
            panic!("a row of four cells: {row:?}");
        };
        let names = keys(key);
        let place = place.trim_end_matches(" (structs)");
        let mut examples = Vec::new();
        for name in &names {
            let a = attribute(name)
                .unwrap_or_else(|| panic!("`{name}` is documented but not in the table"));
            assert_eq!(a.places.letters(), place, "places of `{name}`");
            assert_eq!(a.doc, doc, "documentation of `{name}`");
            examples.push(a.example);
            documented.push(name.clone());
        }
        let example = unquoted(example);
        assert!(
            example.is_empty() || examples.contains(&example),
            "the example `{example}` is none of {examples:?}"
        );
    }
    for a in ATTRIBUTES {
        assert!(
            documented.iter().any(|d| d == a.key),
            "`{}` is in the table but not documented",
            a.key
        );
    }
}

#[test]
fn crd_keys_match_the_reference() {
    let mut documented = Vec::new();
    for row in rows("Custom resources") {
        let [key, example, doc] = row.as_slice() else {
            panic!("a row of three cells: {row:?}");
        };
        let name = keys(key).remove(0);
        let s = crd_setting(&name)
            .unwrap_or_else(|| panic!("`{name}` is documented but not in the table"));
        assert_eq!(s.doc, doc, "documentation of `{name}`");
        assert_eq!(s.example, unquoted(example), "example of `{name}`");
        documented.push(name);
    }
    for s in CRD_SETTINGS {
        assert!(
            documented.iter().any(|d| d == s.key),
            "`{}` is in the table but not documented",
            s.key
        );
    }
}
