//! What the sources' programs see: their objects admitted with each CRD
//! (pruned, defaulted, validated, the CEL rules run; `Admission` through
//! the oracle's `admit` request, and `prune` and `default` alone), and
//! what they read from the generated items. On kube-derive's CRDs the results are the ones [`EXPECTED`] and
//! [`FACTS`] list (what the server does with kube-derive's CRD); ours
//! must give every example and every fact exactly as kube-derive's does: a port loses no default and no rule.

use kube_compat_tests::{Example, Source};
use schema_core::{Input, Structural, default, prune, read_input};
use serde_json::Value;

use crate::common::pairs;
use crate::common::{admit_request, against_the_oracle, crd_named, error_line, sides};

/// What admission must do with one example on kube-derive's CRD.
struct Expected {
    /// The source.
    source: &'static str,
    /// The example's name.
    example: &'static str,
    /// JSON pointers into the stored object with the JSON each must hold
    /// (`"absent"`: the member must not be there). Empty when rejected.
    stored: &'static [(&'static str, &'static str)],
    /// The errors, each `field: Type` or `field: Type: part of the detail`.
    errors: &'static [&'static str],
}

/// Each example's admission on kube-derive's CRD.
const EXPECTED: &[Expected] = &[
    // crd_derive: the status goes through its subresource, not the create.
    ex(
        "crd_derive",
        "a gadget with its status",
        &[("/spec/label", r#""hi""#), ("/status", "absent")],
        &[],
    ),
    ex(
        "crd_derive",
        "the default gadget",
        &[],
        &["metadata.name: FieldValueRequired"],
    ),
    // crd_derive_schema: kube-rs's defaulting and nullability walk-through.
    ex(
        "crd_derive_schema",
        "typed defaults",
        &[
            // Sent as "": not defaulted.
            ("/spec/textWithDefault", r#""""#),
            // Left out: defaulted.
            ("/spec/skippedOptionalWithDefault", r#""default_nullable""#),
            // Sent as null to a nullable field: kept, not defaulted.
            ("/spec/optionalWithDefault", "null"),
            ("/spec/optional", "null"),
            ("/spec/checked", "null"),
            ("/spec/skippedOptional", "absent"),
        ],
        &[],
    ),
    ex(
        "crd_derive_schema",
        "raw without the defaulted fields",
        &[
            ("/spec/textWithDefault", r#""default_value""#),
            ("/spec/skippedOptionalWithDefault", r#""default_nullable""#),
            ("/spec/optionalWithDefault", r#""default_nullable""#),
            ("/spec/checked", r#""legal""#),
            ("/spec/associatedDefault", "true"),
            ("/spec/plainList", "[2]"),
            ("/spec/setList", "[2]"),
        ],
        &[],
    ),
    ex(
        "crd_derive_schema",
        "missing required field",
        &[],
        &[
            "spec.requiredText: FieldValueRequired",
            "<nil>: FieldValueInvalid: some validation rules were not checked",
        ],
    ),
    ex(
        "crd_derive_schema",
        "forbidden name",
        &[],
        &["<nil>: FieldValueInvalid: failed rule: self.metadata.name != 'forbidden'"],
    ),
    ex(
        "crd_derive_schema",
        "illegal",
        &[],
        &["spec.checked: FieldValueForbidden: string cannot be illegal"],
    ),
    ex(
        "crd_derive_schema",
        "not legal",
        &[],
        &["spec.checked: FieldValueInvalid: failed rule: self != 'not legal'"],
    ),
    ex(
        "crd_derive_schema",
        "sub field not legal",
        &[],
        &["spec.sub.field: FieldValueInvalid: failed rule: self != 'not legal'"],
    ),
    ex(
        "crd_derive_schema",
        "sub field also not that",
        &[],
        &["spec.sub.field: FieldValueInvalid: some pretty good reason"],
    ),
    ex(
        "crd_derive_schema",
        "sub field legal",
        &[("/spec/sub/field", r#""legal""#)],
        &[],
    ),
    ex(
        "crd_derive_schema",
        "sub changed",
        &[],
        &["spec.sub: FieldValueInvalid: is immutable"],
    ),
    ex(
        "crd_derive_schema",
        "frozen set",
        &[("/spec/frozen", r#""once""#)],
        &[],
    ),
    ex(
        "crd_derive_schema",
        "frozen changed",
        &[],
        &["spec.frozen: FieldValueInvalid: Immutable after creation"],
    ),
    ex(
        "crd_derive_schema",
        "required text changed",
        &[],
        &["spec: FieldValueInvalid: requiredText is immutable"],
    ),
    ex(
        "crd_derive_schema",
        "legal",
        &[("/spec/checked", r#""legal""#)],
        &[],
    ),
    ex(
        "crd_derive_custom_schema",
        "five",
        &[("/spec/count", "5")],
        &[],
    ),
    ex(
        "crd_derive_multi",
        "v1 object",
        &[("/spec/legacy", "5")],
        &[],
    ),
    ex(
        "crd_derive_multi",
        "v2 object",
        &[("/spec/extra", r#""hi""#)],
        &[],
    ),
    ex(
        "crd_derive_multi",
        "v2 object, v2 stored",
        &[("/spec/extra", r#""hi""#)],
        &[],
    ),
    ex(
        "crd_derive_multi",
        "v1 object without its field",
        &[],
        &["spec.legacy: FieldValueRequired"],
    ),
    ex("crd_derive_no_schema", "five", &[("/spec/count", "5")], &[]),
    ex(
        "crd_derive_cel",
        "valid",
        &[("/spec/tier", r#""standard""#)],
        &[],
    ),
    ex(
        "crd_derive_cel",
        "min above max",
        &[],
        &[
            "<nil>: FieldValueInvalid: failed rule: self.spec.minReplicas <= self.spec.maxReplicas",
            "spec: FieldValueInvalid: failed rule: self.minReplicas <= self.maxReplicas",
        ],
    ),
    ex(
        "crd_derive_cel",
        "negative min",
        &[],
        &["spec.minReplicas: FieldValueInvalid: failed rule: self >= 0"],
    ),
    ex(
        "crd_derive_cel",
        "tier changed",
        &[],
        &["spec.tier: FieldValueInvalid: failed rule: self == oldSelf"],
    ),
    ex(
        "crd_derive_cel",
        "max raised",
        &[("/spec/maxReplicas", "7")],
        &[],
    ),
    ex("crd_api", "baz", &[("/spec/info", r#""old baz""#)], &[]),
    ex(
        "crd_api",
        "baz replaced",
        &[("/spec/info", r#""new baz""#)],
        &[],
    ),
    ex("crd_api", "qux", &[("/spec/replicas", "0")], &[]),
    ex("crd_api", "qux with status", &[("/status", "absent")], &[]),
    ex("crd_api", "qux scaled", &[("/spec/replicas", "2")], &[]),
    ex(
        "crd_api",
        "qux patched",
        &[
            ("/spec/info", r#""patched qux""#),
            ("/spec/name", r#""qux""#),
        ],
        &[],
    ),
    ex(
        "crd_api",
        "name too short",
        &[],
        &["spec.name: FieldValueInvalid: should be at least 3 chars long"],
    ),
    ex(
        "crd_schema",
        "singleton",
        &[
            ("/metadata/labels/gauges.example.com~1owner", r#""team-a""#),
            ("/spec/skippedOptionalWithDefault", r#""default_nullable""#),
            ("/spec/optional", "null"),
            ("/spec/owner", r#"{"role": "Member", "years": 42}"#),
        ],
        &[],
    ),
    ex(
        "crd_schema",
        "another name",
        &[],
        &["<nil>: FieldValueInvalid: failed rule: self.metadata.name == 'singleton'"],
    ),
    ex(
        "crd_schema",
        "dial too low",
        &[],
        &["spec.dial: FieldValueInvalid: failed rule: !has(self.knob) || self.knob.turns > 22"],
    ),
    ex(
        "crd_schema",
        "no tags",
        &[],
        &["spec.tags: FieldValueInvalid: should have at least 1 items"],
    ),
    ex(
        "crd_schema",
        "spread",
        &[
            ("/spec/other", r#"{"deep": [1, 2]}"#),
            ("/spec/more", r#""x""#),
        ],
        &[],
    ),
    ex(
        "crd_schema",
        "numberish",
        &[
            ("/spec/required_port", "80"),
            ("/spec/optional_port", "null"),
        ],
        &[],
    ),
    // `deny_unknown_fields` gives the schema nothing: the server prunes.
    ex(
        "crd_schema",
        "strict with an extra field",
        &[("/spec/part/four", "absent")],
        &[],
    ),
    ex(
        "crd_schema_times",
        "epoch",
        &[("/spec/at", r#""1970-01-01T00:00:00Z""#)],
        &[],
    ),
    ex(
        "crd_schema_times",
        "not a time",
        &[],
        &["spec.at: FieldValueTypeInvalid: must be of type date-time"],
    ),
    ex("crd_enum", "counted", &[("/spec/counted/count", "42")], &[]),
    ex("crd_enum", "named", &[("/spec/named/name", r#""n""#)], &[]),
    ex("crd_enum", "idle", &[("/spec/idle", "{}")], &[]),
    ex(
        "crd_enum",
        "two variants",
        &[],
        &["<nil>: FieldValueInvalid: must validate one and only one schema (oneOf)"],
    ),
    ex(
        "crd_complex_enum",
        "a flavor",
        &[("/spec/foo", r#""Salty""#)],
        &[],
    ),
    ex(
        "crd_complex_enum",
        "not a flavor",
        &[],
        &["spec.foo: FieldValueNotSupported"],
    ),
    // `nullable` beside an `enum` without null: the null is refused.
    ex(
        "crd_complex_enum",
        "no flavor",
        &[],
        &["spec.foo: FieldValueNotSupported"],
    ),
    ex(
        "crd_complex_enum",
        "a shade",
        &[("/spec/foo", r#""Deep""#)],
        &[],
    ),
    ex(
        "crd_complex_enum",
        "a simple recipe",
        &[("/spec/foo/Simple", r#""Sweet""#)],
        &[],
    ),
    ex(
        "crd_complex_enum",
        "a detailed recipe",
        &[("/spec/foo/Detailed/plain_shade", r#""Pale""#)],
        &[],
    ),
    ex(
        "crd_complex_enum",
        "two recipes at once",
        &[],
        &["<nil>: FieldValueInvalid: must validate one and only one schema (oneOf)"],
    ),
    ex(
        "crd_complex_enum",
        "no recipe",
        &[("/spec/foo", "null")],
        &[],
    ),
    ex(
        "crd_complex_enum",
        "portion b",
        &[("/spec/foo/large", r#""l""#)],
        &[],
    ),
    ex("crd_complex_enum", "portion c", &[("/spec/foo", "{}")], &[]),
    // The merged variants only say which fields exist, not which go together.
    ex(
        "crd_complex_enum",
        "portion with half of b",
        &[("/spec/foo/medium", r#""Bitter""#)],
        &[],
    ),
    ex("crd_mixed_enum", "newtype a", &[("/spec/A", r#""a""#)], &[]),
    ex("crd_mixed_enum", "newtype b", &[("/spec/B", "7")], &[]),
    ex("crd_mixed_enum", "struct b", &[("/spec/B/inner", "7")], &[]),
    ex(
        "crd_mixed_enum",
        "shared a",
        &[("/spec/additional", r#""x""#)],
        &[],
    ),
    ex("crd_mixed_enum", "shared b", &[("/spec/inner", "1")], &[]),
    ex(
        "crd_no_spec",
        "with a region",
        &[("/region", r#""eu-west-1""#), ("/spec", "absent")],
        &[],
    ),
    ex(
        "crd_no_spec",
        "with a status",
        &[("/name", r#""blobs""#), ("/status", "absent")],
        &[],
    ),
    ex(
        "crd_no_spec",
        "name too short",
        &[],
        &["<nil>: FieldValueInvalid: failed rule: self.name.size() > 2"],
    ),
    ex("typed_subresource", "typed", &[("/spec", "{}")], &[]),
    ex("typed_subresource", "raw", &[("/spec", "{}")], &[]),
];

const fn ex(
    source: &'static str,
    example: &'static str,
    stored: &'static [(&'static str, &'static str)],
    errors: &'static [&'static str],
) -> Expected {
    Expected {
        source,
        example,
        stored,
        errors,
    }
}

/// What the programs read from the generated items, on kube-derive's side
/// (ours must read every fact of every source as kube-derive's side does).
const FACTS: &[(&str, &str, &str)] = &[
    ("crd_derive", "kind", "Gadget"),
    ("crd_derive", "group", "gadgets.example.com"),
    ("crd_derive", "version", "v1"),
    ("crd_derive", "api_version", "gadgets.example.com/v1"),
    ("crd_derive", "plural", "gadgetz"),
    (
        "crd_derive",
        "url_path",
        "/apis/gadgets.example.com/v1/namespaces/myns/gadgetz",
    ),
    ("crd_derive", "crd_name", "gadgetz.gadgets.example.com"),
    ("crd_derive", "shortnames", r#"["gd"]"#),
    ("crd_derive", "equal to its copy", "true"),
    ("crd_derive_custom_schema", "kind", "Tally"),
    (
        "crd_derive_multi",
        "crd_name",
        "shifters.shifters.example.com",
    ),
    ("crd_derive_no_schema", "kind", "Plain"),
    ("crd_derive_cel", "validate_cel valid", "accepted"),
    ("crd_derive_cel", "validate_cel min above max", "rejected"),
    ("crd_derive_cel", "validate_cel negative min", "rejected"),
    (
        "crd_derive_cel",
        "validate_cel_update tier changed",
        "rejected",
    ),
    (
        "crd_derive_cel",
        "validate_cel_update max raised",
        "accepted",
    ),
    ("crd_api", "garde baz", "true"),
    ("crd_api", "garde x", "false"),
    ("crd_schema", "crd_name", "gauges.gauges.example.com"),
    ("crd_schema", "shortnames", r#"["ga", "g"]"#),
    ("crd_enum", "crd_name", "modes.modes.example.com"),
    ("crd_schema_times", "crd_name", "instants.times.example.com"),
    (
        "crd_no_spec",
        "serialized",
        r#"{"apiVersion":"buckets.example.com/v1","kind":"Bucket","metadata":{"name":"blobs"},"name":"blobs","region":"eu-west-1"}"#,
    ),
    ("crd_no_spec", "round trip", "true"),
    ("typed_subresource", "printer columns equal", "true"),
    ("typed_subresource", "scale equal", "true"),
];

/// Our admission of `example` with `crd`: the oracle's `admit` answer.
fn admit(crd: &Value, example: &Example) -> Value {
    tests::ours::answer(&admit_request(crd, example))
}

fn errors_of(answer: &Value) -> Vec<String> {
    answer["errors"]
        .as_array()
        .map(|errs| errs.iter().map(error_line).collect())
        .unwrap_or_default()
}

/// Whether `line` (`field: Type: detail`) is the error `want` names.
fn is_error(line: &str, want: &str) -> bool {
    let mut want_parts = want.splitn(3, ": ");
    let mut line_parts = line.splitn(3, ": ");
    want_parts.next() == line_parts.next()
        && want_parts.next() == line_parts.next()
        && want_parts
            .next()
            .is_none_or(|detail| line_parts.next().unwrap_or_default().contains(detail))
}

fn check_example(source: &Source, example: &Example, expected: &Expected) -> Vec<String> {
    let answer = match crd_named(source, example.crd) {
        Ok(crd) => admit(&crd, example),
        Err(e) => return vec![e],
    };
    let mut failures = Vec::new();
    if answer.get("object").is_none() {
        failures.push(format!("not admitted: {answer}"));
        return failures;
    }
    let mut errors = errors_of(&answer);
    for want in expected.errors {
        match errors.iter().position(|line| is_error(line, want)) {
            Some(i) => {
                errors.remove(i);
            }
            None => failures.push(format!("missing error {want}")),
        }
    }
    failures.extend(errors.iter().map(|line| format!("unexpected error {line}")));
    for (pointer, want) in expected.stored {
        let got = answer["object"].pointer(pointer);
        let ok = if *want == "absent" {
            got.is_none()
        } else {
            got == Some(&serde_json::from_str::<Value>(want).expect("JSON"))
        };
        if !ok {
            failures.push(format!("stored {pointer}: want {want}, got {got:?}"));
        }
    }
    failures
}

#[test]
fn kube_derives_crds_admit_every_example_as_listed() {
    let mut failures = Vec::new();
    for source in kube_compat_tests::kube_derive::SOURCES {
        for example in (source.examples)() {
            let Some(expected) = EXPECTED
                .iter()
                .find(|e| e.source == source.name && e.example == example.name)
            else {
                let answer = crd_named(source, example.crd)
                    .map(|crd| admit(&crd, &example))
                    .unwrap_or_else(Value::String);
                failures.push(format!(
                    "{} {:?}: not in EXPECTED; admitted as\n  stored {}\n  errors {:?}",
                    source.name,
                    example.name,
                    answer["object"],
                    errors_of(&answer)
                ));
                continue;
            };
            for f in check_example(source, &example, expected) {
                failures.push(format!("{} {:?}: {f}", source.name, example.name));
            }
        }
    }
    for e in EXPECTED {
        let exists = kube_compat_tests::kube_derive::SOURCES
            .iter()
            .filter(|s| s.name == e.source)
            .any(|s| (s.examples)().iter().any(|x| x.name == e.example));
        if !exists {
            failures.push(format!(
                "EXPECTED names {} {:?}, which does not exist",
                e.source, e.example
            ));
        }
    }
    failures.dedup();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn kube_derives_generated_items_give_the_listed_facts() {
    let mut failures = Vec::new();
    for (source, fact, want) in FACTS {
        let Some(s) = kube_compat_tests::kube_derive::SOURCES
            .iter()
            .find(|s| s.name == *source)
        else {
            failures.push(format!("no source {source}"));
            continue;
        };
        let facts = (s.facts)();
        match facts.iter().find(|(name, _)| name == fact) {
            Some((_, got)) if got == want => {}
            Some((_, got)) => failures.push(format!("{source} {fact}: want {want}, got {got}")),
            None => failures.push(format!("{source} has no fact {fact}")),
        }
    }
    failures.dedup();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The structural schema of `version` of `crd`.
fn structural_of(crd: &Value, version: &str) -> Structural {
    let Ok((Input::CrdV1(crd), _)) = read_input(crd) else {
        panic!("not a v1 CRD");
    };
    let props = crd
        .spec
        .as_ref()
        .and_then(|s| s.versions.as_ref())
        .and_then(|vs| vs.iter().find(|v| v.name.as_deref() == Some(version)))
        .and_then(|v| v.schema.as_ref())
        .and_then(|s| s.open_api_v3_schema.as_ref())
        .expect("a schema");
    Structural::from_props(props).expect("structural")
}

/// The object without what admission adds or drops besides pruning and
/// defaulting (`metadata`, and `status`, which goes through its own
/// subresource).
fn without_metadata_and_status(mut object: Value) -> Value {
    if let Some(members) = object.as_object_mut() {
        members.shift_remove("metadata");
        members.shift_remove("status");
    }
    object
}

/// `schema_core::prune` then `schema_core::default` of each created object
/// with its CRD's schema give what admission stores: a default or a
/// pruned field comes from the schema alone.
#[test]
fn prune_and_default_store_what_admission_stores() {
    let mut failures = Vec::new();
    for (side, sources) in sides() {
        for source in sources {
            for example in (source.examples)().iter().filter(|e| e.old.is_none()) {
                let crd = match crd_named(source, example.crd) {
                    Ok(crd) => crd,
                    Err(e) => {
                        failures.push(format!("{side} {e}"));
                        continue;
                    }
                };
                let s = structural_of(&crd, example.version);
                let mut object = example.object.clone();
                prune(&mut object, Some(&s), true, false);
                default(&mut object, Some(&s));
                let stored = admit(&crd, example)["object"].clone();
                let (got, want) = (
                    without_metadata_and_status(object),
                    without_metadata_and_status(stored),
                );
                if got != want {
                    failures.push(format!(
                        "{side} {} {:?}: prune and default give {got}, admission stores {want}",
                        source.name, example.name
                    ));
                }
            }
        }
    }
    failures.dedup();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ours_sends_stores_and_rejects_every_example_as_kube_derive() {
    use tests::oracle::{comparable, differences};

    let mut failures = Vec::new();
    for (theirs, mine) in pairs() {
        let our_examples = (mine.examples)();
        for example in (theirs.examples)() {
            let Some(our_example) = our_examples.iter().find(|e| e.name == example.name) else {
                failures.push(format!("{} {:?}: ours lacks it", theirs.name, example.name));
                continue;
            };
            let sent = differences(&example.object, &our_example.object);
            if !sent.is_empty() {
                failures.push(format!(
                    "{} {:?}: the object sent differs\n  {}",
                    theirs.name,
                    example.name,
                    sent.join("\n  ")
                ));
            }
            let (kube_crd, our_crd) =
                match (crd_named(theirs, example.crd), crd_named(mine, example.crd)) {
                    (Ok(k), Ok(o)) => (k, o),
                    (Err(e), _) | (_, Err(e)) => {
                        failures.push(e);
                        continue;
                    }
                };
            let kube_req = admit_request(&kube_crd, &example);
            let our_req = admit_request(&our_crd, &example);
            let mut kube_answer = tests::ours::answer(&kube_req);
            let mut our_answer = tests::ours::answer(&our_req);
            comparable(&kube_req, &mut kube_answer);
            comparable(&our_req, &mut our_answer);
            let admitted = differences(&kube_answer, &our_answer);
            if !admitted.is_empty() {
                failures.push(format!(
                    "{} {:?}: admitted differently (\"upstream\" is kube-derive's CRD)\n  {}",
                    theirs.name,
                    example.name,
                    admitted.join("\n  ")
                ));
            }
        }
    }
    failures.dedup();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn ours_gives_every_fact_kube_derive_gives() {
    let mut failures = Vec::new();
    for (theirs, mine) in pairs() {
        let our_facts = (mine.facts)();
        for (fact, want) in (theirs.facts)() {
            match our_facts.iter().find(|(name, _)| *name == fact) {
                Some((_, got)) if *got == want => {}
                Some((_, got)) => failures.push(format!(
                    "{} {fact}: kube-derive {want}, ours {got}",
                    theirs.name
                )),
                None => failures.push(format!("{} {fact}: ours lacks it", theirs.name)),
            }
        }
    }
    failures.dedup();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// With Go: the API server's own admission of every example, with each
/// side's CRD, equals ours.
#[test]
fn the_api_server_admits_every_example_as_schema_core_does() {
    against_the_oracle("admissions", |oracle, tag| {
        let mut failures = Vec::new();
        let mut compared = 0;
        for (side, sources) in sides() {
            for source in sources {
                for example in (source.examples)() {
                    compared += 1;
                    let req = match crd_named(source, example.crd) {
                        Ok(crd) => admit_request(&crd, &example),
                        Err(e) => {
                            failures.push(format!("{tag} {side} {e}"));
                            continue;
                        }
                    };
                    let diffs = tests::oracle::compare(oracle, &req);
                    if !diffs.is_empty() {
                        failures.push(format!(
                            "{tag} {side} {} {:?}\n  {}",
                            source.name,
                            example.name,
                            diffs.join("\n  ")
                        ));
                    }
                }
            }
        }
        (compared, failures)
    });
}
