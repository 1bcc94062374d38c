//! Fixtures of the rules on a CRD's names and scope and on its versions.

use super::*;

#[test]
fn crd_removed() {
    let report = run_with(&[base()], &[], &DiffOptions::default());
    let f = only(&report, &rules::CRD_REMOVED, &[]);
    assert_eq!(f.severity, Error);
    assert_eq!(f.crd, "widgets.example.com");
    assert_eq!(
        (f.version.as_ref(), f.old_path.as_ref(), f.new_path.as_ref()),
        (None, None, None)
    );
}

#[test]
fn crd_added() {
    let report = run_with(&[], &[base()], &DiffOptions::default());
    let f = only(&report, &rules::CRD_ADDED, &[]);
    assert_eq!(f.severity, Info);
    assert_eq!(f.crd, "widgets.example.com");
    assert_eq!(report.max_severity(), Some(Info));
}

#[test]
fn duplicate_crd() {
    // Defined twice in NEW (differently): reported once, the first compared.
    let second = with(|c| c["spec"]["scope"] = json!("Cluster"));
    let report = run_with(
        &[base()],
        &[base(), second.clone(), second],
        &DiffOptions::default(),
    );
    let f = only(&report, &rules::DUPLICATE_CRD, &[]);
    assert_eq!(f.severity, Warning);
    assert!(f.message.contains("NEW"), "{f}");
}

#[test]
fn scope_changed() {
    crd_case(
        with(|c| c["spec"]["scope"] = json!("Cluster")),
        &rules::SCOPE_CHANGED,
        Error,
    );
}

#[test]
fn group_changed() {
    crd_case(
        with(|c| c["spec"]["group"] = json!("example.org")),
        &rules::GROUP_CHANGED,
        Error,
    );
}

#[test]
fn kind_changed() {
    crd_case(
        with(|c| c["spec"]["names"]["kind"] = json!("Gadget")),
        &rules::KIND_CHANGED,
        Error,
    );
}

#[test]
fn plural_changed() {
    crd_case(
        with(|c| c["spec"]["names"]["plural"] = json!("widgetz")),
        &rules::PLURAL_CHANGED,
        Error,
    );
}

#[test]
fn singular_changed() {
    crd_case(
        with(|c| c["spec"]["names"]["singular"] = json!("widgit")),
        &rules::SINGULAR_CHANGED,
        Error,
    );
}

#[test]
fn list_kind_changed() {
    crd_case(
        with(|c| c["spec"]["names"]["listKind"] = json!("Widgets")),
        &rules::LIST_KIND_CHANGED,
        Error,
    );
}

#[test]
fn defaulted_names_are_no_change() {
    // Unset singular and listKind mean their defaults.
    let new = with(|c| {
        let names = c["spec"]["names"].as_object_mut().unwrap();
        names.remove("singular");
        names.remove("listKind");
    });
    assert!(run(&base(), &new).is_empty());
}

#[test]
fn short_name_removed() {
    let f = crd_case(
        with(|c| c["spec"]["names"]["shortNames"] = json!([])),
        &rules::SHORT_NAME_REMOVED,
        Warning,
    );
    assert!(f.message.contains("\"wd\""), "{f}");
}

#[test]
fn category_removed() {
    crd_case(
        with(|c| {
            c["spec"]["names"]
                .as_object_mut()
                .unwrap()
                .remove("categories");
        }),
        &rules::CATEGORY_REMOVED,
        Warning,
    );
}

#[test]
fn preserve_unknown_fields_disabled() {
    let old = with(|c| c["spec"]["preserveUnknownFields"] = json!(true));
    let new = with(|c| c["spec"]["preserveUnknownFields"] = json!(false));
    check(
        old,
        new,
        &rules::PRESERVE_UNKNOWN_FIELDS_DISABLED,
        Error,
        None,
        None,
        None,
        false,
    );
}

// ----- Versions -----

#[test]
fn version_removed_served() {
    let old = versions(json!([
        version("v1", true, true),
        version("v1beta1", true, false)
    ]));
    let new = versions(json!([version("v1", true, true)]));
    version_case(old, new, &rules::VERSION_REMOVED_SERVED, Error, "v1beta1");
}

#[test]
fn version_removed_stored() {
    let mut old = versions(json!([
        version("v1", true, true),
        version("v1beta1", false, false)
    ]));
    old["status"] = json!({"storedVersions": ["v1beta1", "v1"]});
    let new = versions(json!([version("v1", true, true)]));
    let f = version_case(old, new, &rules::VERSION_REMOVED_STORED, Error, "v1beta1");
    assert!(f.message.contains("migrat"), "{f}");
}

#[test]
fn version_removed_served_and_stored_is_two_findings() {
    let old = versions(json!([
        version("v1", true, false),
        version("v2", true, true)
    ]));
    let new = versions(json!([version("v2", true, true)]));
    let opts = DiffOptions {
        stored_versions: Some(vec!["v1".into(), "v2".into()]),
    };
    let report = run_with(&[old], &[new], &opts);
    only(
        &report,
        &rules::VERSION_REMOVED_SERVED,
        &[&rules::VERSION_REMOVED_STORED],
    );
    // And the API server refuses the update: v1 still holds data.
    assert_eq!(report.rejected.len(), 1, "{report:#?}");
    assert_eq!(
        report.rejected[0].new_path.as_deref(),
        Some("status.storedVersions[0]")
    );
    assert_eq!(report.errors(), 3);
}

#[test]
fn update_rejected() {
    // The group is immutable: the server refuses the update, with its
    // message at its field.
    let report = run(
        &base(),
        &with(|c| c["spec"]["group"] = json!("example.org")),
    );
    assert_eq!(report.rejected.len(), 1, "{report:#?}");
    let f = &report.rejected[0];
    assert_eq!((f.rule, f.severity), (rules::UPDATE_REJECTED.id, Error));
    assert_eq!(f.new_path.as_deref(), Some("spec.group"));
    assert!(
        f.message
            .starts_with("the API server refuses the update: spec.group: Invalid value: \"example.org\": field is immutable"),
        "{}",
        f.message
    );
    // A valid change is not refused.
    let report = run(
        &base(),
        &with(|c| c["spec"]["names"]["shortNames"] = json!(["w"])),
    );
    assert!(report.rejected.is_empty(), "{report:#?}");
}

#[test]
fn version_removed() {
    let old = versions(json!([
        version("v1", true, true),
        version("v1alpha1", false, false)
    ]));
    let new = versions(json!([version("v1", true, true)]));
    version_case(old, new, &rules::VERSION_REMOVED, Info, "v1alpha1");
}

#[test]
fn stored_versions_option_overrides_status() {
    let mut old = versions(json!([
        version("v1", true, true),
        version("v1beta1", false, false)
    ]));
    old["status"] = json!({"storedVersions": ["v1beta1", "v1"]});
    let new = versions(json!([version("v1", true, true)]));
    // The cluster says the old version holds no data any more.
    let opts = DiffOptions {
        stored_versions: Some(vec!["v1".into()]),
    };
    let report = run_with(&[old], &[new], &opts);
    only(&report, &rules::VERSION_REMOVED, &[]);
}

#[test]
fn storage_version_changed() {
    let old = versions(json!([
        version("v1", true, true),
        version("v2", true, false)
    ]));
    let new = versions(json!([
        version("v1", true, false),
        version("v2", true, true)
    ]));
    let f = version_case(old, new, &rules::STORAGE_VERSION_CHANGED, Warning, "v2");
    assert!(f.message.contains("\"v1\""), "{f}");
}

#[test]
fn version_unserved() {
    let old = versions(json!([
        version("v1", true, true),
        version("v2", true, false)
    ]));
    let new = versions(json!([
        version("v1", true, true),
        version("v2", false, false)
    ]));
    version_case(old, new, &rules::VERSION_UNSERVED, Warning, "v2");
}

#[test]
fn version_deprecated() {
    let new = with(|c| c["spec"]["versions"][0]["deprecated"] = json!(true));
    version_case(base(), new, &rules::VERSION_DEPRECATED, Info, "v1");
}

#[test]
fn version_added() {
    let new = with(|c| {
        c["spec"]["versions"]
            .as_array_mut()
            .unwrap()
            .push(version("v2", true, false));
    });
    version_case(base(), new, &rules::VERSION_ADDED, Info, "v2");
}

#[test]
fn schema_removed() {
    let new = with(|c| {
        c["spec"]["versions"][0]
            .as_object_mut()
            .unwrap()
            .remove("schema");
    });
    version_case(base(), new, &rules::SCHEMA_REMOVED, Error, "v1");
}

#[test]
fn schema_added() {
    let old = with(|c| {
        c["spec"]["versions"][0]
            .as_object_mut()
            .unwrap()
            .remove("schema");
    });
    version_case(old, base(), &rules::SCHEMA_ADDED, Warning, "v1");
}
