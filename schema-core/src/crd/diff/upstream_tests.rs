//! Real CRD changes between two upstream releases, each reproduced by a
//! minimal CRD pair written here (only the parts of the real CRDs the
//! change touches, not the upstream files). The comment of each test says
//! which upstream change it models.

use serde_json::{Value, json};

use super::rules::{self, Rule};
use super::{DiffOptions, DiffReport, Finding, Severity, diff};
use crate::crd::fixtures::decode;

fn crd(name: &str, group: &str, kind: &str, plural: &str, versions: Value) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": name},
        "spec": {
            "group": group,
            "scope": "Namespaced",
            "names": {"plural": plural, "singular": plural.trim_end_matches('s'), "kind": kind, "listKind": format!("{kind}List")},
            "versions": versions
        }
    })
}

fn version(name: &str, served: bool, storage: bool, schema: Value) -> Value {
    json!({"name": name, "served": served, "storage": storage, "schema": {"openAPIV3Schema": schema}})
}

fn object() -> Value {
    json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
}

fn run(old: &Value, new: &Value, options: &DiffOptions) -> DiffReport {
    diff(&[decode(old)], &[decode(new)], options)
}

/// A finding as (rule, severity, version, old path, new path).
type Summary<'r> = (
    &'r str,
    Severity,
    Option<&'r str>,
    Option<&'r str>,
    Option<&'r str>,
);

fn summary(report: &DiffReport) -> Vec<Summary<'_>> {
    report
        .findings
        .iter()
        .map(|f| {
            (
                f.rule,
                f.severity,
                f.version.as_deref(),
                f.old_path.as_deref(),
                f.new_path.as_deref(),
            )
        })
        .collect()
}

fn find<'r>(report: &'r DiffReport, rule: &Rule, version: &str) -> &'r Finding {
    report
        .findings
        .iter()
        .find(|f| f.rule == rule.id && f.version.as_deref() == Some(version))
        .unwrap_or_else(|| panic!("no {} for {version}: {report:#?}", rule.id))
}

use Severity::{Error, Info, Warning};

fn cert_manager_certificates(versions: Value) -> Value {
    crd(
        "certificates.cert-manager.io",
        "cert-manager.io",
        "Certificate",
        "certificates",
        versions,
    )
}

/// cert-manager v1.5 to v1.6: the deprecated API versions v1alpha2,
/// v1alpha3 and v1beta1 stay in the CRDs but are no longer served
/// (`served: false`); v1 is served and stored.
#[test]
fn cert_manager_v1_5_to_v1_6_stops_serving_deprecated_versions() {
    let v = |served| {
        json!([
            version("v1alpha2", served, false, object()),
            version("v1alpha3", served, false, object()),
            version("v1beta1", served, false, object()),
            version("v1", true, true, object()),
        ])
    };
    let report = run(
        &cert_manager_certificates(v(true)),
        &cert_manager_certificates(v(false)),
        &DiffOptions::default(),
    );
    assert_eq!(
        summary(&report),
        vec![
            ("version-unserved", Warning, Some("v1alpha2"), None, None),
            ("version-unserved", Warning, Some("v1alpha3"), None, None),
            ("version-unserved", Warning, Some("v1beta1"), None, None),
        ]
    );
}

/// cert-manager v1.6 to v1.7: v1alpha2, v1alpha3 and v1beta1 are removed
/// from the CRDs. On a cluster whose objects were once stored at one of
/// them (v1alpha2 here), `status.storedVersions` still lists it, and the
/// upgrade is refused until the objects are migrated (what
/// `cmctl upgrade migrate-api-version` does) and the status trimmed.
#[test]
fn cert_manager_v1_6_to_v1_7_removes_deprecated_versions() {
    let mut old = cert_manager_certificates(json!([
        version("v1alpha2", false, false, object()),
        version("v1alpha3", false, false, object()),
        version("v1beta1", false, false, object()),
        version("v1", true, true, object()),
    ]));
    old["status"] = json!({"storedVersions": ["v1alpha2", "v1"]});
    let new = cert_manager_certificates(json!([version("v1", true, true, object())]));

    let report = run(&old, &new, &DiffOptions::default());
    assert_eq!(
        summary(&report),
        vec![
            (
                "version-removed-stored",
                Error,
                Some("v1alpha2"),
                None,
                None
            ),
            ("version-removed", Info, Some("v1alpha3"), None, None),
            ("version-removed", Info, Some("v1beta1"), None, None),
        ]
    );
    assert!(
        find(&report, &rules::VERSION_REMOVED_STORED, "v1alpha2")
            .message
            .contains("status.storedVersions")
    );

    // After the migration the cluster stores only v1: the removal is safe.
    let migrated = DiffOptions {
        stored_versions: Some(vec!["v1".to_string()]),
    };
    let report = run(&old, &new, &migrated);
    assert_eq!(report.max_severity(), Some(Info), "{report:#?}");
}

fn grpcroutes(versions: Value) -> Value {
    crd(
        "grpcroutes.gateway.networking.k8s.io",
        "gateway.networking.k8s.io",
        "GRPCRoute",
        "grpcroutes",
        versions,
    )
}

/// Gateway API v1.1 to v1.2: GRPCRoute's v1alpha2 version (served next to
/// v1, the storage version) is removed. Clients still
/// on v1alpha2 break; clusters that installed GRPCRoute before v1.1 still
/// list v1alpha2 in `status.storedVersions`, and the API server refuses the
/// new CRD until it is migrated away.
#[test]
fn gateway_api_v1_1_to_v1_2_removes_grpcroute_v1alpha2() {
    let old = grpcroutes(json!([
        version("v1", true, true, object()),
        version("v1alpha2", true, false, object()),
    ]));
    let new = grpcroutes(json!([version("v1", true, true, object())]));

    let report = run(&old, &new, &DiffOptions::default());
    assert_eq!(
        summary(&report),
        vec![(
            "version-removed-served",
            Error,
            Some("v1alpha2"),
            None,
            None
        )]
    );

    let mut stored = old.clone();
    stored["status"] = json!({"storedVersions": ["v1alpha2", "v1"]});
    let report = run(&stored, &new, &DiffOptions::default());
    assert_eq!(
        summary(&report),
        vec![
            (
                "version-removed-served",
                Error,
                Some("v1alpha2"),
                None,
                None
            ),
            (
                "version-removed-stored",
                Error,
                Some("v1alpha2"),
                None,
                None
            ),
        ]
    );
}

/// Gateway API v1.2 (kubernetes-sigs/gateway-api#3200): GatewayClass
/// `status.supportedFeatures` changes from a set of strings to a map list
/// of objects keyed by `name`. Stored strings no longer validate, and
/// clients of the old shape fail to decode the new one (as implementations
/// reported after the upgrade).
#[test]
fn gateway_api_v1_2_supported_features_become_objects() {
    let gatewayclass = |supported: Value| {
        crd(
            "gatewayclasses.gateway.networking.k8s.io",
            "gateway.networking.k8s.io",
            "GatewayClass",
            "gatewayclasses",
            json!([version(
                "v1",
                true,
                true,
                json!({"type": "object", "properties": {
                    "spec": {"type": "object", "required": ["controllerName"], "properties": {
                        "controllerName": {"type": "string", "maxLength": 253, "minLength": 1}
                    }},
                    "status": {"type": "object", "properties": {"supportedFeatures": supported}}
                }}),
            )]),
        )
    };
    let old = gatewayclass(json!({
        "type": "array", "maxItems": 64, "x-kubernetes-list-type": "set",
        "items": {"type": "string", "enum": ["Gateway", "HTTPRoute", "GRPCRoute"]}
    }));
    let new = gatewayclass(json!({
        "type": "array", "maxItems": 64,
        "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
        "items": {"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"}
        }}
    }));
    let report = run(&old, &new, &DiffOptions::default());
    let list = Some("status.supportedFeatures");
    let items = Some("status.supportedFeatures[*]");
    assert_eq!(
        summary(&report),
        vec![
            ("list-type-changed", Error, Some("v1"), list, list),
            ("type-changed", Error, Some("v1"), items, items),
        ]
    );
}

fn backendtlspolicies(versions: Value) -> Value {
    crd(
        "backendtlspolicies.gateway.networking.k8s.io",
        "gateway.networking.k8s.io",
        "BackendTLSPolicy",
        "backendtlspolicies",
        versions,
    )
}

/// Gateway API v1.0 to v1.1: BackendTLSPolicy's v1alpha2 is replaced by
/// v1alpha3 (with `spec.tls` renamed `spec.validation` and `targetRef`
/// become `targetRefs`), so the only version, served and stored, goes
/// away; users had to uninstall v1alpha2 first.
#[test]
fn gateway_api_v1_1_replaces_backendtlspolicy_v1alpha2() {
    let old = backendtlspolicies(json!([version(
        "v1alpha2",
        true,
        true,
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "targetRef": {"type": "object"}, "tls": {"type": "object"}
        }}}})
    )]));
    let new = backendtlspolicies(json!([version(
        "v1alpha3",
        true,
        true,
        json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "targetRefs": {"type": "array", "items": {"type": "object"}},
            "validation": {"type": "object"}
        }}}})
    )]));
    let report = run(&old, &new, &DiffOptions::default());
    assert_eq!(
        summary(&report),
        vec![
            (
                "version-removed-served",
                Error,
                Some("v1alpha2"),
                None,
                None
            ),
            (
                "version-removed-stored",
                Error,
                Some("v1alpha2"),
                None,
                None
            ),
            (
                "storage-version-changed",
                Warning,
                Some("v1alpha3"),
                None,
                None
            ),
            ("version-added", Info, Some("v1alpha3"), None, None),
        ]
    );
}

/// The same field rename within one version, as if v1alpha2 had kept its
/// name: `spec.tls` removed (its values pruned), `spec.validation` added.
#[test]
fn gateway_api_backendtlspolicy_rename_within_a_version() {
    let policy = |field: &str| {
        backendtlspolicies(json!([version(
            "v1alpha2",
            true,
            true,
            json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
                field: {"type": "object", "properties": {"hostname": {"type": "string"}}}
            }}}})
        )]))
    };
    let report = run(
        &policy("tls"),
        &policy("validation"),
        &DiffOptions::default(),
    );
    assert_eq!(
        summary(&report),
        vec![
            (
                "field-removed",
                Error,
                Some("v1alpha2"),
                Some("spec.tls"),
                None
            ),
            (
                "field-added",
                Info,
                Some("v1alpha2"),
                None,
                Some("spec.validation")
            ),
        ]
    );
}

/// prometheus-operator v0.38.0 to a current release (both in the corpus;
/// `tests/tests/integration/diff_corpus.rs` diffs the real files): ServiceMonitor's
/// relabeling `action` gets an enum and a default `replace`, the endpoint
/// `scheme` an enum, the `SecretKeySelector`s become atomic structs (with a
/// default empty `name`), and the status subresource appears.
#[test]
fn prometheus_operator_v0_38_to_current_servicemonitor() {
    let servicemonitor = |current: bool| {
        let (action, scheme, secret, subresources) = if current {
            (
                json!({"type": "string", "default": "replace",
                       "enum": ["replace", "Replace", "keep", "Keep", "drop", "Drop"]}),
                json!({"type": "string", "enum": ["http", "https", "HTTP", "HTTPS"]}),
                json!({"type": "object", "required": ["key"], "x-kubernetes-map-type": "atomic",
                       "properties": {"key": {"type": "string"}, "name": {"type": "string", "default": ""}}}),
                json!({"status": {}}),
            )
        } else {
            (
                json!({"type": "string"}),
                json!({"type": "string"}),
                json!({"type": "object", "required": ["key"],
                       "properties": {"key": {"type": "string"}, "name": {"type": "string"}}}),
                json!({}),
            )
        };
        let mut v = version(
            "v1",
            true,
            true,
            json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
                "endpoints": {"type": "array", "items": {"type": "object", "properties": {
                    "scheme": scheme,
                    "bearerTokenSecret": secret,
                    "relabelings": {"type": "array", "items": {"type": "object", "properties": {
                        "action": action
                    }}}
                }}}
            }}}}),
        );
        v["subresources"] = subresources;
        crd(
            "servicemonitors.monitoring.coreos.com",
            "monitoring.coreos.com",
            "ServiceMonitor",
            "servicemonitors",
            json!([v]),
        )
    };
    let report = run(
        &servicemonitor(false),
        &servicemonitor(true),
        &DiffOptions::default(),
    );
    let at = |p: &'static str| (Some(p), Some(p));
    let secret = at("spec.endpoints[*].bearerTokenSecret");
    let name = at("spec.endpoints[*].bearerTokenSecret.name");
    let action = at("spec.endpoints[*].relabelings[*].action");
    let scheme = at("spec.endpoints[*].scheme");
    let v1 = Some("v1");
    assert_eq!(
        summary(&report),
        vec![
            ("status-subresource-added", Warning, v1, None, None),
            ("map-type-changed", Warning, v1, secret.0, secret.1),
            ("default-added", Warning, v1, name.0, name.1),
            ("default-added", Warning, v1, action.0, action.1),
            ("enum-added", Warning, v1, action.0, action.1),
            ("enum-added", Warning, v1, scheme.0, scheme.1),
        ]
    );
    assert!(
        report
            .findings
            .iter()
            .filter(|f| f.rule == "enum-added")
            .all(|f| f.ratcheted)
    );
}
