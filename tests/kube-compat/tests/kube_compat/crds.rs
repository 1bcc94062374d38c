//! Each source's CRDs: both sides' read as the API server reads a CRD,
//! and ours compared with kube-derive's node by node, every difference in
//! the allow-list ([`kube_compat_tests::allowed::ALLOWED`]).

use std::collections::BTreeSet;

use kube_compat_tests::allowed::ALLOWED;
use schema_core::{Input, read_input};

use crate::common::pairs;
use crate::common::{crd_json, crds_of, sides};

/// The sources ours does not compile yet are exactly those the crate
/// names, each with a reason; every other source is compiled by both.
#[test]
fn the_sources_of_kube_derive_alone_are_the_ones_named() {
    use kube_compat_tests::{KUBE_DERIVE_ONLY, NOT_YET_OURS, kube_derive, ours};
    let named: Vec<&str> = NOT_YET_OURS.iter().map(|(name, _)| *name).collect();
    assert_eq!(named, KUBE_DERIVE_ONLY);
    assert!(NOT_YET_OURS.iter().all(|(_, why)| !why.is_empty()));
    let theirs: BTreeSet<&str> = kube_derive::SOURCES.iter().map(|s| s.name).collect();
    let mut both: BTreeSet<&str> = ours::SOURCES.iter().map(|s| s.name).collect();
    assert!(both.iter().all(|n| !KUBE_DERIVE_ONLY.contains(n)));
    both.extend(KUBE_DERIVE_ONLY);
    assert_eq!(both, theirs);
}

#[test]
fn every_source_derives_crds_the_wire_model_reads_without_unknown_keys() {
    for (side, sources) in sides() {
        for source in sources {
            let crds = crds_of(source).unwrap_or_else(|e| panic!("{side} {e}"));
            assert!(!crds.is_empty(), "{side} {}: no CRDs", source.name);
            let names: BTreeSet<&str> = crds.iter().map(|(n, _)| *n).collect();
            assert_eq!(
                names.len(),
                crds.len(),
                "{side} {}: CRD names repeat",
                source.name
            );
            for (name, crd) in &crds {
                let (input, warnings) = read_input(&crd_json(crd))
                    .unwrap_or_else(|e| panic!("{side} {} {name}: {e}", source.name));
                assert!(
                    matches!(input, Input::CrdV1(_)),
                    "{side} {} {name}: not a v1 CRD",
                    source.name
                );
                assert!(
                    warnings.is_empty(),
                    "{side} {} {name}: {warnings:?}",
                    source.name
                );
            }
        }
    }
}

#[test]
fn kube_derive_panics_at_run_time_on_enums_it_cannot_merge() {
    use kube_compat_tests::kube_derive_only::crd_mixed_enum_rejected::crd_functions;
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let survived: Vec<&str> = crd_functions()
        .into_iter()
        .filter(|(_, crd)| std::panic::catch_unwind(crd).is_ok())
        .map(|(name, _)| name)
        .collect();
    std::panic::set_hook(hook);
    assert!(survived.is_empty(), "crd() did not panic for {survived:?}");
}

#[test]
fn the_allow_list_names_sources_and_crds_that_exist() {
    let sources = kube_compat_tests::kube_derive::SOURCES;
    for row in ALLOWED {
        assert!(!row.reason.trim().is_empty(), "{row:?}: no reason");
        assert!(row.path.starts_with('/'), "{row:?}: not a JSON pointer");
        let matching: Vec<_> = sources
            .iter()
            .filter(|s| row.source == "*" || s.name == row.source)
            .collect();
        assert!(!matching.is_empty(), "{row:?}: no such source");
        assert!(
            row.crd == "*"
                || matching
                    .iter()
                    .any(|s| (s.crds)().iter().any(|(n, _)| *n == row.crd)),
            "{row:?}: no such CRD"
        );
    }
}

#[test]
fn ours_derives_kube_derives_crds_but_for_the_allowed_differences() {
    use kube_compat_tests::allowed::{Allowed, Found, judge};
    use kube_compat_tests::diff::differences;

    let mut found = Vec::new();
    let mut missing = Vec::new();
    for (theirs, mine) in pairs() {
        let (kube_crds, ours_crds) = match (crds_of(theirs), crds_of(mine)) {
            (Ok(k), Ok(o)) => (k, o),
            (Err(e), _) | (_, Err(e)) => {
                missing.push(e);
                continue;
            }
        };
        for (name, kube_crd) in kube_crds {
            let Some((_, our_crd)) = ours_crds.iter().find(|(n, _)| *n == name) else {
                missing.push(format!("{} {name}", theirs.name));
                continue;
            };
            for difference in differences(&crd_json(&kube_crd), &crd_json(our_crd)) {
                found.push(Found {
                    source: theirs.name,
                    crd: name,
                    difference,
                });
            }
        }
    }
    let verdict = judge(&found, ALLOWED);
    for (f, row) in &verdict.listed {
        tests::report!("allowed: {f}\n  because {}", row.reason);
    }
    let mut failures = missing;
    for f in &verdict.unlisted {
        failures.push(format!("UNLISTED {f}\n  {}", Allowed::row_for(f)));
    }
    for row in &verdict.stale {
        failures.push(format!(
            "STALE {row:?}: it matches no difference any more; remove it"
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
