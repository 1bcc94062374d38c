//! `fieldPath` of `x-kubernetes-validations` rules: parsing and resolution
//! against the structural schema (apiextensions `cel.ValidFieldPath`).
//!
//! A field path is a sequence of `.name`, `['name']` (for names that are
//! not identifiers) and `[n]` (list index) segments, starting at the node
//! the rule sits on, e.g. `.spec.ports[0].name` or `.labels['a.b/c']`.

use crate::structural::Structural;
use crate::wire::JsonSchemaProps;

/// One parsed segment.
#[derive(Debug, PartialEq, Eq)]
enum Segment {
    Field(String),
    Index(usize),
}

fn parse(path: &str) -> Option<Vec<Segment>> {
    let mut out = Vec::new();
    let mut rest = path;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            let name = r.get(..end)?;
            if name.is_empty() {
                return None;
            }
            out.push(Segment::Field(name.to_string()));
            rest = r.get(end..)?;
        } else if let Some(r) = rest.strip_prefix("['") {
            // A quoted key; `\'` and `\\` escapes are allowed.
            let mut key = String::new();
            let mut chars = r.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => key.push(chars.next()?.1),
                    '\'' => {
                        end = Some(i);
                        break;
                    }
                    c => key.push(c),
                }
            }
            let end = end?;
            let after = r.get(end + 1..)?;
            rest = after.strip_prefix(']')?;
            out.push(Segment::Field(key));
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            let n: usize = r.get(..end)?.trim().parse().ok()?;
            out.push(Segment::Index(n));
            rest = r.get(end + 1..)?;
        } else {
            return None;
        }
    }
    Some(out)
}

/// Whether `path` resolves in the schema `s`; schemas that are not
/// structural are not checked (as upstream's `pathValid`).
pub fn path_valid(s: &JsonSchemaProps, path: &str) -> bool {
    let Ok(ss) = Structural::from_props(s) else {
        return true;
    };
    resolves(&ss, path)
}

/// Whether `path` resolves in the structural schema `s`.
pub fn resolves(s: &Structural, path: &str) -> bool {
    let Some(segments) = parse(path) else {
        return false;
    };
    let mut node = s;
    for seg in segments {
        let next = match seg {
            Segment::Field(name) => node.properties.get(&name).or_else(|| {
                node.generic
                    .additional_properties
                    .as_ref()
                    .and_then(|a| a.structural.as_deref())
            }),
            Segment::Index(_) => node.items.as_deref(),
        };
        match next {
            Some(n) => node = n,
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_paths() {
        assert_eq!(
            parse(".a['b.c'][2].d"),
            Some(vec![
                Segment::Field("a".into()),
                Segment::Field("b.c".into()),
                Segment::Index(2),
                Segment::Field("d".into())
            ])
        );
        assert_eq!(parse("a"), None);
        assert_eq!(parse(".a["), None);
        assert_eq!(parse(""), None);
    }
}
