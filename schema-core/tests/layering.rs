//! The layering rule of schema-core, checked on its sources: the crate's
//! top-level modules form layers, and a module only names modules of its
//! own layer or of the layers below it:
//!
//! `go` ← `model` ← `cel` ← `object` ← `crd` ← `rust`
//!
//! Every path into the crate is read (`crate::…`, `$crate::…`,
//! `schema_core::…`, and `super::…` chains that leave their layer), in
//! imports and in expressions, in test code too; comments and string
//! literals are not code and are skipped. A path to a module of a higher
//! layer, or to a root item the rule does not know, is reported with its
//! file and line. With a strict order and only downward paths, no two
//! layers can form a cycle.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::fmt;
use std::path::{Path, PathBuf};

/// The layers, lowest first.
const LAYERS: &[&str] = &["go", "model", "cel", "object", "crd", "docs", "rust"];

/// Names at the crate root that are not layers: re-exports and exported
/// macros, with the layer that defines them (`None`: another crate).
const ROOT_ITEMS: &[(&str, Option<&str>)] = &[
    ("goregex", None),
    ("wire", Some("model")),
    ("StructuralSchema", Some("rust")),
    ("sync_crds", Some("rust")),
    ("sync_docs", Some("rust")),
    ("__sync_files", Some("rust")),
    ("include_generated", Some("rust")),
    ("__impl_k8s_resource", Some("rust")),
];

/// A path that breaks the rule.
#[derive(Debug, PartialEq, Eq)]
struct Violation {
    /// The file, relative to `src/`.
    file: String,
    /// 1-based.
    line: usize,
    /// What is wrong.
    what: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "src/{}:{}: {}", self.file, self.line, self.what)
    }
}

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == layer)
}

/// The module path of a file below `src/` (`cel/library/mod.rs` → `cel::library`).
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.split('/').map(str::to_string).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// The code of a source file with comments and the contents of string
/// and character literals blanked out (lines and columns kept).
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |c: u8| if c == b'\n' { b'\n' } else { b' ' };
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    out.extend([b' ', b' ']);
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    out.extend([b' ', b' ']);
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == b'r'
            && matches!(b.get(i + 1), Some(b'"' | b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.resize(out.len() + (j + 1 - i), b' ');
            i = j + 1;
            while i < b.len() {
                if b[i] == b'"'
                    && b[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == b'#')
                        .count()
                        == hashes
                {
                    out.resize(out.len() + 1 + hashes, b' ');
                    i += 1 + hashes;
                    break;
                }
                out.push(blank(b[i]));
                i += 1;
            }
        } else if c == b'"' {
            out.push(b' ');
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' && i + 1 < b.len() {
                    out.push(b' ');
                    i += 1;
                }
                out.push(blank(b[i]));
                i += 1;
            }
            out.push(b' ');
            i += 1;
        } else if c == b'\'' {
            // A character literal ('x', '\n', '\u{7f}') or a lifetime ('a).
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..]
                    .iter()
                    .position(|&x| x == b'\'')
                    .map(|p| i + 2 + p)
            } else {
                let ch = std::str::from_utf8(&b[i + 1..])
                    .ok()
                    .or_else(|| src.get(i + 1..))
                    .and_then(|s| s.chars().next());
                ch.map(|c| i + 1 + c.len_utf8())
                    .filter(|&e| b.get(e) == Some(&b'\''))
            };
            match end {
                Some(e) => {
                    out.resize(out.len() + (e + 1 - i), b' ');
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    // Only ASCII was replaced, by ASCII; other bytes are copied whole.
    String::from_utf8_lossy(&out).into_owned()
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The layer a path names, given the module it starts from (empty: the
/// crate root) and the rest of the path.
enum Target<'a> {
    Layer(&'a str),
    External,
    Unknown(String),
}

fn target_of<'a>(first: &'a str) -> Target<'a> {
    if rank(first).is_some() {
        return Target::Layer(first);
    }
    match ROOT_ITEMS.iter().find(|(n, _)| *n == first) {
        Some((_, Some(layer))) => Target::Layer(layer),
        Some((_, None)) => Target::External,
        None => Target::Unknown(first.to_string()),
    }
}

/// Checks one file (path relative to `src/`).
fn check_file(file: &str, src: &str) -> Vec<Violation> {
    let module = module_of(file);
    let Some(own) = module.first().filter(|m| rank(m).is_some()).cloned() else {
        // The root (lib.rs) may name every layer.
        return Vec::new();
    };
    let code = code_only(src);
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    // Inline `mod name {` blocks deepen the module path until their brace closes.
    let mut depth = 0usize;
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => line += 1,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    inline.pop();
                }
            }
            _ => {}
        }
        let word_start = i == 0 || !is_ident_char(bytes[i - 1]);
        if !word_start || !c.is_ascii_alphabetic() && c != b'$' {
            i += 1;
            continue;
        }
        let rest = &code[i..];
        if let Some(after) = rest.strip_prefix("mod ") {
            let name = ident_at(after.trim_start());
            let tail = after.trim_start()[name.len()..].trim_start();
            if !name.is_empty() && tail.starts_with('{') {
                inline.push((depth, name.to_string()));
            }
        }
        let start = ["$crate::", "crate::", "schema_core::", "super::"]
            .iter()
            .find(|p| rest.starts_with(**p));
        let Some(prefix) = start else {
            i += 1;
            continue;
        };
        let mut path: Vec<String> = if *prefix == "super::" {
            let mut m = module.clone();
            m.extend(inline.iter().map(|(_, n)| n.clone()));
            m
        } else {
            Vec::new()
        };
        let mut j = i;
        if *prefix == "super::" {
            while code[j..].starts_with("super::") {
                path.pop();
                j += "super::".len();
            }
        } else {
            j += prefix.len();
        }
        let first = ident_at(&code[j..]);
        let top = match path.first() {
            Some(t) => t.clone(),
            None if first.is_empty() => {
                if code[j..].starts_with('{') {
                    out.push(Violation {
                        file: file.to_string(),
                        line,
                        what: "a grouped path from the crate root (`crate::{…}`) cannot be checked; name each module".into(),
                    });
                }
                i = j;
                continue;
            }
            None => first.to_string(),
        };
        match target_of(&top) {
            Target::Layer(layer) => {
                if rank(layer) > rank(&own) {
                    let text = code[i..].lines().next().unwrap_or("").trim();
                    out.push(Violation {
                        file: file.to_string(),
                        line,
                        what: format!("`{own}` names `{layer}`, a layer above it: {text}"),
                    });
                }
            }
            Target::External => {}
            Target::Unknown(name) => out.push(Violation {
                file: file.to_string(),
                line,
                what: format!(
                    "`{name}` at the crate root is no layer and no known root item (add it to the layering test's tables)"
                ),
            }),
        }
        i = j.max(i + 1);
    }
    out
}

/// Checks every `.rs` file of a source tree.
fn check_tree(files: &[(String, String)]) -> Vec<Violation> {
    files.iter().flat_map(|(f, s)| check_file(f, s)).collect()
}

fn read_tree(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let rel = p.strip_prefix(root).expect("below the root");
                let rel = rel.to_string_lossy().replace('\\', "/");
                let text =
                    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                out.push((rel, text));
            }
        }
    }
    out
}

#[test]
fn schema_core_only_imports_down_its_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tree = read_tree(&src);
    assert!(
        tree.len() > 50,
        "the sources were not found under {}",
        src.display()
    );
    for layer in LAYERS {
        assert!(
            tree.iter()
                .any(|(f, _)| f.starts_with(&format!("{layer}/"))),
            "no module tree src/{layer}/"
        );
    }
    let found = check_tree(&tree);
    let list: Vec<String> = found.iter().map(ToString::to_string).collect();
    assert!(
        found.is_empty(),
        "imports against the layers ({}):\n{}",
        list.len(),
        list.join("\n")
    );
}

fn tree(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(f, s)| (f.to_string(), s.to_string()))
        .collect()
}

#[test]
fn a_planted_upward_import_is_reported_with_file_and_line() {
    let t = tree(&[
        ("lib.rs", "pub mod model;\npub mod object;\n"),
        (
            "model/field.rs",
            "use crate::go::fmt::go_quote;\n\nuse crate::object::admission::Admission;\n",
        ),
        ("object/admission.rs", "use crate::model::field::Path;\n"),
    ]);
    let found = check_tree(&t);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].to_string(),
        "src/model/field.rs:3: `model` names `object`, a layer above it: crate::object::admission::Admission;"
    );
}

#[test]
fn every_form_of_path_is_read() {
    let t = tree(&[
        (
            "go/time.rs",
            "fn f() { let _ = crate::cel::eval::run(); }\n",
        ),
        (
            "cel/library/strings.rs",
            "use super::super::super::object::metadata;\n",
        ),
        (
            "model/wire/codec.rs",
            "macro_rules! m { () => { $crate::crd::check::check() } }\n",
        ),
        (
            "model/yaml_writer.rs",
            "fn f() { schema_core::rust::x(); }\n",
        ),
        (
            "go/url.rs",
            "#[cfg(test)]\nmod tests {\n    use crate::object::prune;\n}\n",
        ),
        ("model/depth.rs", "use crate::{go, object};\n"),
        ("cel/eval.rs", "use crate::nowhere::x;\n"),
    ]);
    let lines: Vec<String> = check_tree(&t)
        .iter()
        .map(|v| format!("{}:{}", v.file, v.line))
        .collect();
    assert_eq!(
        lines,
        [
            "go/time.rs:1",
            "cel/library/strings.rs:1",
            "model/wire/codec.rs:1",
            "model/yaml_writer.rs:1",
            "go/url.rs:3",
            "model/depth.rs:1",
            "cel/eval.rs:1"
        ]
    );
}

#[test]
fn downward_paths_comments_and_strings_pass() {
    let t = tree(&[
        (
            "object/admission.rs",
            "//! See [`crate::crd::check`].\n\
             use crate::cel::validator::CelValidator;\n\
             use crate::goregex::GoRegex;\n\
             use super::metadata;\n\
             /* crate::rust::x */\n\
             const S: &str = \"crate::crd::check\";\n\
             const R: &str = r#\"crate::rust\"#;\n\
             const C: char = '\"';\n\
             fn f<'a>(x: &'a str) -> &'a str { x } // crate::crd\n\
             mod tests {\n    use super::*;\n    use crate::object::prune::prune;\n}\n",
        ),
        (
            "crd/check.rs",
            "use crate::wire::JsonSchemaProps;\nuse crate::object::admission::Admission;\n",
        ),
        (
            "rust/mod.rs",
            "use crate::crd::check;\nuse crate::sync_crds;\n",
        ),
    ]);
    let found = check_tree(&t);
    assert!(found.is_empty(), "{found:?}");
}
