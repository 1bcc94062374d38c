//! `schema-gen docs --format html`: the static API reference it writes for
//! CRDs, as a reader gets it. The site is written for the Argo Workflows
//! CRD of the corpus (the file defining `Workflow`; the corpus is
//! `SCHEMA_GEN_CORPUS_DIR`, else `../shared/corpus/crds` beside the
//! workspace), or for `examples/widget-crd.yaml` without the corpus, into
//! `target/docs-site/site/` (`CARGO_TARGET_DIR` is honoured). Then:
//!
//! - its layout: `index.html`, one page per kind and version at
//!   `<group>/<version>/<Kind>.html`, fields named by their paths, the
//!   search box and index on every page (no tool needed);
//! - in a real browser (`tests/browser/docs_site.mjs`: Debian's Chromium,
//!   headless, driven by playwright-core, pages opened from `file://`): no
//!   console error, failed request or request off the machine; a closed
//!   `<details>` opens from its summary; `page#field.path`, opened or
//!   followed, opens the field's ancestors and scrolls to it; the search
//!   lists fields site-wide and its first result leads to a visible field;
//!   no horizontal overflow at 375x800; full-page screenshots of the kind
//!   page and of `index.html` in `target/docs-site/`;
//! - every page through the Nu HTML checker (`vnu.jar`, run with `java`):
//!   no error.
//!
//! The browser is `SCHEMA_GEN_CHROMIUM`, playwright-core is found in
//! `SCHEMA_GEN_NODE_MODULES` (with `node` on `PATH`) and the checker is
//! `SCHEMA_GEN_VNU_JAR` (with `java` on `PATH`); `.ci/run` installs them
//! (pinned in `tests/browser/package-lock.json`). Without them the browser
//! and checker tests print a notice and pass, unless
//! `SCHEMA_GEN_REQUIRE_VALIDATOR=1`, which makes their absence a failure.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use common::{bin, examples, text};

// ---------------------------------------------------------------------------
// Running commands

/// How long one command may take (writing the site, the browser session,
/// the checker over every page): each takes well under a minute on the
/// Workflow CRD, so this is a hang, which would otherwise hold CI.
const DEADLINE: Duration = Duration::from_secs(300);

/// [`common::finish_within`] with this file's [`DEADLINE`].
fn finish(command: &mut Command) -> Result<Output, String> {
    common::finish_within(command, DEADLINE)
}

/// A line on stderr past the test harness's capture, so that a passing run
/// shows it too.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

// ---------------------------------------------------------------------------
// The site

/// The workspace root.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// `target/docs-site/` of the workspace, or of `CARGO_TARGET_DIR`: the
/// screenshots.
fn out_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| workspace().join("target"), |d| workspace().join(d));
    target.join("docs-site")
}

/// This run's folder below [`out_dir`], `run-<pid>`, which runs in the same
/// tree at the same time do not share; the folders of runs more than an
/// hour old are removed.
fn run_dir() -> PathBuf {
    let dir = out_dir().join(format!("run-{}", std::process::id()));
    if let Ok(entries) = std::fs::read_dir(out_dir()) {
        for entry in entries.flatten() {
            let p = entry.path();
            let stale = entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > Duration::from_secs(3600)));
            if p != dir && stale && entry.file_name().to_string_lossy().starts_with("run-") {
                let _ = std::fs::remove_dir_all(&p);
            }
        }
    }
    dir
}

/// The CRD the site is written for, and what it is (for messages): the
/// corpus file defining Argo Workflows' `Workflow`, else the bundled
/// example.
fn input() -> (PathBuf, String) {
    let corpus = std::env::var_os("SCHEMA_GEN_CORPUS_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(
            || workspace().join("../shared/corpus/crds"),
            |d| workspace().join(d),
        );
    let argo = corpus.join("argo-workflows");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&argo)
        .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    let workflow = files.into_iter().find(|f| {
        f.extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
            && std::fs::read_to_string(f).is_ok_and(|s| {
                s.lines().any(|l| {
                    let l = l.trim();
                    l == "kind: Workflow" || l == "\"kind\": \"Workflow\","
                })
            })
    });
    match workflow {
        Some(f) => {
            let f = f.canonicalize().unwrap_or(f);
            let what = format!("the Argo Workflows CRD of the corpus, {}", f.display());
            (f, what)
        }
        None => {
            let f = examples().join("widget-crd.yaml");
            let f = f.canonicalize().unwrap_or(f);
            let what = format!(
                "{} (no Argo Workflows CRD defining Workflow in {})",
                f.display(),
                argo.display()
            );
            (f, what)
        }
    }
}

/// A written site, and the kind page and field the checks look at.
struct Site {
    dir: PathBuf,
    /// The page of every served version, relative to `dir`
    /// (`argoproj.io/v1alpha1/Workflow.html`).
    pages: Vec<String>,
    /// The page the browser checks: the first served version's.
    page: String,
    /// A nested field of `page`, from the page itself.
    field: String,
}

/// The site, written once for all the tests.
fn site() -> &'static Site {
    static SITE: OnceLock<Site> = OnceLock::new();
    SITE.get_or_init(write_site)
}

fn write_site() -> Site {
    let (crd, what) = input();
    say(&format!("docs_site: writing the site for {what}"));

    // The group, kind and versions, from the CRD as `fmt` reads it.
    let out = finish(
        Command::new(bin())
            .args(["fmt", "--output", "json"])
            .arg(&crd),
    )
    .unwrap();
    assert!(out.status.success(), "fmt: {}", text(&out.stderr));
    let crd_json: Value = serde_json::from_slice(&out.stdout).expect("fmt --output json");
    let group = crd_json["spec"]["group"].as_str().expect("spec.group");
    let kind = crd_json["spec"]["names"]["kind"]
        .as_str()
        .expect("spec.names.kind");
    let pages: Vec<String> = crd_json["spec"]["versions"]
        .as_array()
        .expect("spec.versions")
        .iter()
        .filter(|v| v["served"].as_bool() != Some(false))
        .map(|v| format!("{group}/{}/{kind}.html", v["name"].as_str().unwrap()))
        .collect();

    let dir = run_dir().join("site");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("remove the previous site");
    }
    let started = Instant::now();
    let out = finish(
        Command::new(bin())
            .arg("docs")
            .arg(&crd)
            .args(["--format", "html", "--out"])
            .arg(&dir),
    )
    .unwrap();
    assert!(
        out.status.success(),
        "schema-gen docs {} --format html --out {}: exit {:?}\n{}{}",
        crd.display(),
        dir.display(),
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    );
    say(&format!(
        "docs_site: {} written in {:.1} s",
        dir.display(),
        started.elapsed().as_secs_f64()
    ));

    let page = pages[0].clone();
    let html = std::fs::read_to_string(dir.join(&page))
        .unwrap_or_else(|e| panic!("the kind page {page}: {e}"));
    let prefix = if kind == "Workflow" {
        "spec.templates"
    } else {
        "spec"
    };
    let field = nested_field(&html, prefix)
        .unwrap_or_else(|| panic!("{page}: no field under {prefix} (no data-path=\"{prefix}…\")"));
    say(&format!("docs_site: checking {page}, field {field}"));
    Site {
        dir,
        pages,
        page,
        field,
    }
}

/// The values of `attr="…"` in `html`, in document order, unescaped.
fn attribute_values(html: &str, attr: &str) -> Vec<String> {
    let needle = format!(" {attr}=\"");
    html.match_indices(&needle)
        .filter_map(|(at, _)| {
            let rest = &html[at + needle.len()..];
            rest.find('"').map(|end| unescape(&rest[..end]))
        })
        .collect()
}

/// The value of an HTML attribute with its character references resolved
/// (the named ones an escaper writes, and numeric ones).
fn unescape(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';') else { break };
        let name = &rest[1..end];
        let c = match name {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => name
                .strip_prefix("#x")
                .or_else(|| name.strip_prefix("#X"))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A field under `prefix`, as deep as four path segments when the page has
/// such (below the two levels open by default, so that reaching it takes
/// opening its ancestors): the first in document order.
fn nested_field(html: &str, prefix: &str) -> Option<String> {
    let under: Vec<String> = attribute_values(html, "data-path")
        .into_iter()
        .filter(|p| {
            p.strip_prefix(prefix)
                .is_some_and(|r| r.starts_with(['.', '[']))
        })
        .collect();
    let depth = |p: &str| p.split('.').count();
    let want = under.iter().map(|p| depth(p)).max()?.min(4);
    under.into_iter().find(|p| depth(p) == want)
}

/// Every `.html` file of the site, relative to it.
fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read the site") {
            let p = entry.expect("site entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "html") {
                found.push(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

// ---------------------------------------------------------------------------
// The tools

/// Whether a missing tool fails the test (`SCHEMA_GEN_REQUIRE_VALIDATOR=1`).
fn required() -> bool {
    std::env::var("SCHEMA_GEN_REQUIRE_VALIDATOR").is_ok_and(|v| v == "1")
}

/// Skips a check with a notice, or fails the test when the tools are
/// required.
fn unavailable<T>(why: &str) -> Option<T> {
    assert!(!required(), "{why} (SCHEMA_GEN_REQUIRE_VALIDATOR=1)");
    say(&format!("notice: {why}; skipped"));
    None
}

/// The existing path in the environment variable `var`, or why not.
fn path_from(var: &str, what: &str) -> Result<PathBuf, String> {
    let p = std::env::var_os(var)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| format!("{var} ({what}) is not set"))?;
    if p.exists() {
        Ok(p)
    } else {
        Err(format!("{var}={}: no such file ({what})", p.display()))
    }
}

/// That `program --version`-like `args` runs; or why not.
fn runs(program: &str, args: &[&str]) -> Result<(), String> {
    let out = finish(Command::new(program).args(args))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{program} {}` failed: {}",
            args.join(" "),
            text(&out.stderr).trim()
        ))
    }
}

/// The browser: Chromium and the node_modules holding playwright-core.
fn browser() -> Option<(PathBuf, PathBuf)> {
    let find = || -> Result<(PathBuf, PathBuf), String> {
        let chromium = path_from("SCHEMA_GEN_CHROMIUM", "the Chromium executable")?;
        let modules = path_from(
            "SCHEMA_GEN_NODE_MODULES",
            "a node_modules with playwright-core, as .ci/run installs into target/ci-node",
        )?;
        if !modules.join("playwright-core/package.json").is_file() {
            return Err(format!(
                "SCHEMA_GEN_NODE_MODULES={} has no playwright-core",
                modules.display()
            ));
        }
        runs("node", &["--version"])?;
        Ok((chromium, modules))
    };
    match find() {
        Ok(found) => Some(found),
        Err(why) => unavailable(&format!("{why}: no browser check of the docs site")),
    }
}

/// The Nu HTML checker's jar.
fn vnu() -> Option<PathBuf> {
    let find = || -> Result<PathBuf, String> {
        let jar = path_from("SCHEMA_GEN_VNU_JAR", "the Nu HTML checker, vnu.jar")?;
        runs("java", &["-version"])?;
        Ok(jar)
    };
    match find() {
        Ok(jar) => Some(jar),
        Err(why) => unavailable(&format!("{why}: no HTML check of the docs site")),
    }
}

// ---------------------------------------------------------------------------
// The tests

/// Where everything is, without a browser.
#[test]
fn the_site_has_an_index_and_a_page_per_kind_and_version() {
    let site = site();
    let index = std::fs::read_to_string(site.dir.join("index.html")).expect("index.html");
    let links = attribute_values(&index, "href");
    for page in &site.pages {
        assert!(
            links
                .iter()
                .any(|h| h.trim_start_matches("./").split('#').next() == Some(page.as_str())),
            "index.html has no link to {page}"
        );
        let html =
            std::fs::read_to_string(site.dir.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(
            attribute_values(&html, "id").iter().any(|i| i == "spec"),
            "{page}: no id=\"spec\""
        );
        assert!(
            attribute_values(&html, "data-path")
                .iter()
                .any(|i| i == "spec"),
            "{page}: no data-path=\"spec\""
        );
    }
    assert!(
        attribute_values(
            &std::fs::read_to_string(site.dir.join(&site.page)).unwrap(),
            "id"
        )
        .contains(&site.field)
    );
    // Every page: the search box, its results, and the search index loaded
    // from a file of the site.
    for rel in html_files(&site.dir) {
        let html = std::fs::read_to_string(site.dir.join(&rel)).unwrap();
        let ids = attribute_values(&html, "id");
        for id in ["search", "search-results"] {
            assert!(
                ids.iter().any(|i| i == id),
                "{}: no id=\"{id}\"",
                rel.display()
            );
        }
        let index_script = attribute_values(&html, "src")
            .into_iter()
            .find(|s| s == "search-index.js" || s.ends_with("/search-index.js"));
        let Some(src) = index_script else {
            panic!("{}: no <script src=\"…search-index.js\">", rel.display());
        };
        let file = site.dir.join(&rel).parent().unwrap().join(&src);
        assert!(
            file.is_file(),
            "{}: <script src=\"{src}\">: no file {}",
            rel.display(),
            file.display()
        );
    }
}

/// The site in Chromium: `tests/browser/docs_site.mjs`.
#[test]
fn the_site_works_in_a_browser() {
    let Some((chromium, modules)) = browser() else {
        return;
    };
    let site = site();
    let shots = out_dir();
    let kind = Path::new(&site.page).file_stem().unwrap().to_string_lossy();
    let screenshot = shots.join(format!("{kind}.png"));
    let index_screenshot = shots.join("index.png");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/docs_site.mjs");
    let started = Instant::now();
    let out = finish(
        Command::new("node")
            .arg(&script)
            .arg("--chromium")
            .arg(&chromium)
            .arg("--node-modules")
            .arg(&modules)
            .arg("--site")
            .arg(&site.dir)
            .args(["--page", &site.page])
            .args(["--field", &site.field])
            .args(["--search", &site.field])
            .arg("--screenshot")
            .arg(&screenshot)
            .arg("--index-screenshot")
            .arg(&index_screenshot),
    )
    .unwrap();
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    println!("{said}");
    // The failures, notes and summary (the passed checks are printed above,
    // seen with --nocapture).
    let failed: Vec<&str> = said.lines().filter(|l| !l.starts_with("ok: ")).collect();
    assert!(
        out.status.success(),
        "the docs site fails in Chromium (exit {:?}; site {}):\n{}",
        out.status.code(),
        site.dir.display(),
        failed.join("\n")
    );
    for shot in [&screenshot, &index_screenshot] {
        let png = std::fs::read(shot).unwrap_or_else(|e| panic!("{}: {e}", shot.display()));
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", shot.display());
    }
    say(&format!(
        "docs_site: browser checks passed in {:.1} s; screenshots {} and {}",
        started.elapsed().as_secs_f64(),
        screenshot.display(),
        index_screenshot.display()
    ));
}

/// `java -jar vnu.jar --errors-only --format text FILE...`: whether it
/// found no error, and what it said.
fn check_html(jar: &Path, dir: &Path, files: &[PathBuf]) -> (bool, String) {
    let out = finish(
        Command::new("java")
            .arg("-jar")
            .arg(jar)
            .args(["--errors-only", "--format", "text"])
            .args(files)
            .current_dir(dir),
    )
    .unwrap();
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    let errors = said.lines().any(|l| l.contains("error:"));
    (out.status.success() && !errors, said)
}

/// Every page through the Nu HTML checker, which is seen to be live: it
/// rejects a page with a duplicate `id`.
#[test]
fn every_page_is_valid_html() {
    let Some(jar) = vnu() else {
        return;
    };
    let site = site();
    let files = html_files(&site.dir);
    let started = Instant::now();
    let (valid, said) = check_html(&jar, &site.dir, &files);
    assert!(
        valid,
        "the Nu HTML checker finds errors in the docs site ({}):\n{said}",
        site.dir.display()
    );
    say(&format!(
        "docs_site: {} pages valid HTML (vnu) in {:.1} s",
        files.len(),
        started.elapsed().as_secs_f64()
    ));

    let live = site.dir.with_file_name("vnu-live");
    std::fs::create_dir_all(&live).unwrap();
    let index = std::fs::read_to_string(site.dir.join("index.html")).unwrap();
    let at = index.find("<body").expect("index.html: <body");
    let body_end = at + index[at..].find('>').unwrap() + 1;
    let broken = format!(
        "{}<p id=\"search\">twice</p>{}",
        &index[..body_end],
        &index[body_end..]
    );
    std::fs::write(live.join("index.html"), broken).unwrap();
    let (valid, said) = check_html(&jar, &live, &[PathBuf::from("index.html")]);
    assert!(
        !valid,
        "the Nu HTML checker accepts a duplicate id:\n{said}"
    );
    assert!(said.contains("Duplicate ID"), "{said}");
}
