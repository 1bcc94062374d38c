//! Hostile inputs: each ends within seconds, with exit 1 or 2 and a
//! message (never a panic, a stack overflow or a hang).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{run, text};

use super::tmp;

// ---- hostile inputs: each ends within seconds, with exit 1 or 2 and a message.

fn assert_bounded(args: &[&str], stdin: Option<&[u8]>, expect_in_stderr_or_stdout: &str) {
    let out = run(args, stdin);
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        matches!(out.status.code(), Some(1) | Some(2)),
        "status {:?}: {all}",
        out.status
    );
    assert!(all.contains(expect_in_stderr_or_stdout), "{all}");
    assert!(!all.contains("panicked"), "{all}");
}

#[test]
fn hostile_alias_bomb() {
    let mut y = String::from("a: &a [\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\",\"x\"]\n");
    let mut prev = 'a';
    for c in 'b'..='z' {
        y.push_str(&format!(
            "{c}: &{c} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
        ));
        prev = c;
    }
    assert_bounded(&["check", "-"], Some(y.as_bytes()), "alias");
}

#[test]
fn hostile_deep_flow_nesting() {
    let mut y = "[".repeat(100_000);
    y.push_str(&"]".repeat(100_000));
    assert_bounded(&["check", "-"], Some(y.as_bytes()), "nesting");
}

#[test]
fn hostile_deep_schema() {
    let mut s = String::from("{\"type\":\"object\"");
    for _ in 0..1000 {
        s.push_str(",\"properties\":{\"a\":{\"type\":\"object\"");
    }
    s.push_str(&"}}".repeat(1000));
    s.push('}');
    let out = run(&["check", "-"], Some(s.as_bytes()));
    assert!(
        matches!(out.status.code(), Some(1) | Some(2)),
        "{:?}",
        out.status
    );
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(all.contains("nesting") || all.contains("limit"), "{all}");
}

#[test]
fn hostile_huge_document() {
    // 60 MB: a schema with a 60 MB description.
    let mut s = String::from("{\"type\":\"object\",\"description\":\"");
    s.push_str(&"x".repeat(60 * 1024 * 1024));
    s.push_str("\",\"properties\":{\"a\":{}}}");
    let out = run(&["check", "-"], Some(s.as_bytes()));
    assert!(
        matches!(out.status.code(), Some(1) | Some(2)),
        "{:?}",
        out.status
    );
}

#[test]
fn hostile_non_utf8() {
    assert_bounded(
        &["check", "-"],
        Some(b"type: object\ndescription: \xff\xfe\n"),
        "UTF-8",
    );
}

#[test]
fn hostile_empty_file() {
    let p = tmp("empty.yaml", b"");
    assert_bounded(
        &["check", p.to_str().unwrap()],
        None,
        "no YAML or JSON document",
    );
}

#[test]
fn hostile_regex() {
    assert_bounded(
        &["check", "-"],
        Some(
            b"type: object\nproperties:\n  a:\n    type: string\n    pattern: '(a{1000}){1000}'\n",
        ),
        "properties[a].pattern: Invalid value",
    );
}

/// A CRD whose schema nests `depth` objects (`spec.a.a.a...`), the
/// innermost with a description of `description_bytes` bytes of
/// markup.
fn deep_crd(depth: usize, description_bytes: usize) -> String {
    let mut node = format!(
        "{{\"type\":\"string\",\"description\":\"{}\"}}",
        "<b>*x*</b> ".repeat(description_bytes / 11)
    );
    for _ in 0..depth {
        node = format!(
            "{{\"type\":\"object\",\"description\":\"d\",\"properties\":{{\"a\":{node}}}}}"
        );
    }
    format!(
        r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{{"name":"deeps.example.com"}},"spec":{{"group":"example.com","names":{{"kind":"Deep","plural":"deeps"}},"scope":"Namespaced","versions":[{{"name":"v1","served":true,"storage":true,"schema":{{"openAPIV3Schema":{{"type":"object","properties":{{"spec":{node}}}}}}}}}]}}}}"#
    )
}

#[test]
fn hostile_deep_and_huge_schemas_explain_and_document_bounded() {
    // As deep as the wire model allows (128 levels), and a 1 MB description.
    let crd = deep_crd(120, 1 << 20);
    let recursive = run(
        &["explain", "-", "deeps", "--recursive"],
        Some(crd.as_bytes()),
    );
    assert_eq!(
        recursive.status.code(),
        Some(0),
        "{}",
        text(&recursive.stderr)
    );
    assert!(text(&recursive.stdout).lines().count() > 120);
    let path = format!("deeps.spec{}", ".a".repeat(120));
    let field = run(&["explain", "-", &path], Some(crd.as_bytes()));
    assert_eq!(field.status.code(), Some(0), "{}", text(&field.stderr));
    let out = text(&field.stdout);
    assert!(out.starts_with(
        "GROUP:      example.com\nKIND:       Deep\nVERSION:    v1\n\nFIELD: a <string>\n"
    ));
    // The whole description, wrapped, as kubectl prints it.
    assert!(out.len() > 1 << 20 && out.contains("<b>*x*</b>"));
    let dir = std::env::temp_dir().join(format!("schema-gen-cli-deep-docs-{}", std::process::id()));
    for format in ["markdown", "html"] {
        let out = run(
            &[
                "docs",
                "-",
                "--format",
                format,
                "--out",
                dir.join(format).to_str().unwrap(),
            ],
            Some(crd.as_bytes()),
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    // Bounded: the documents cut the depth and the description.
    let page = std::fs::read_to_string(dir.join("html/example.com/v1/Deep.html")).unwrap();
    assert!(page.len() < 4 << 20, "{} bytes", page.len());
    assert!(
        !page.contains("<b>*x*</b>"),
        "markup in a description is escaped"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
