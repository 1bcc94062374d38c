//! `schema-gen diff`: breaking changes, `--fail-on`, git revisions and
//! stored objects.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::{self, run, text};

use super::tmp;

fn diff_fixture(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/diff")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn diff_reports_each_breaking_change_and_fails_on_errors() {
    let (old, new) = (diff_fixture("old.yaml"), diff_fixture("new.yaml"));
    let out = run(&["diff", &old, &new], None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for line in [
        "error[field-removed] gadgets.example.com/v1 spec.color: ",
        "warning[default-added] gadgets.example.com/v1 spec.replicas: ",
        "warning[maximum-lowered] gadgets.example.com/v1 spec.replicas: maximum changes from 10 to 5",
        "warning[enum-values-removed] gadgets.example.com/v1 spec.size: enum values are removed (\"large\")",
        "error[version-removed-served] gadgets.example.com/v1beta1: ",
    ] {
        assert!(
            stdout.lines().any(|l| l.starts_with(line)),
            "{line}\n{stdout}"
        );
    }
    assert_eq!(text(&out.stderr), "2 errors, 3 warnings, 0 infos\n");
    // The same CRDs: nothing to say, exit 0.
    let same = run(&["diff", &old, &old], None);
    assert_eq!(same.status.code(), Some(0));
    assert_eq!(text(&same.stdout), "no changes\n");
    // -o json: each finding with its rule, severity, paths and ratcheting.
    let loosened = std::fs::read_to_string(&new)
        .unwrap()
        .replace("            required: [replicas]\n", "")
        .replace("              color:\n                type: string\n", "");
    let tightened = tmp("diff-tightened.yaml", loosened.as_bytes());
    let json = run(
        &["diff", &old, tightened.to_str().unwrap(), "-o", "json"],
        None,
    );
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let rules: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"maximum-lowered"), "{rules:?}");
    let f = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "maximum-lowered")
        .unwrap();
    assert_eq!(f["severity"], "warning");
    assert_eq!(f["ratcheted"], true);
    assert_eq!(f["old_path"], "spec.replicas");
    assert_eq!(f["new_path"], "spec.replicas");
}

#[test]
fn diff_fail_on_warning_and_git_revisions() {
    // A repository with the old CRD committed and the new one in the work tree.
    let dir = std::env::temp_dir().join(format!("schema-gen-cli-diff-git-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("crds")).unwrap();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    };
    git(&["init", "-q"]);
    std::fs::copy(diff_fixture("old.yaml"), dir.join("crds/gadgets.yaml")).unwrap();
    git(&["add", "."]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.com",
        "commit",
        "-qm",
        "old",
    ]);
    // Only a lowered maximum: a warning.
    let old = std::fs::read_to_string(diff_fixture("old.yaml")).unwrap();
    std::fs::write(
        dir.join("crds/gadgets.yaml"),
        old.replace("maximum: 10", "maximum: 8"),
    )
    .unwrap();
    let diff = |args: &[&str]| {
        std::process::Command::new(common::bin())
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("run schema-gen")
    };
    let out = diff(&["diff", "git:HEAD:crds", "crds"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout)
            .starts_with("warning[maximum-lowered] gadgets.example.com/v1 spec.replicas:")
    );
    let out = diff(&[
        "diff",
        "git:HEAD:crds/gadgets.yaml",
        "crds/gadgets.yaml",
        "--fail-on",
        "warning",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let out = diff(&["diff", "git:HEAD:nothing.yaml", "crds"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("error: git:HEAD:nothing.yaml: "),
        "{}",
        text(&out.stderr)
    );
    let out = diff(&["diff", "git:HEAD", "crds"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("expected git:REV:PATH"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_objects_show_what_a_rollout_does_to_stored_objects() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/diff");
    let out = std::process::Command::new(common::bin())
        .args(["diff", "old.yaml", "new.yaml", "--objects", "objects"])
        .current_dir(&fixtures)
        .output()
        .expect("run schema-gen");
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    for line in [
        "objects/gadgets.yaml:2:1: Gadget default/big: warning[object-invalid] gadgets.example.com/v1 spec.replicas: spec.replicas: Invalid value: 8: spec.replicas in body should be less than or equal to 5 (an update leaving the value alone passes: ratcheted)",
        "objects/gadgets.yaml:2:1: Gadget default/big: warning[object-invalid] gadgets.example.com/v1 spec.size: spec.size: Unsupported value: \"large\": supported values: \"small\", \"medium\" (an update leaving the value alone passes: ratcheted)",
        "objects/gadgets.yaml:2:1: Gadget default/big: error[object-fields-pruned] gadgets.example.com/v1 spec.color: the field is not in NEW's schema: the server drops it on the next write",
    ] {
        assert!(stdout.lines().any(|l| l == line), "{line}\n{stdout}");
    }
    // The small gadget survives the rollout unchanged.
    assert!(!stdout.contains("default/small"), "{stdout}");
    assert_eq!(text(&out.stderr), "3 errors, 5 warnings, 0 infos\n");
    let json = std::process::Command::new(common::bin())
        .args([
            "diff",
            "old.yaml",
            "new.yaml",
            "--objects",
            "objects",
            "-o",
            "json",
        ])
        .current_dir(&fixtures)
        .output()
        .expect("run schema-gen");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["objects"][0]["object"], "Gadget default/big");
    assert_eq!(v["objects"][0]["line"], 2);
    assert_eq!(v["objects"][0]["findings"].as_array().unwrap().len(), 3);
    assert_eq!(v["findings"].as_array().unwrap().len(), 5);
    assert_eq!(v["errors"], 3);
}
