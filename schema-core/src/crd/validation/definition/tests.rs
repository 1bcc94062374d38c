//! Tests of whole-CRD validation, after upstream's
//! `TestValidateCustomResourceDefinition` and friends.

use serde_json::{Map, json};

use super::versions::deprecation_warning_errors;
use super::*;
use crate::crd::fixtures::{base, base2, decode};
use crate::crd::internal::submitted_location;
use crate::model::field::ErrorType;
use crate::model::options::Options;

fn run(v: &Value) -> ErrorList {
    validate_custom_resource_definition(&decode(v), RequestVersion::V1, &Options::default())
}

fn run_beta(v: &Value) -> ErrorList {
    validate_custom_resource_definition(&decode(v), RequestVersion::V1Beta1, &Options::default())
}

fn pairs(errs: &ErrorList) -> Vec<(ErrorType, String)> {
    errs.iter()
        .map(|e| (e.error_type, e.field.to_string()))
        .collect()
}

fn expect(errs: &ErrorList, want: &[(ErrorType, &str)]) {
    let want: Vec<(ErrorType, String)> = want.iter().map(|(t, f)| (*t, (*f).to_string())).collect();
    assert_eq!(
        pairs(errs),
        want,
        "{:#?}",
        errs.iter().map(ToString::to_string).collect::<Vec<_>>()
    );
}

fn messages(errs: &ErrorList) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

use ErrorType::{Forbidden, Invalid, NotSupported, Required, TooMany};

#[test]
fn valid_crd_has_no_errors() {
    assert_eq!(messages(&run(&base())), Vec::<String>::new());
    assert_eq!(messages(&run(&base2())), Vec::<String>::new());
}

#[test]
fn defaults_singular_list_kind_and_conversion() {
    let mut v = base();
    v["spec"]["names"] = json!({"plural": "plural", "kind": "Plural"});
    assert_eq!(messages(&run(&v)), Vec::<String>::new());
}

// --- conversion (upstream: TestValidateCustomResourceDefinition) ---

fn with_conversion(conversion: Value) -> Value {
    let mut v = base2();
    v["spec"]["conversion"] = conversion;
    v
}

#[test]
fn webhookconfig_invalid_port_0() {
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"service": {"name": "n", "namespace": "ns", "port": 0}},
        "conversionReviewVersions": ["v1beta1"]}})));
    expect(
        &errs,
        &[(Invalid, "spec.conversion.webhookClientConfig.service.port")],
    );
    assert_eq!(
        messages(&errs),
        [
            "spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive"
        ]
    );
}

#[test]
fn webhookconfig_invalid_port_65536() {
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"service": {"name": "n", "namespace": "ns", "port": 65536}},
        "conversionReviewVersions": ["v1beta1"]}})));
    expect(
        &errs,
        &[(Invalid, "spec.conversion.webhookClientConfig.service.port")],
    );
}

#[test]
fn webhookconfig_both_service_and_url() {
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": "https://example.com/webhook", "service": {"name": "n", "namespace": "ns"}},
        "conversionReviewVersions": ["v1beta1"]}})));
    expect(&errs, &[(Required, "spec.conversion.webhookClientConfig")]);
    assert_eq!(
        messages(&errs),
        [
            "spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required"
        ]
    );
}

#[test]
fn webhookconfig_blank_url() {
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": ""}, "conversionReviewVersions": ["v1beta1"]}})));
    assert_eq!(
        messages(&errs),
        [
            "spec.conversion.webhookClientConfig.url: Invalid value: \"\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
            "spec.conversion.webhookClientConfig.url: Invalid value: \"\": host must be specified; desired format: https://host[/path]",
        ]
    );
}

#[test]
fn webhookconfig_should_not_be_set() {
    let errs = run(&with_conversion(json!({"strategy": "None", "webhook": {
        "clientConfig": {"url": "https://example.com/webhook"}}})));
    expect(&errs, &[(Forbidden, "spec.conversion.webhookClientConfig")]);
    assert_eq!(
        messages(&errs),
        [
            "spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook"
        ]
    );
}

#[test]
fn conversion_review_versions_should_not_be_set() {
    let errs = run(&with_conversion(json!({"strategy": "None", "webhook": {
        "conversionReviewVersions": ["v1beta1"]}})));
    expect(
        &errs,
        &[(Forbidden, "spec.conversion.conversionReviewVersions")],
    );
}

#[test]
fn webhookconfig_invalid_conversion_review_version() {
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": "https://example.com/webhook"},
        "conversionReviewVersions": ["invalid-version"]}})));
    expect(
        &errs,
        &[(Invalid, "spec.conversion.conversionReviewVersions")],
    );
    assert_eq!(
        messages(&errs),
        [
            r#"spec.conversion.conversionReviewVersions: Invalid value: ["invalid-version"]: must include at least one of v1, v1beta1"#
        ]
    );
}

#[test]
fn webhookconfig_invalid_conversion_review_version_string() {
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": "https://example.com/webhook"},
        "conversionReviewVersions": ["0v"]}})));
    expect(
        &errs,
        &[
            (Invalid, "spec.conversion.conversionReviewVersions[0]"),
            (Invalid, "spec.conversion.conversionReviewVersions"),
        ],
    );
    assert_eq!(
        messages(&errs)[0],
        "spec.conversion.conversionReviewVersions[0]: Invalid value: \"0v\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
    );
}

#[test]
fn webhookconfig_at_least_one_valid_conversion_review_version() {
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": "https://example.com/webhook"},
        "conversionReviewVersions": ["invalid-version", "v1beta1"]}})));
    expect(&errs, &[]);
}

#[test]
fn webhookconfig_duplicate_conversion_review_version() {
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": "https://example.com/webhook"},
        "conversionReviewVersions": ["v1beta1", "v1beta1"]}})));
    expect(
        &errs,
        &[(Invalid, "spec.conversion.conversionReviewVersions[1]")],
    );
    assert!(messages(&errs)[0].ends_with(": duplicate version"));
}

#[test]
fn missing_webhookconfig() {
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "conversionReviewVersions": ["v1beta1"]}})));
    expect(&errs, &[(Required, "spec.conversion.webhookClientConfig")]);
}

#[test]
fn missing_conversion_review_versions_in_v1() {
    // v1 does not default conversionReviewVersions (v1beta1 did).
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": "https://example.com/webhook"}}})));
    expect(
        &errs,
        &[(Required, "spec.conversion.conversionReviewVersions")],
    );
}

#[test]
fn invalid_conversion_strategy() {
    let errs = run(&with_conversion(
        json!({"strategy": "non_existing_conversion"}),
    ));
    expect(&errs, &[(NotSupported, "spec.conversion.strategy")]);
    assert_eq!(
        messages(&errs),
        [
            r#"spec.conversion.strategy: Unsupported value: "non_existing_conversion": supported values: "None", "Webhook""#
        ]
    );
}

#[test]
fn webhook_conversion_with_preserve_unknown_fields() {
    let mut v = with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": "https://example.com/webhook"},
        "conversionReviewVersions": ["v1beta1"]}}));
    v["spec"]["preserveUnknownFields"] = json!(true);
    let errs = run(&v);
    expect(
        &errs,
        &[
            (Invalid, "spec.conversion.strategy"),
            (Invalid, "spec.preserveUnknownFields"),
        ],
    );
    assert_eq!(
        messages(&errs)[0],
        r#"spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true"#
    );
}

#[test]
fn webhook_url_parts_are_checked() {
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": "http://user@example.com/x?y=1#z"},
        "conversionReviewVersions": ["v1"]}})));
    assert_eq!(
        messages(&errs),
        [
            "spec.conversion.webhookClientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
            "spec.conversion.webhookClientConfig.url: Invalid value: \"user\": user information is not permitted in the URL",
            "spec.conversion.webhookClientConfig.url: Invalid value: \"z\": fragments are not permitted in the URL",
            "spec.conversion.webhookClientConfig.url: Invalid value: \"y=1\": query parameters are not permitted in the URL",
        ]
    );
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": "https://exa mple.com/"},
        "conversionReviewVersions": ["v1"]}})));
    assert_eq!(
        messages(&errs),
        [
            "spec.conversion.webhookClientConfig.url: Required value: url must be a valid URL: parse \"https://exa mple.com/\": invalid character \" \" in host name; desired format: https://host[/path]"
        ]
    );
}

#[test]
fn webhook_service_name_namespace_and_path() {
    let errs = run(&with_conversion(json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"service": {"path": "foo//Bar/"}},
        "conversionReviewVersions": ["v1"]}})));
    expect(
        &errs,
        &[
            (Required, "spec.conversion.webhookClientConfig.service.name"),
            (
                Required,
                "spec.conversion.webhookClientConfig.service.namespace",
            ),
            (Invalid, "spec.conversion.webhookClientConfig.service.path"),
            (Invalid, "spec.conversion.webhookClientConfig.service.path"),
            (Invalid, "spec.conversion.webhookClientConfig.service.path"),
        ],
    );
    let m = messages(&errs);
    assert!(m[2].ends_with(": must start with a '/'"), "{}", m[2]);
    assert!(m[3].ends_with(": segment[1] may not be empty"), "{}", m[3]);
    assert!(
        m[4].contains(": segment[2]: a lowercase RFC 1123 subdomain"),
        "{}",
        m[4]
    );
}

// --- versions and storage ---

#[test]
fn no_storage_version() {
    let mut v = base2();
    v["spec"]["versions"][0]["storage"] = json!(false);
    let errs = run(&v);
    // Upstream's test supplies status.storedVersions; on a real create
    // PrepareForCreate leaves them empty.
    expect(
        &errs,
        &[
            (Invalid, "spec.versions"),
            (Invalid, "status.storedVersions"),
        ],
    );
    let m = messages(&errs);
    assert!(m[0].ends_with(": must have exactly one version marked as storage version"));
    assert_eq!(
        m[1],
        "status.storedVersions: Invalid value: null: must have at least one stored version"
    );
}

#[test]
fn multiple_storage_version() {
    let mut v = base2();
    v["spec"]["versions"][1]["storage"] = json!(true);
    let errs = run(&v);
    expect(
        &errs,
        &[
            (Invalid, "spec.versions"),
            (Invalid, "status.storedVersions"),
        ],
    );
    assert_eq!(
        messages(&errs)[1],
        r#"status.storedVersions: Invalid value: ["version"]: must have the storage version version2"#
    );
}

#[test]
fn duplicate_version_names() {
    let mut v = base2();
    v["spec"]["versions"][1]["name"] = json!("version");
    let errs = run(&v);
    expect(&errs, &[(Invalid, "spec.versions")]);
    assert!(messages(&errs)[0].ends_with(": must contain unique version names"));
}

#[test]
fn invalid_version_name_is_reported_twice() {
    // The internal spec.version is versions[0].name.
    let mut v = base();
    v["spec"]["versions"][0]["name"] = json!("V1");
    let errs = run(&v);
    expect(
        &errs,
        &[
            (Invalid, "spec.versions[0].name"),
            (Invalid, "spec.version"),
        ],
    );
    assert!(
        messages(&errs)[0]
            .starts_with("spec.versions[0].name: Invalid value: \"V1\": a DNS-1035 label")
    );
}

#[test]
fn no_versions_at_all() {
    let mut v = base();
    v["spec"]["versions"] = json!([]);
    expect(
        &run(&v),
        &[
            (Invalid, "spec.versions"),
            (Invalid, "status.storedVersions"),
        ],
    );
}

// --- names, group, scope (upstream: mismatched name, missing values, bad names) ---

#[test]
fn mismatched_name() {
    let v = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "plural.not.group.com"},
        "spec": {"group": "group.com", "names": {"plural": "plural"}}
    });
    let errs = run(&v);
    expect(
        &errs,
        &[
            (Invalid, "metadata.name"),
            (Required, "spec.scope"),
            (Invalid, "spec.versions"),
            (Required, "spec.names.singular"),
            (Required, "spec.names.kind"),
            (Required, "spec.names.listKind"),
            (Invalid, "status.storedVersions"),
        ],
    );
    assert_eq!(
        messages(&errs)[0],
        r#"metadata.name: Invalid value: "plural.not.group.com": must be spec.names.plural+"."+spec.group"#
    );
}

#[test]
fn missing_values() {
    let v = json!({"metadata": {"name": "plural.group.com"}});
    expect(
        &run(&v),
        &[
            (Invalid, "metadata.name"),
            (Required, "spec.group"),
            (Required, "spec.scope"),
            (Invalid, "spec.versions"),
            (Required, "spec.names.plural"),
            (Required, "spec.names.singular"),
            (Required, "spec.names.kind"),
            (Required, "spec.names.listKind"),
            (Invalid, "status.storedVersions"),
        ],
    );
}

#[test]
fn bad_names_01() {
    let v = json!({
        "metadata": {"name": "plural.group"},
        "spec": {
            "group": "group", "scope": "foo",
            "names": {"plural": "pl()*ural", "singular": "value()*a", "kind": "value()*a", "listKind": "value()*a"},
            "versions": [{"name": "ve()*rsion", "served": true, "storage": false,
                          "schema": {"openAPIV3Schema": {"type": "object"}}}]
        }
    });
    let errs = run(&v);
    expect(
        &errs,
        &[
            (Invalid, "metadata.name"),
            (Invalid, "spec.group"),
            (NotSupported, "spec.scope"),
            (Invalid, "spec.versions[0].name"),
            (Invalid, "spec.versions"),
            (Invalid, "spec.version"),
            (Invalid, "spec.names.plural"),
            (Invalid, "spec.names.singular"),
            (Invalid, "spec.names.kind"),
            (Invalid, "spec.names.listKind"),
            (Invalid, "spec.names.listKind"),
            (Invalid, "status.storedVersions"),
        ],
    );
    let m = messages(&errs);
    assert_eq!(
        m[1],
        r#"spec.group: Invalid value: "group": should be a domain with at least one dot"#
    );
    assert_eq!(
        m[2],
        r#"spec.scope: Unsupported value: "foo": supported values: "Cluster", "Namespaced""#
    );
    assert!(m[8].starts_with(r#"spec.names.kind: Invalid value: "value()*a": may have mixed case, but should otherwise match: a DNS-1035 label"#));
    assert_eq!(
        m[10],
        r#"spec.names.listKind: Invalid value: "value()*a": kind and listKind may not be the same"#
    );
}

#[test]
fn bad_names_02() {
    let mut v = base();
    v["metadata"]["name"] = json!("plural.group");
    v["spec"]["group"] = json!("group.c(*&om");
    v["spec"].as_object_mut().unwrap().remove("scope");
    v["spec"]["names"]["kind"] = json!("matching");
    v["spec"]["names"]["listKind"] = json!("matching");
    let errs = run(&v);
    expect(
        &errs,
        &[
            (Invalid, "metadata.name"),
            (Invalid, "spec.group"),
            (Required, "spec.scope"),
            (Invalid, "spec.names.listKind"),
        ],
    );
    assert_eq!(
        messages(&errs)[1],
        "spec.group: Invalid value: \"group.c(*&om\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
    );
}

#[test]
fn short_names_and_categories() {
    let mut v = base();
    v["spec"]["names"]["shortNames"] = json!(["ok", "Bad", ""]);
    v["spec"]["names"]["categories"] = json!(["all", "a_b"]);
    expect(
        &run(&v),
        &[
            (Invalid, "spec.names.shortNames[1]"),
            (Invalid, "spec.names.shortNames[2]"),
            (Invalid, "spec.names.categories[1]"),
        ],
    );
}

// --- schemas and preserveUnknownFields ---

#[test]
fn preserve_unknown_fields_true() {
    let mut v = base();
    v["spec"]["preserveUnknownFields"] = json!(true);
    let errs = run(&v);
    expect(&errs, &[(Invalid, "spec.preserveUnknownFields")]);
    assert_eq!(
        messages(&errs),
        [
            "spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"
        ]
    );
}

#[test]
fn schema_is_required() {
    let mut v = base2();
    v["spec"]["versions"][0]
        .as_object_mut()
        .unwrap()
        .remove("schema");
    v["spec"]["versions"][1]["schema"] = json!({});
    let errs = run(&v);
    expect(
        &errs,
        &[
            (Required, "spec.versions[0].schema.openAPIV3Schema"),
            (Required, "spec.versions[1].schema.openAPIV3Schema"),
        ],
    );
    assert_eq!(
        messages(&errs)[0],
        "spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required"
    );
}

// --- subresources and printer columns ---

#[test]
fn label_selector_path_outside_spec_and_status() {
    let mut v = base();
    let scale = |label: Value| {
        let mut s =
            json!({"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"});
        if !label.is_null() {
            s["labelSelectorPath"] = label;
        }
        json!({"scale": s})
    };
    let schema = json!({"openAPIV3Schema": {"type": "object"}});
    v["spec"]["versions"] = json!([
        {"name": "version0", "served": true, "storage": true, "schema": schema, "subresources": scale(Value::Null)},
        {"name": "version1", "served": true, "storage": false, "schema": schema, "subresources": scale(json!(".status.labelSelector"))},
        {"name": "version2", "served": true, "storage": false, "schema": schema, "subresources": scale(json!(".spec.labelSelector"))},
        {"name": "version3", "served": true, "storage": false, "schema": schema, "subresources": scale(json!(".labelSelector"))}
    ]);
    let errs = run(&v);
    expect(
        &errs,
        &[(
            Invalid,
            "spec.versions[3].subresources.scale.labelSelectorPath",
        )],
    );
    assert_eq!(
        messages(&errs),
        [
            r#"spec.versions[3].subresources.scale.labelSelectorPath: Invalid value: ".labelSelector": should be a json path under either .spec or .status"#
        ]
    );
}

#[test]
fn scale_paths_of_a_shared_subresource_are_top_level() {
    let mut v = base();
    v["spec"]["versions"][0]["subresources"] =
        json!({"scale": {"specReplicasPath": ".status.replicas", "labelSelectorPath": "spec"}});
    let errs = run(&v);
    assert_eq!(
        messages(&errs),
        [
            r#"spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec"#,
            "spec.subresources.scale.statusReplicasPath: Required value",
            r#"spec.subresources.scale.labelSelectorPath: Invalid value: "spec": must be a simple json path starting with ."#,
        ]
    );
    assert_eq!(
        submitted_location(&errs[0].field).to_string(),
        "spec.versions[0].subresources.scale.specReplicasPath"
    );
}

#[test]
fn printer_columns() {
    let mut v = base2();
    let cols = json!([
        {"name": "", "type": "bogus", "format": "uuid", "jsonPath": "spec.x"},
        {"name": "Age", "jsonPath": ""}
    ]);
    v["spec"]["versions"][0]["additionalPrinterColumns"] = cols.clone();
    v["spec"]["versions"][1]["additionalPrinterColumns"] = cols;
    let errs = run(&v);
    assert_eq!(
        messages(&errs),
        [
            "spec.additionalPrinterColumns[0].name: Required value",
            r#"spec.additionalPrinterColumns[0].type: Invalid value: "bogus": must be one of boolean,date,integer,number,string"#,
            r#"spec.additionalPrinterColumns[0].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password"#,
            r#"spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with ."#,
            "spec.additionalPrinterColumns[1].type: Required value: must be one of boolean,date,integer,number,string",
            "spec.additionalPrinterColumns[1].JSONPath: Required value",
        ]
    );
    assert_eq!(
        submitted_location(&errs[3].field).to_string(),
        "spec.versions[0].additionalPrinterColumns[0].jsonPath"
    );
    // Different columns stay per version.
    v["spec"]["versions"][1]["additionalPrinterColumns"] = json!([]);
    expect(
        &run(&v),
        &[
            (
                Required,
                "spec.versions[0].additionalPrinterColumns[0].name",
            ),
            (Invalid, "spec.versions[0].additionalPrinterColumns[0].type"),
            (
                Invalid,
                "spec.versions[0].additionalPrinterColumns[0].format",
            ),
            (
                Invalid,
                "spec.versions[0].additionalPrinterColumns[0].JSONPath",
            ),
            (
                Required,
                "spec.versions[0].additionalPrinterColumns[1].type",
            ),
            (
                Required,
                "spec.versions[0].additionalPrinterColumns[1].JSONPath",
            ),
        ],
    );
}

#[test]
fn deprecation_warning() {
    let mut v = base();
    v["spec"]["versions"][0]["deprecationWarning"] = json!("use v2");
    let errs = run(&v);
    assert_eq!(
        messages(&errs),
        [
            r#"spec.versions[0].deprecationWarning: Invalid value: "use v2": can only be set for deprecated versions"#
        ]
    );
    v["spec"]["versions"][0]["deprecated"] = json!(true);
    assert!(run(&v).is_empty());
    v["spec"]["versions"][0]["deprecationWarning"] = json!("x".repeat(257));
    expect(
        &run(&v),
        &[(Invalid, "spec.versions[0].deprecationWarning")],
    );
    assert_eq!(
        deprecation_warning_errors(true, Some("Test message\n")),
        ["must only contain printable UTF-8 characters; non-printable character found at index 12"]
    );
    assert!(deprecation_warning_errors(true, Some("Iñtërnâtiônàlizætiøn,💝🐹🌇⛔")).is_empty());
    assert_eq!(
        deprecation_warning_errors(true, Some("")),
        ["must not be an empty string"]
    );
}

// --- selectable fields ---

fn selectable_crd(fields: Value) -> Value {
    let mut v = base();
    v["spec"]["versions"][0]["schema"] = json!({"openAPIV3Schema": {"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "color": {"type": "string"}, "size": {"type": "integer"}, "obj": {"type": "object"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}}
        }},
        "metadata": {"type": "object"}
    }}});
    v["spec"]["versions"][0]["selectableFields"] = fields;
    v
}

#[test]
fn selectable_fields() {
    assert!(
        run(&selectable_crd(
            json!([{"jsonPath": ".spec.color"}, {"jsonPath": ".spec.labels.x"}])
        ))
        .is_empty()
    );
    let errs = run(&selectable_crd(json!([
        {"jsonPath": "spec.color"},
        {"jsonPath": ".spec.obj"},
        {"jsonPath": ".spec.size"},
        {"jsonPath": ".spec.size"},
        {"jsonPath": ".spec['color']"},
        {"jsonPath": ".metadata.name"},
        {"jsonPath": ""}
    ])));
    assert_eq!(
        messages(&errs),
        [
            r#"spec.selectableFields[0].jsonPath: Invalid value: "spec.color": is an invalid path: expected [ or . but got: spec"#,
            r#"spec.selectableFields[1].jsonPath: Invalid value: ".spec.obj": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."#,
            r#"spec.selectableFields[3].jsonPath: Duplicate value: ".spec.size""#,
            r#"spec.selectableFields[4].jsonPath: Invalid value: ".spec['color']": is an invalid path: array notation is not allowed"#,
            r#"spec.selectableFields[5].jsonPath: Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field"#,
            "spec.selectableFields[6].jsonPath: Required value",
        ]
    );
}

#[test]
fn selectable_fields_too_many_and_metadata() {
    let mut v = selectable_crd(json!([]));
    let mut props = Map::new();
    let mut fields = Vec::new();
    for i in 0..9 {
        props.insert(format!("f{i}"), json!({"type": "string"}));
        fields.push(json!({"jsonPath": format!(".spec.f{i}")}));
    }
    v["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"] =
        Value::Object(props);
    v["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["metadata"] =
        json!({"type": "object", "properties": {"name": {"type": "string"}}});
    fields.push(json!({"jsonPath": ".metadata.name"}));
    v["spec"]["versions"][0]["selectableFields"] = Value::Array(fields);
    let errs = run(&v);
    expect(
        &errs,
        &[
            (Invalid, "spec.selectableFields[9].jsonPath"),
            (TooMany, "spec.selectableFields"),
        ],
    );
    assert_eq!(
        messages(&errs),
        [
            r#"spec.selectableFields[9].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata"#,
            "spec.selectableFields: Too many: 10: must have at most 8 items",
        ]
    );
}

#[test]
fn selectable_fields_per_version_without_own_schema() {
    // Identical schemas move to the top level, different selectable
    // fields stay per version: upstream then rejects them.
    let mut v = base2();
    v["spec"]["versions"][0]["selectableFields"] = json!([{"jsonPath": ".spec.a"}]);
    expect(&run(&v), &[(Invalid, "spec.versions[0].selectableFields")]);
    assert_eq!(
        messages(&run(&v)),
        [
            r#"spec.versions[0].selectableFields: Invalid value: "": selectableFields may only be set when version.schema.openAPIV3Schema is not included"#
        ]
    );
}

// --- metadata and API approval ---

#[test]
fn object_meta() {
    let mut v = base();
    v["metadata"] = json!({
        "name": "plural.group.com",
        "labels": {"a b": "ok", "k": "-bad"},
        "annotations": {"Example.com/OK": "1", "x/y/z": ""},
        "finalizers": ["orphan", "foregroundDeletion"]
    });
    let errs = run(&v);
    expect(
        &errs,
        &[
            (Invalid, "metadata.labels"),
            (Invalid, "metadata.labels"),
            (Invalid, "metadata.annotations"),
            (Invalid, "metadata.finalizers"),
        ],
    );
    assert_eq!(
        messages(&errs)[0],
        "metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
    );
}

#[test]
fn object_meta_is_validated_as_decoded() {
    let mut v = base();
    // A field of the wrong type is dropped; the namespace is cleared
    // and the generation set to 1 before validation; managed fields
    // are not checked.
    v["metadata"] = json!({
        "name": "plural.group.com",
        "namespace": "ns",
        "generation": -1,
        "labels": {"a": 1, "b c": "d"},
        "managedFields": [{"operation": "Bad"}],
        "ownerReferences": [
            {"kind": "Event", "unknown": 1, "apiVersion": "v1", "name": "e", "controller": true},
            {"apiVersion": "apps/v1", "kind": "Deployment", "name": "d", "uid": "u", "controller": true},
        ],
    });
    assert_eq!(
        messages(&run(&v)),
        [
            r#"metadata.ownerReferences.uid: Invalid value: "": uid must not be empty"#,
            r#"metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"","controller":true}: /v1, Kind=Event is disallowed from being an owner"#,
            r#"metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"Event","name":"e","uid":"","controller":true},{"apiVersion":"apps/v1","kind":"Deployment","name":"d","uid":"u","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for Event/e and Deployment/d"#,
        ]
    );
}

#[test]
fn generate_name_and_missing_name() {
    let mut v = base();
    v["metadata"] = json!({"generateName": "plural-"});
    expect(
        &run(&v),
        &[
            (Invalid, "metadata.generateName"),
            (Invalid, "metadata.name"),
        ],
    );
    v["metadata"] = json!({});
    let errs = run(&v);
    assert_eq!(
        messages(&errs),
        ["metadata.name: Required value: name or generateName is required"]
    );
}

#[test]
fn api_approval_for_protected_groups() {
    let mut v = base();
    v["metadata"]["name"] = json!("plural.foo.k8s.io");
    v["spec"]["group"] = json!("foo.k8s.io");
    let errs = run(&v);
    assert_eq!(
        messages(&errs),
        [
            r#"metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111"#
        ]
    );
    v["metadata"]["annotations"] = json!({"api-approved.kubernetes.io": "https://github.com/kubernetes/kubernetes/pull/78458"});
    assert!(run(&v).is_empty());
    v["metadata"]["annotations"] =
        json!({"api-approved.kubernetes.io": "unapproved, experimental"});
    assert!(run(&v).is_empty());
    v["metadata"]["annotations"] = json!({"api-approved.kubernetes.io": "yes"});
    expect(
        &run(&v),
        &[(Invalid, "metadata.annotations[api-approved.kubernetes.io]")],
    );
    // No approval check for a v1beta1 request (Kubernetes <= 1.21).
    assert!(
        run_beta(&v)
            .iter()
            .all(|e| !e.field.to_string().starts_with("metadata"))
    );
}

// --- v1beta1 requests ---

#[test]
fn v1beta1_allows_preserve_unknown_fields_but_not_webhooks_with_it() {
    let mut v = base2();
    v["spec"]["preserveUnknownFields"] = json!(true);
    assert!(run_beta(&v).is_empty());
    v["spec"]["conversion"] = json!({"strategy": "Webhook", "webhook": {
        "clientConfig": {"url": "https://example.com/webhook"},
        "conversionReviewVersions": ["v1beta1"]}});
    expect(&run_beta(&v), &[(Invalid, "spec.conversion.strategy")]);
}

#[test]
fn v1beta1_schemas_not_required_unless_pruning() {
    let mut v = base2();
    v["spec"]["versions"][0]
        .as_object_mut()
        .unwrap()
        .remove("schema");
    v["spec"]["versions"][1]
        .as_object_mut()
        .unwrap()
        .remove("schema");
    v["spec"]["preserveUnknownFields"] = json!(true);
    assert!(run_beta(&v).is_empty());
    v["spec"]["preserveUnknownFields"] = json!(false);
    expect(
        &run_beta(&v),
        &[
            (Required, "spec.versions[0].schema.openAPIV3Schema"),
            (Required, "spec.versions[1].schema.openAPIV3Schema"),
        ],
    );
    assert!(messages(&run_beta(&v))[0].ends_with("because otherwise all fields are pruned"));
}
