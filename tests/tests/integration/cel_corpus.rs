//! Every `x-kubernetes-validations` rule of the corpus CRDs evaluates: a
//! sample object with every property filled in is validated by the CEL
//! validator of each CRD version (as an update over itself, so that
//! transition rules run too), and no rule may end in an error that means
//! the evaluator lacks something (a compile error, a missing overload, an
//! unknown attribute).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use schema_core::cel::validator::{CelOptions, CelValidator, RUNTIME_CEL_COST_BUDGET};
use schema_core::model::field::Path;
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::structural::Structural;
use schema_core::model::wire::input::read_input_owned;

fn count_rules(s: &Structural) -> usize {
    s.x_validations.len()
        + s.items.as_deref().map_or(0, count_rules)
        + s.properties.values().map(count_rules).sum::<usize>()
        + s.generic
            .additional_properties
            .as_ref()
            .and_then(|a| a.structural.as_deref())
            .map_or(0, count_rules)
}

/// Errors that say the evaluator lacks something, not that the sample
/// fails the rule.
fn is_unsupported(msg: &str) -> bool {
    msg.contains("rule compile error")
        || msg.contains("no such overload")
        || msg.contains("no such attribute")
        || msg.contains("unknown type")
        || msg.contains("running out of cost budget")
        || msg.contains("call cost exceeds limit")
}

#[test]
fn every_corpus_rule_evaluates_on_a_sample() {
    let Some(dir) = tests::corpus_dir() else {
        return;
    };
    let files = tests::files_below(&dir, &["yaml", "yml", "json"]);
    let (mut rules, mut failed_rules, mut versions) = (0, 0, 0);
    let mut unsupported = Vec::new();
    for file in &files {
        if file.file_name().is_some_and(|n| n == "index.json") {
            continue;
        }
        let bytes = std::fs::read(file).unwrap();
        let name = file.display().to_string();
        let Ok(docs) = parse_documents(&name, &bytes, &Limits::default()) else {
            continue;
        };
        for doc in docs {
            let Ok((input, _)) = read_input_owned(doc.value) else {
                continue;
            };
            let Some(crd) = input.crd() else { continue };
            let Some(spec) = crd.spec.as_ref() else {
                continue;
            };
            for v in spec.versions.as_deref().unwrap_or(&[]) {
                let Some(props) = v
                    .schema
                    .as_ref()
                    .and_then(|s| s.open_api_v3_schema.as_ref())
                else {
                    continue;
                };
                let Ok(s) = Structural::from_props(props) else {
                    continue;
                };
                let n = count_rules(&s);
                if n == 0 {
                    continue;
                }
                versions += 1;
                rules += n;
                let obj = tests::sample_object(&s);
                let validator = CelValidator::new(&s, true);
                let out = validator.validate(
                    &Path::root(),
                    &obj,
                    Some(&obj),
                    CelOptions {
                        ratcheting: false,
                        ..CelOptions::default()
                    },
                    RUNTIME_CEL_COST_BUDGET,
                );
                for e in &out.errors {
                    let msg = e.to_string();
                    if is_unsupported(&msg) {
                        unsupported.push(format!(
                            "{} {}: {msg}",
                            file.strip_prefix(&dir).unwrap_or(file).display(),
                            v.name.as_deref().unwrap_or("")
                        ));
                    } else {
                        failed_rules += 1;
                        if std::env::var_os("CEL_CORPUS_VERBOSE").is_some() {
                            println!("  {msg}");
                        }
                    }
                }
            }
        }
    }
    println!(
        "cel corpus: versions={versions} rules={rules} failing on the sample={failed_rules} unsupported={}",
        unsupported.len()
    );
    assert!(
        unsupported.is_empty(),
        "rules the evaluator cannot run:\n{}",
        unsupported.join("\n")
    );
    assert!(
        rules > 100,
        "expected the corpus to have rules, found {rules}"
    );
}
