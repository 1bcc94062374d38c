//! Field paths of the schema walk: an arena of (parent, segment) pairs,
//! one per visited node, rendered only when a finding names one (see the
//! module docs of [`diff`](super) for the syntax).

use crate::model::schema_step::SchemaStep;

/// A node of the arena.
pub(super) type PathId = usize;

/// The paths of one walk; [`Paths::ROOT`] is the resource's root.
pub(super) struct Paths<'a> {
    nodes: Vec<(PathId, Option<SchemaStep<&'a str>>)>,
}

impl<'a> Paths<'a> {
    /// The root.
    pub(super) const ROOT: PathId = 0;

    pub(super) fn new() -> Self {
        Paths {
            nodes: vec![(0, None)],
        }
    }

    /// The child `seg` of `parent`.
    pub(super) fn push(&mut self, parent: PathId, seg: SchemaStep<&'a str>) -> PathId {
        self.nodes.push((parent, Some(seg)));
        self.nodes.len() - 1
    }

    /// The path of `id`.
    pub(super) fn render(&self, id: PathId) -> String {
        self.render_with(id, None)
    }

    /// The path of `id`'s child `seg`, without adding it to the arena.
    pub(super) fn render_child(&self, id: PathId, seg: SchemaStep<&'_ str>) -> String {
        self.render_with(id, Some(seg))
    }

    fn render_with(&self, id: PathId, last: Option<SchemaStep<&'_ str>>) -> String {
        let mut segs: Vec<SchemaStep<&'_ str>> = Vec::new();
        if let Some(l) = last {
            segs.push(l);
        }
        let mut cur = id;
        // Each step goes to a strictly smaller index: parents are pushed
        // before their children.
        while let Some(&(parent, Some(seg))) = self.nodes.get(cur) {
            segs.push(seg);
            if parent >= cur {
                break;
            }
            cur = parent;
        }
        render_segments(segs.iter().rev())
    }
}

/// The syntax of the module docs.
pub(super) fn render_segments<'s, 'a: 's>(
    segs: impl Iterator<Item = &'s SchemaStep<&'a str>>,
) -> String {
    let mut out = String::new();
    for seg in segs {
        match seg {
            SchemaStep::Property(name) if is_plain(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            SchemaStep::Property(name) => {
                out.push('[');
                push_quoted(&mut out, name);
                out.push(']');
            }
            SchemaStep::Items => out.push_str("[*]"),
            SchemaStep::AdditionalProperties => out.push_str("{*}"),
        }
    }
    if out.is_empty() {
        out.push('.');
    }
    out
}

/// A name written as is: ASCII letters, digits, `_`, `-`, `$`, `@`.
fn is_plain(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'$' | b'@'))
}

/// `name` as a JSON string.
fn push_quoted(out: &mut String, name: &str) {
    out.push('"');
    for c in name.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A selectable field's or scale path's JSON path (`.spec.replicas`) in
/// the syntax of the module docs (`spec.replicas`).
pub(super) fn from_json_path(json_path: &str) -> String {
    let p = json_path.strip_prefix('.').unwrap_or(json_path);
    if p.is_empty() {
        ".".to_string()
    } else {
        super::text::one_line(p)
    }
}
