//! `schema-gen openapi` output of every corpus CRD (and the bundled
//! example), v2 and v3, checked by a real OpenAPI validator:
//! `openapi-spec-validator` (PyPI), driven by `tests/openapi/validate.py`.
//!
//! The validator runs under the Python named by `SCHEMA_GEN_OPENAPI_PYTHON`
//! (`.ci/run` installs it into a virtual environment). Without it the test
//! prints a notice and passes, unless `SCHEMA_GEN_REQUIRE_VALIDATOR=1`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;
use tests::report;

fn python() -> Option<PathBuf> {
    let p = std::env::var_os("SCHEMA_GEN_OPENAPI_PYTHON").map(PathBuf::from);
    let required = std::env::var("SCHEMA_GEN_REQUIRE_VALIDATOR").is_ok_and(|v| v == "1");
    match p {
        Some(p) => Some(p),
        None if required => {
            panic!("SCHEMA_GEN_REQUIRE_VALIDATOR=1 but SCHEMA_GEN_OPENAPI_PYTHON is unset")
        }
        None => {
            report!("notice: SCHEMA_GEN_OPENAPI_PYTHON unset; OpenAPI validator test skipped");
            None
        }
    }
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi/validate.py")
}

/// Runs `schema-gen openapi` in process and returns its stdout.
fn publish(file: &Path, flag: &str) -> String {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = schema_gen::cli::run(
        [
            "schema-gen".into(),
            "openapi".into(),
            file.as_os_str().to_owned(),
            flag.into(),
        ],
        &mut std::io::empty(),
        &mut out,
        &mut err,
    );
    assert_eq!(
        code,
        0,
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&err)
    );
    String::from_utf8(out).unwrap()
}

fn validate(python: &Path, files: &[PathBuf]) -> (bool, String) {
    let out = Command::new(python)
        .arg(script())
        .args(files)
        .output()
        .expect("run the OpenAPI validator");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn openapi_valid() {
    let Some(python) = python() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("schema-gen-openapi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    // The validator is live: a document with a bad type is rejected.
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},
            "components":{"schemas":{"A":{"type":"bogus"}}}}"#,
    )
    .unwrap();
    let (ok, text) = validate(&python, &[bad]);
    assert!(!ok, "the validator accepted an invalid document:\n{text}");

    let mut inputs = vec![tests::examples_dir().join("widget-crd.yaml")];
    if let Some(corpus) = tests::corpus_dir() {
        inputs.extend(tests::files_below(&corpus, &["yaml", "yml"]));
    }
    let mut files = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        for flag in ["--v2", "--v3"] {
            let f = dir.join(format!("{i}{flag}.json"));
            std::fs::write(&f, publish(input, flag)).unwrap();
            files.push(f);
        }
    }
    let (ok, text) = validate(&python, &files);
    let _ = std::fs::remove_dir_all(&dir);
    print!("{text}");
    assert!(ok, "invalid OpenAPI documents (see above)");
    report!(
        "openapi validator: {} documents from {} inputs valid",
        files.len(),
        inputs.len()
    );
}
