//! Conformance: runs every case under the shared conformance folder
//! (`../shared/conformance`, or `SCHEMA_GEN_CONFORMANCE_DIR`) and under the
//! repository's own (`tests/conformance`, always present), and prints one
//! line per suite/kind:
//! `conformance k8s/structural: passed=N failed=M skipped=K`.
//! Kinds the toolchain does not implement yet count as skipped, as do cases
//! that need CEL. Any failure fails the test, except the cases listed in
//! [`DIVERGENCES`]: expectations shown wrong against the upstream code. They
//! still run and count as failed; one that starts passing fails the test
//! (the list must then shrink).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::Path;
use tests::report;

use serde_json::Value;

use schema_core::KubeVersion;
use schema_core::cel::functions::CompatibilityVersion;
use schema_core::cel::validator::{CelOptions, CelValidator, RUNTIME_CEL_COST_BUDGET};
use schema_core::crd::publish::{
    BuildOptions, OpenApiVersion, build_models, to_kube_openapi, to_structural_openapi_v2,
};
use schema_core::crd::validation::schema::{
    SchemaOptions, validate_custom_resource_definition_validation,
};
use schema_core::crd::validation::structural::{
    StructuralOptions, validate_structural, validate_structural_completeness,
};
use schema_core::model::field::{FieldError, Path as FieldPath};
use schema_core::model::structural::Structural;
use schema_core::model::wire::codec::{DecodeCx, Wire};
use schema_core::model::wire::{
    CustomResourceDefinition, CustomResourceValidation, JsonSchemaProps,
};
use schema_core::object::admission::Admission;
use schema_core::object::default::{default, prune_non_nullable_nulls_without_defaults};
use schema_core::object::list_types::validate_list_sets_and_maps;
use schema_core::object::prune::prune;
use schema_core::object::value_validation::{FormatCompat, SchemaValidator};
use schema_gen::lint::{Rule, RuleSet, Severity, lint};

enum Outcome {
    Pass,
    /// Passed on the case's `expectSubstring` only: the full strings,
    /// derived from upstream's formats, differ outside it.
    PassOnSubstring,
    Fail(String),
    Skip,
}

#[derive(Default)]
struct Tally {
    passed: usize,
    /// Of `passed`, those that passed on their substring only.
    on_substring: usize,
    failed: usize,
    skipped: usize,
}

/// Cases whose expectation contradicts the upstream code they cite, with the
/// reason. They are run and reported as failed, never skipped or patched.
const DIVERGENCES: &[(&str, &str)] = &[];

/// The suites of the shared folder.
const SHARED_SUITES: &[&str] = &["k8s", "k8s-cel", "ytt", "schemalint"];

/// The suites of the repository's own folder.
const REPO_SUITES: &[&str] = &["k8s-ratcheting"];

#[test]
fn conformance() {
    let shared = tests::conformance_dir();
    let repo = tests::repo_conformance_dir();
    let suites = shared
        .iter()
        .flat_map(|dir| SHARED_SUITES.iter().map(move |s| (*s, dir.join(s))))
        .chain(REPO_SUITES.iter().map(|s| (*s, repo.join(s))));
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut diverging = Vec::new();
    for (suite, suite_dir) in suites {
        if !suite_dir.is_dir() {
            assert!(
                !REPO_SUITES.contains(&suite),
                "the repository's suite {} is missing",
                suite_dir.display()
            );
            continue;
        }
        for file in tests::files_below(&suite_dir, &["json"]) {
            let Some(cases) = read_cases(&file) else {
                failures.push(format!("{}: cannot read cases", file.display()));
                continue;
            };
            for case in cases {
                let kind = case_kind(suite, &case);
                let id = case["id"].as_str().unwrap_or("?").to_string();
                let outcome = run_case(suite, &kind, &case);
                let t = tallies.entry(format!("{suite}/{kind}")).or_default();
                match outcome {
                    Outcome::Pass => t.passed += 1,
                    Outcome::PassOnSubstring => {
                        t.passed += 1;
                        t.on_substring += 1;
                    }
                    Outcome::Skip => t.skipped += 1,
                    Outcome::Fail(diff) => {
                        t.failed += 1;
                        if let Some((_, why)) = DIVERGENCES.iter().find(|(d, _)| *d == id) {
                            diverging.push(id.clone());
                            report!("FAIL (known divergence) {suite}/{kind} {id}: {why}\n{diff}");
                        } else {
                            failures.push(format!("FAIL {suite}/{kind} {id}\n{diff}"));
                        }
                    }
                }
            }
        }
    }
    for (id, _) in DIVERGENCES {
        if !diverging.iter().any(|d| d == id) {
            failures.push(format!(
                "STALE known divergence {id}: it no longer fails; remove it from DIVERGENCES"
            ));
        }
    }
    for f in &failures {
        report!("{f}\n");
    }
    let (mut p, mut fl, mut s) = (0, 0, 0);
    for (k, t) in &tallies {
        report!(
            "conformance {k}: passed={} failed={} skipped={}",
            t.passed,
            t.failed,
            t.skipped
        );
        if t.on_substring > 0 {
            report!(
                "conformance {k}: passed exactly={} passed on the substring only={}",
                t.passed - t.on_substring,
                t.on_substring
            );
        }
        p += t.passed;
        fl += t.failed;
        s += t.skipped;
    }
    report!("conformance total: passed={p} failed={fl} skipped={s}");
    if !failures.is_empty() {
        panic!("{} conformance failures", failures.len());
    }
}

fn read_cases(file: &Path) -> Option<Vec<Value>> {
    let text = std::fs::read_to_string(file).ok()?;
    match serde_json::from_str::<Value>(&text).ok()? {
        Value::Array(a) => Some(a),
        obj @ Value::Object(_) => Some(vec![obj]),
        _ => None,
    }
}

/// The kind of a case: its `kind` field (k8s), else a group derived from
/// the file's id (`ytt-inspect-…` → `inspect`), else the suite name.
fn case_kind(suite: &str, case: &Value) -> String {
    if let Some(k) = case["kind"].as_str() {
        return k.to_string();
    }
    match suite {
        "ytt" => case["expect"]["kind"].as_str().unwrap_or("ytt").to_string(),
        _ => "lint".to_string(),
    }
}

fn run_case(suite: &str, kind: &str, case: &Value) -> Outcome {
    let needs_cel = case["requires"]
        .as_array()
        .is_some_and(|r| r.iter().any(|x| x == "cel"));
    // CEL is supported for value validation and updates (evaluation) and
    // for CRD validation (compilation, cost estimates).
    let k8s = matches!(suite, "k8s" | "k8s-cel" | "k8s-ratcheting");
    let cel_tables = suite == "k8s-cel";
    if needs_cel && !(k8s && matches!(kind, "validate_value" | "validate_crd" | "validate_update"))
    {
        return Outcome::Skip;
    }
    // `k8s-cel` is the API server's CEL tables, `k8s-ratcheting` its
    // ratcheting tests, in the `k8s` format.
    let suite = if k8s { "k8s" } else { suite };
    match (suite, kind) {
        ("k8s", "structural") => structural_case(case),
        ("k8s", "validate_crd") => validate_crd_case(case),
        ("k8s", "validate_value") => validate_value_case(case, cel_tables),
        ("k8s", "validate_update") => validate_update_case(case),
        ("k8s", "prune") => prune_case(case),
        ("k8s", "default") => default_case(case),
        ("k8s", "publish_v2" | "publish_v3") => publish_case(case),
        ("schemalint", "lint") => lint_case(case),
        ("ytt", "openapi") => ytt_openapi_case(case),
        ("ytt", "error") => ytt_error_case(case),
        ("ytt", "rendered") => ytt_rendered_case(case),
        _ => Outcome::Skip,
    }
}

fn decode_schema(v: &Value) -> Result<JsonSchemaProps, String> {
    let mut cx = DecodeCx::default();
    JsonSchemaProps::decode(v, &FieldPath::root(), &mut cx)
        .ok_or_else(|| format!("schema does not decode: {:?}", cx.errors))
}

fn structural_case(case: &Value) -> Outcome {
    let input = &case["input"];
    let expect = &case["expect"];
    let props = match decode_schema(&input["schema"]) {
        Ok(p) => p,
        Err(e) => return Outcome::Fail(e),
    };
    let structural = Structural::from_props(&props);
    if let Some(want) = expect["newStructuralError"].as_str() {
        return match structural {
            Err(e) if e.0 == want => Outcome::Pass,
            Err(e) => Outcome::Fail(format!(
                "  want NewStructural error: {want}\n  got:  {}",
                e.0
            )),
            Ok(_) => Outcome::Fail(format!(
                "  want NewStructural error: {want}\n  got:  success"
            )),
        };
    }
    let s = match structural {
        Ok(s) => s,
        Err(e) => return Outcome::Fail(format!("  unexpected NewStructural error: {}", e.0)),
    };
    let got: Vec<String> = match input["operation"].as_str() {
        Some("validateStructuralCompleteness") => {
            let o = &input["options"];
            let opts = StructuralOptions {
                allow_nested_additional_properties: o["AllowNestedAdditionalProperties"] == true,
                allow_validation_properties_with_additional_properties: o["AllowValidationPropertiesWithAdditionalProperties"]
                    == true,
                allow_nested_x_validations: false,
            };
            validate_structural_completeness(&s, &FieldPath::root(), opts)
                .iter()
                .map(ToString::to_string)
                .collect()
        }
        _ => validate_structural(&FieldPath::root(), &s, StructuralOptions::default())
            .iter()
            .map(ToString::to_string)
            .collect(),
    };
    let want: Vec<String> = expect["errors"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    if got == want {
        Outcome::Pass
    } else {
        Outcome::Fail(list_diff(&want, &got))
    }
}

fn list_diff(want: &[String], got: &[String]) -> String {
    let mut s = String::new();
    for w in want {
        if !got.contains(w) {
            s.push_str(&format!("  - {w}\n"));
        }
    }
    for g in got {
        if !want.contains(g) {
            s.push_str(&format!("  + {g}\n"));
        }
    }
    if s.is_empty() {
        s = format!("  order differs:\n    want {want:?}\n    got  {got:?}\n");
    }
    s
}

fn validate_crd_case(case: &Value) -> Outcome {
    let input = &case["input"];
    let expect = &case["expect"];
    let o = &input["options"];
    let opts = SchemaOptions {
        allow_defaults: o["allowDefaults"] == true,
        require_structural_schema: o["requireStructuralSchema"] == true,
        require_valid_property_type: o["requireValidPropertyType"] == true,
        require_pruned_defaults: o["requirePrunedDefaults"] == true,
        require_atomic_set_type: o["requireAtomicSetType"] == true,
        require_map_list_keys_map_set_validation: o["requireMapListKeysMapSetValidation"] == true,
        preserve_unknown_fields: false,
        cel_compatibility_version: match o["celCompatibilityVersion"].as_str() {
            Some(v) => match CompatibilityVersion::parse(v) {
                Some(v) => v,
                None => return Outcome::Fail(format!("bad celCompatibilityVersion {v}")),
            },
            None => CompatibilityVersion::CURRENT,
        },
        cel_stored_version: CompatibilityVersion::stored_expressions(KubeVersion::default()),
    };
    let validation = if input["schema"].is_null() {
        None
    } else {
        match decode_schema(&input["schema"]) {
            Ok(p) => Some(CustomResourceValidation {
                open_api_v3_schema: Some(p),
                ..Default::default()
            }),
            Err(e) => return Outcome::Fail(e),
        }
    };
    let path = FieldPath::parse(input["fieldPath"].as_str().unwrap_or(""));
    let errs = validate_custom_resource_definition_validation(
        validation.as_ref(),
        input["statusEnabled"] == true,
        &opts,
        &path,
    );
    match_type_and_field(expect, &errs)
}

/// `multiset-type-and-field`: every produced error matches exactly one
/// expected `{type, field}` and nothing is left over.
fn match_type_and_field(expect: &Value, errs: &[FieldError]) -> Outcome {
    let mut want: Vec<(String, String)> = expect["fieldErrors"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    (
                        e["type"].as_str().unwrap_or_default().to_string(),
                        e["field"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let mut extra = Vec::new();
    for e in errs {
        let key = (e.error_type.name().to_string(), e.field.to_string());
        if let Some(i) = want.iter().position(|w| *w == key) {
            want.remove(i);
        } else {
            extra.push(e.to_string());
        }
    }
    if let Some(sub) = expect["contains"].as_str() {
        if !errs.iter().any(|e| e.to_string().contains(sub)) {
            return Outcome::Fail(format!("  no error contains {sub:?}"));
        }
    }
    if want.is_empty() && extra.is_empty() {
        return Outcome::Pass;
    }
    let mut s = String::new();
    for (t, f) in &want {
        s.push_str(&format!("  - {t} {f}\n"));
    }
    for e in &extra {
        s.push_str(&format!("  + {e}\n"));
    }
    Outcome::Fail(s)
}

/// A value validation case; `cel_tables` for the suite of upstream's CEL
/// test tables, which build the CEL validator as `validator(...)`.
fn validate_value_case(case: &Value, cel_tables: bool) -> Outcome {
    let input = &case["input"];
    let expect = &case["expect"];
    if input["operation"] == "ValidateListSetsAndMaps" {
        let schema = match structural_input(&input["schema"]) {
            Ok(s) => s,
            Err(e) => return Outcome::Fail(e),
        };
        let root = input["rootPath"]
            .as_str()
            .map(FieldPath::parse)
            .unwrap_or_default();
        let errs = validate_list_sets_and_maps(&root, schema.as_ref(), &input["object"]);
        return match_type_and_field(expect, &errs);
    }
    if input["operation"] != "ValidateCustomResource" {
        return Outcome::Skip;
    }
    let props = match decode_schema(&input["schema"]) {
        Ok(p) => p,
        Err(e) => return Outcome::Fail(e),
    };
    let compat = input["compatibilityVersion"]
        .as_str()
        .and_then(FormatCompat::parse)
        .unwrap_or_default();
    let root = input["rootPath"]
        .as_str()
        .map(FieldPath::parse)
        .unwrap_or_default();
    let validator = SchemaValidator::with_compat(&props, compat);
    let mut got: std::collections::BTreeSet<String> = validator
        .validate(&input["object"], &root)
        .iter()
        .map(ToString::to_string)
        .collect();
    // The CEL validator, as upstream's tests run it: not a resource root,
    // no ratcheting, the full runtime budget; the tables of CEL tests
    // (`k8s-cel`) build it as the package-internal `validator(...)`, rules
    // under `allOf` included even when they are the only ones.
    let structural = match Structural::from_props(&props) {
        Ok(s) => s,
        Err(e) => return Outcome::Fail(format!("  NewStructural: {}", e.0)),
    };
    let cel = if cel_tables {
        CelValidator::for_node(&structural, false)
    } else {
        CelValidator::new(&structural, false)
    };
    let out = cel.validate(
        &root,
        &input["object"],
        input.get("oldObject"),
        CelOptions {
            ratcheting: false,
            ..CelOptions::default()
        },
        RUNTIME_CEL_COST_BUDGET,
    );
    got.extend(out.errors.iter().map(ToString::to_string));
    if expect["match"] != "set" {
        return Outcome::Fail(format!("  unsupported match {}", expect["match"]));
    }
    let want: std::collections::BTreeSet<String> = expect["errors"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|e| e.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    if got == want {
        return Outcome::Pass;
    }
    if let Some(sub) = case["expectSubstring"].as_str()
        && passes_on_substring(sub, &want, &got)
    {
        return Outcome::PassOnSubstring;
    }
    let want: Vec<String> = want.into_iter().collect();
    let got: Vec<String> = got.into_iter().collect();
    Outcome::Fail(list_diff(&want, &got))
}

/// An update as the API server validates it against a bare schema
/// ([`Admission::update`]): both objects decoded, the value validations
/// with ratcheting, list sets and maps, then the rules, with `oldSelf` and
/// ratcheting. `expect.warnings` holds the errors ratcheting dropped. With
/// `rootPath`, the paths are read below it, as upstream's tests pass it.
fn validate_update_case(case: &Value) -> Outcome {
    let input = &case["input"];
    let expect = &case["expect"];
    if expect["match"] != "set" {
        return Outcome::Fail(format!("  unsupported match {}", expect["match"]));
    }
    let props = match decode_schema(&input["schema"]) {
        Ok(p) => p,
        Err(e) => return Outcome::Fail(e),
    };
    let admission = match Admission::for_schema(&props, &schema_core::Options::default()) {
        Ok(a) => a,
        Err(e) => return Outcome::Fail(format!("  {e}")),
    };
    let out = admission.update(input["object"].clone(), input["old"].clone());
    if let Some(why) = out.rejected {
        return Outcome::Fail(format!("  rejected: {why}"));
    }
    let root = input["rootPath"].as_str().unwrap_or("");
    let errors = out.errors.iter().map(|e| below_root(root, &e.to_string()));
    let ratcheted: Vec<String> = out.ratcheted.iter().map(ToString::to_string).collect();
    let warnings = ratcheted.iter().map(|w| below_root(root, w));
    let mut diff = set_diff("errors", &expect["errors"], errors);
    if !expect["warnings"].is_null() {
        diff.push_str(&set_diff("warnings", &expect["warnings"], warnings));
    }
    if diff.is_empty() {
        Outcome::Pass
    } else {
        Outcome::Fail(diff)
    }
}

/// A `field.Error` string (`path: detail`) with its path read below
/// `root`, as `root.Child(...)` prints it; the nil path `<nil>` becomes
/// `root` itself.
fn below_root(root: &str, error: &str) -> String {
    if root.is_empty() {
        return error.to_string();
    }
    // The path ends at the first `: ` outside brackets (map keys).
    let mut depth = 0usize;
    let mut end = error.len();
    for (i, c) in error.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            ':' if depth == 0 && error[i..].starts_with(": ") => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let (path, rest) = error.split_at(end);
    match path {
        "<nil>" => format!("{root}{rest}"),
        p if p.starts_with('[') => format!("{root}{p}{rest}"),
        p => format!("{root}.{p}{rest}"),
    }
}

/// The `match: "set"` comparison of `got` with the strings of `want`,
/// labelled `what`; empty when equal.
fn set_diff(what: &str, want: &Value, got: impl Iterator<Item = String>) -> String {
    let want: std::collections::BTreeSet<String> = want
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|e| e.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let got: std::collections::BTreeSet<String> = got.collect();
    if want == got {
        return String::new();
    }
    let want: Vec<String> = want.into_iter().collect();
    let got: Vec<String> = got.into_iter().collect();
    format!("  {what}:\n{}", list_diff(&want, &got))
}

/// `expectSubstring`: upstream asserts only that its errors contain `sub`.
/// The errors without it must be exactly the expected ones, and there must
/// be as many with it as expected.
fn passes_on_substring(
    sub: &str,
    want: &std::collections::BTreeSet<String>,
    got: &std::collections::BTreeSet<String>,
) -> bool {
    let without = |s: &std::collections::BTreeSet<String>| -> Vec<String> {
        s.iter().filter(|e| !e.contains(sub)).cloned().collect()
    };
    let with =
        |s: &std::collections::BTreeSet<String>| s.iter().filter(|e| e.contains(sub)).count();
    without(want) == without(got) && with(want) == with(got) && with(want) > 0
}

/// Pruning and defaulting inputs are structurals written as schemas, often
/// without types: converted without ValidateStructural, as upstream builds
/// them. `null` is a nil structural.
fn structural_input(v: &Value) -> Result<Option<Structural>, String> {
    if v.is_null() {
        return Ok(None);
    }
    let props = decode_schema(v)?;
    Structural::from_props(&props)
        .map(Some)
        .map_err(|e| format!("  NewStructural: {}", e.0))
}

fn default_case(case: &Value) -> Outcome {
    let input = &case["input"];
    let schema = match structural_input(&input["schema"]) {
        Ok(s) => s,
        Err(e) => return Outcome::Fail(e),
    };
    let mut obj = input["object"].clone();
    match input["operation"].as_str() {
        Some("Default") => default(&mut obj, schema.as_ref()),
        Some("PruneNonNullableNullsWithoutDefaults") => {
            prune_non_nullable_nulls_without_defaults(&mut obj, schema.as_ref());
        }
        other => return Outcome::Fail(format!("  unknown operation {other:?}")),
    }
    if obj == case["expect"]["object"] {
        Outcome::Pass
    } else {
        Outcome::Fail(format!("  want {}\n  got  {obj}", case["expect"]["object"]))
    }
}

fn prune_case(case: &Value) -> Outcome {
    let input = &case["input"];
    let expect = &case["expect"];
    let schema = match structural_input(&input["schema"]) {
        Ok(s) => s,
        Err(e) => return Outcome::Fail(e),
    };
    let is_root = input["isResourceRoot"] == true;
    let mut obj = input["object"].clone();
    let pruned = prune(&mut obj, schema.as_ref(), is_root, true);
    // Upstream reruns every case with tracking off: same object, no paths.
    let mut untracked = input["object"].clone();
    let none = prune(&mut untracked, schema.as_ref(), is_root, false);
    let want_paths: Vec<String> = expect["pruned"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|e| e.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let mut diff = String::new();
    if obj != expect["object"] {
        diff.push_str(&format!(
            "  object: want {}\n          got  {}\n",
            expect["object"], obj
        ));
    }
    if pruned != want_paths {
        diff.push_str(&list_diff(&want_paths, &pruned));
    }
    if untracked != obj || !none.is_empty() {
        diff.push_str("  untracked run differs\n");
    }
    if diff.is_empty() {
        Outcome::Pass
    } else {
        Outcome::Fail(diff)
    }
}

fn publish_case(case: &Value) -> Outcome {
    let input = &case["input"];
    let expect = &case["expect"];
    match input["operation"].as_str() {
        Some(op @ ("ToStructuralOpenAPIV2" | "UnfoldToKubeOpenAPI")) => {
            let props = match decode_schema(&input["schema"]) {
                Ok(p) => p,
                Err(e) => return Outcome::Fail(e),
            };
            let s = match Structural::from_props(&props) {
                Ok(s) => s,
                Err(e) => {
                    return match expect["newStructuralError"].as_str() {
                        Some(want) if want == e.0 => Outcome::Pass,
                        _ => Outcome::Fail(format!("  unexpected NewStructural error: {}", e.0)),
                    };
                }
            };
            if let Some(want) = expect["newStructuralError"].as_str() {
                return Outcome::Fail(format!("  want NewStructural error {want:?}, got success"));
            }
            let out = if op == "ToStructuralOpenAPIV2" {
                to_kube_openapi(&to_structural_openapi_v2(&s))
            } else {
                to_kube_openapi(&s.unfold())
            };
            json_outcome(&expect["schema"], &out)
        }
        Some(op @ ("BuildOpenAPIV2" | "BuildOpenAPIV3")) => {
            let c = &input["crd"];
            let version = c["version"].as_str().unwrap_or("v1");
            let mut v = serde_json::json!({"name": version, "served": true, "storage": true});
            if !input["schema"].is_null() {
                v["schema"] = serde_json::json!({"openAPIV3Schema": input["schema"]});
            }
            if !input["selectableFields"].is_null() {
                v["selectableFields"] = input["selectableFields"].clone();
            }
            let crd_json = serde_json::json!({
                "apiVersion": "apiextensions.k8s.io/v1",
                "kind": "CustomResourceDefinition",
                "metadata": {"name": format!("{}.{}", c["plural"].as_str().unwrap_or(""), c["group"].as_str().unwrap_or(""))},
                "spec": {
                    "group": c["group"],
                    "names": {"kind": c["kind"], "listKind": c["listKind"], "plural": c["plural"], "singular": c["singular"]},
                    "scope": c["scope"],
                    "versions": [v],
                },
            });
            let mut cx = DecodeCx::default();
            let Some(crd) =
                CustomResourceDefinition::decode(&crd_json, &FieldPath::root(), &mut cx)
            else {
                return Outcome::Fail(format!("  CRD does not decode: {:?}", cx.errors));
            };
            let target = if op == "BuildOpenAPIV2" {
                OpenApiVersion::V2
            } else {
                OpenApiVersion::V3
            };
            let opts = BuildOptions {
                include_selectable_fields: input["includeSelectableFields"] == true,
                ..BuildOptions::default()
            };
            let models = match build_models(&crd, version, target, &opts) {
                Ok(m) => m,
                Err(e) => return Outcome::Fail(format!("  build failed: {e}")),
            };
            let mut got = models.schema;
            for p in expect["ignoreDescriptionsOf"]
                .as_array()
                .into_iter()
                .flatten()
            {
                let mut node = Some(&mut got);
                for seg in p.as_str().unwrap_or("").split('.') {
                    node = node.and_then(|n| n.get_mut(seg));
                }
                if let Some(Value::Object(m)) = node {
                    m.remove("description");
                }
            }
            json_outcome(&expect["definition"], &got)
        }
        other => Outcome::Fail(format!("  unknown operation {other:?}")),
    }
}

/// Structural JSON equality with the int/float rule of the cases: numbers
/// are equal when their values are.
fn json_outcome(want: &Value, got: &Value) -> Outcome {
    if json_eq(want, got) {
        Outcome::Pass
    } else {
        Outcome::Fail(format!("  want {want}\n  got  {got}"))
    }
}

fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// A schemalint case: the case's rules (or the whole `cluster-app` rule
/// set) over its input, with the rule set's excluded locations when the
/// case applies them. Compared: the asserted counts (`expect_count`, or
/// `expect_counts` of errors and recommendations), the rule ids (`expect`,
/// plus `expect_recommendations`), and the findings as a multiset of
/// (rule, severity, message, location) against `violations`.
fn lint_case(case: &Value) -> Outcome {
    let rules: Vec<Rule> = match &case["rules"] {
        Value::String(s) if s == "all" => RuleSet::ClusterApp.rules(),
        Value::Array(ids) => {
            let mut out = Vec::new();
            for id in ids {
                match id.as_str().and_then(Rule::from_id) {
                    Some(r) => out.push(r),
                    None => return Outcome::Fail(format!("  unknown rule {id}")),
                }
            }
            out
        }
        other => return Outcome::Fail(format!("  unsupported rules {other}")),
    };
    let excluded: &[&str] = if case["apply_exclude_locations"] == true {
        RuleSet::ClusterApp.excluded_locations()
    } else {
        &[]
    };
    let root = case["input_filename"]
        .as_str()
        .unwrap_or("input.json")
        .to_string();
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    files.insert(
        root.clone(),
        serde_json::to_vec(&case["input"]).unwrap_or_default(),
    );
    if let Some(extra) = case["extra_files"].as_object() {
        for (name, v) in extra {
            files.insert(name.clone(), serde_json::to_vec(v).unwrap_or_default());
        }
    }
    let mut loader = |name: &str| {
        files
            .get(name)
            .cloned()
            .ok_or_else(|| "no such file in the case".to_string())
    };
    let findings = match lint(&root, &mut loader, &rules, excluded) {
        Ok(f) => f,
        Err(e) => return Outcome::Fail(format!("  lint failed: {e}")),
    };
    let mut diff = String::new();
    let ids = |sev: Severity| {
        let mut v: Vec<String> = findings
            .iter()
            .filter(|f| f.severity == sev)
            .map(|f| f.rule.id().to_string())
            .collect();
        v.sort();
        v
    };
    let strings = |v: &Value| {
        let mut out: Vec<String> = v
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        out.sort();
        out
    };
    if let Some(counts) = case["expect_counts"].as_object() {
        let (errors, recs) = (ids(Severity::Error), ids(Severity::Recommendation));
        let want = (
            counts["errors"].as_u64(),
            counts["recommendations"].as_u64(),
        );
        let got = (Some(errors.len() as u64), Some(recs.len() as u64));
        if want != got {
            diff.push_str(&format!("  counts: want {want:?}, got {got:?}\n"));
        }
        if strings(&case["expect"]) != errors {
            diff.push_str(&format!(
                "  error rules:\n{}",
                list_diff(&strings(&case["expect"]), &errors)
            ));
        }
        let want_recs = strings(&case["expect_recommendations"]);
        if want_recs != recs {
            diff.push_str(&format!(
                "  recommendation rules:\n{}",
                list_diff(&want_recs, &recs)
            ));
        }
    } else {
        let mut all: Vec<String> = findings.iter().map(|f| f.rule.id().to_string()).collect();
        all.sort();
        if case["expect_count"].as_u64() != Some(all.len() as u64) {
            diff.push_str(&format!(
                "  count: want {}, got {}\n",
                case["expect_count"],
                all.len()
            ));
        }
        if strings(&case["expect"]) != all {
            diff.push_str(&format!(
                "  rules:\n{}",
                list_diff(&strings(&case["expect"]), &all)
            ));
        }
    }
    let render =
        |rule: &str, sev: &str, msg: &str, loc: &str| format!("{rule} {sev} {loc:?} {msg:?}");
    let mut want_v: Vec<String> = case["violations"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|v| {
                    render(
                        v["rule"].as_str().unwrap_or(""),
                        v["severity"].as_str().unwrap_or(""),
                        v["message"].as_str().unwrap_or(""),
                        v["location"].as_str().unwrap_or(""),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let mut got_v: Vec<String> = findings
        .iter()
        .map(|f| render(f.rule.id(), f.severity.name(), &f.message, &f.location))
        .collect();
    want_v.sort();
    got_v.sort();
    if want_v != got_v {
        diff.push_str(&format!("  findings:\n{}", list_diff(&want_v, &got_v)));
    }
    if diff.is_empty() {
        Outcome::Pass
    } else {
        Outcome::Fail(diff)
    }
}

/// The ytt command line of a case as `schema-gen` arguments: the schema is
/// read from stdin, `--output openapi-v3` becomes `--to openapi-v3`.
fn ytt_cli_args(case: &Value) -> Vec<String> {
    let mut args: Vec<String> = ["schema-gen", "convert", "ytt", "-"]
        .iter()
        .map(ToString::to_string)
        .collect();
    let flags: Vec<&str> = case["flags"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut it = flags.iter();
    while let Some(f) = it.next() {
        match *f {
            "--output" | "-o" => {
                if let Some(v) = it.next() {
                    args.push("--to".to_string());
                    args.push((*v).to_string());
                }
            }
            other => {
                if let Some(v) = other.strip_prefix("--output=") {
                    args.push(format!("--to={v}"));
                }
            }
        }
    }
    args
}

fn ytt_parse(case: &Value) -> Result<schema_gen::ytt::YttSchema, schema_gen::ytt::YttError> {
    let name = case["input_filename"].as_str().unwrap_or("schema.yml");
    let input = case["input"].as_str().unwrap_or("");
    schema_gen::ytt::parse(name, input.as_bytes())
}

fn ytt_openapi_case(case: &Value) -> Outcome {
    let expect = &case["expect"];
    let schema = match ytt_parse(case) {
        Ok(s) => s,
        Err(e) => return Outcome::Fail(format!("  unexpected error: {e}")),
    };
    let doc = schema.openapi_document();
    if !json_eq(&expect["document"], &doc) {
        return Outcome::Fail(format!("  want {}\n  got  {doc}", expect["document"]));
    }
    // The CLI prints the same text.
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = schema_gen::cli::run(
        ytt_cli_args(case),
        &mut case["input"].as_str().unwrap_or("").as_bytes(),
        &mut out,
        &mut err,
    );
    let text = String::from_utf8_lossy(&out);
    if code != 0 || text != schema.openapi_yaml() {
        return Outcome::Fail(format!(
            "  CLI exit {code}: {}",
            String::from_utf8_lossy(&err)
        ));
    }
    if let Some(want) = expect["yaml"].as_str() {
        if text != want {
            // README rule 2: only the position of the validation keywords
            // may differ; the document comparison above holds their values.
            let relaxed = case["compare"]
                .as_str()
                .is_some_and(|c| c.contains("key-order-insensitive"));
            if !relaxed {
                return Outcome::Fail(format!("  want text:\n{want}\n  got text:\n{text}"));
            }
        }
    }
    Outcome::Pass
}

fn ytt_error_case(case: &Value) -> Outcome {
    let expect = &case["expect"];
    let headline = expect["headline"].as_str().unwrap_or("");
    let flags = case["flags"].as_array().cloned().unwrap_or_default();
    let inspect = flags.iter().any(|f| f == "--data-values-schema-inspect");
    let openapi = flags
        .iter()
        .any(|f| f == "openapi-v3" || f == "--output=openapi-v3");
    if inspect && !openapi {
        // A flag error: the CLI's `--to` stands for ytt's `--output`.
        let mut out = Vec::new();
        let mut err = Vec::new();
        let code = schema_gen::cli::run(
            ytt_cli_args(case),
            &mut case["input"].as_str().unwrap_or("").as_bytes(),
            &mut out,
            &mut err,
        );
        let want = headline.replace("--output=", "--to=");
        let stderr = String::from_utf8_lossy(&err);
        return if code == 2 && stderr.contains(&want) {
            Outcome::Pass
        } else {
            Outcome::Fail(format!(
                "  want exit 2 and {want:?}\n  got exit {code}: {stderr}"
            ))
        };
    }
    match ytt_parse(case) {
        Ok(_) => Outcome::Fail(format!("  want error {headline:?}, got success")),
        Err(e) => {
            let got = e.headline();
            let text = e.to_string();
            let contains = expect["contains"].as_str().unwrap_or("");
            if got != headline {
                Outcome::Fail(format!(
                    "  want headline {headline:?}\n  got  {got:?}\n{text}"
                ))
            } else if !text.contains(contains) {
                Outcome::Fail(format!(
                    "  want text containing:\n{contains}\n  got:\n{text}"
                ))
            } else {
                Outcome::Pass
            }
        }
    }
}

fn ytt_rendered_case(case: &Value) -> Outcome {
    match ytt_parse(case) {
        Ok(s) => json_outcome(&case["expect"]["document"], &s.default_values()),
        Err(e) => Outcome::Fail(format!("  unexpected error: {e}")),
    }
}
