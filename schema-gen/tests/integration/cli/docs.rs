//! `schema-gen docs`: the Markdown documents and the HTML site.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{examples, run, text};

/// `docs` writes the Markdown documents and the HTML site of the example
/// under `--out`, with a one-line summary on stderr.
#[test]
fn docs_writes_markdown_and_an_html_site_for_the_example() {
    let crd = examples().join("widget-crd.yaml");
    let dir = std::env::temp_dir().join(format!("schema-gen-cli-docs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cases: [(&str, &[&str]); 2] = [
        ("markdown", &["README.md", "example.com.md"]),
        (
            "html",
            &[
                "index.html",
                "style.css",
                "site.js",
                "search-index.js",
                "example.com/v1/Widget.html",
            ],
        ),
    ];
    for (format, files) in cases {
        let out_dir = dir.join(format).join("nested");
        let out = run(
            &[
                "docs",
                crd.to_str().unwrap(),
                "--format",
                format,
                "--out",
                out_dir.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stderr),
            format!("wrote {} files to {}\n", files.len(), out_dir.display())
        );
        assert!(out.stdout.is_empty());
        for f in files {
            assert!(out_dir.join(f).is_file(), "{format}: no {f}");
        }
    }
    let md = std::fs::read_to_string(dir.join("markdown/nested/example.com.md")).unwrap();
    assert!(md.contains("### <a id=\"Widget.v1\"></a>Widget"), "{md}");
    assert!(
        md.contains("- <a id=\"Widget.v1.spec.size\"></a>**`size`** · `string` · **required**")
    );
    assert!(md.contains("    - *default*: `1`"));
    let readme = std::fs::read_to_string(dir.join("markdown/nested/README.md")).unwrap();
    assert!(readme.contains("[Widget](example.com.md#Widget.v1)"));
    let page = std::fs::read_to_string(dir.join("html/nested/example.com/v1/Widget.html")).unwrap();
    for needle in [
        "<details class=\"field\" id=\"spec\" data-path=\"spec\" open>",
        "<div class=\"field\" id=\"spec.port\" data-path=\"spec.port\">",
        "<span class=\"type\">int-or-string</span>",
        "<input type=\"search\" id=\"search\"",
        "<ul id=\"search-results\"></ul>",
        "<script src=\"../../search-index.js\"></script>",
    ] {
        assert!(page.contains(needle), "{needle}");
    }
    let index = std::fs::read_to_string(dir.join("html/nested/index.html")).unwrap();
    assert!(index.contains("<a href=\"example.com/v1/Widget.html\">Widget</a>"));
    let search = std::fs::read_to_string(dir.join("html/nested/search-index.js")).unwrap();
    assert!(search.contains("window.SCHEMA_GEN_SEARCH = [{"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `docs` reads directories, passes over documents that are not CRDs with
/// a warning, and reports what it cannot document at its line.
#[test]
fn docs_passes_over_other_documents_and_reports_errors_at_their_lines() {
    let dir = std::env::temp_dir().join(format!("schema-gen-cli-docs-err-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out_dir = dir.join("out");
    let out = run(
        &[
            "docs",
            examples().to_str().unwrap(),
            "--out",
            out_dir.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "widget.yaml:3:1: warning: passed over: a Widget, not a CustomResourceDefinition"
        ),
        "{stderr}"
    );
    assert!(out_dir.join("example.com.md").is_file());

    let out = run(
        &["docs", "-", "--out", out_dir.to_str().unwrap()],
        Some(b"apiVersion: v1\nkind: ConfigMap\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).ends_with("error: no CustomResourceDefinition in the input\n"));

    let bad_group = b"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: xs.example.com}\nspec: {group: example.com, names: {kind: X, plural: xs}, scope: Namespaced, versions: []}\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: ys.Bad_Group}\nspec: {group: Bad_Group, names: {kind: Y, plural: ys}, scope: Namespaced, versions: []}\n";
    let out = run(
        &[
            "docs",
            "-",
            "--format",
            "html",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        Some(bad_group),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with(
            "<stdin>:5:1: error: group \"Bad_Group\" cannot name a documentation page"
        ),
        "{}",
        text(&out.stderr)
    );

    let out = run(
        &["docs", "-", "--out", out_dir.to_str().unwrap()],
        Some(b"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  group: 5\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "<stdin>:4:3: error: spec.group: expected a string, found integer\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
