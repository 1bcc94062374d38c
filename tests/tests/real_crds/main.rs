//! Real CRDs reproduced from hand-written Rust types: cert-manager's
//! `Certificate` and prometheus-operator's `PrometheusRule`, written with
//! `#[derive(StructuralSchema)]` as an operator author would write them
//! (doc comments for descriptions, `#[schema(...)]` for the markers).
//!
//! The derived schemas must equal the published ones (read in place from
//! the shared corpus) exactly, as JSON values. The only normalization is
//! the order of object keys: the derive writes properties in field order
//! and the wire model's keys in the Go struct's order, controller-gen
//! writes both sorted. Arrays (`required`, `enum`, list-map keys) compare
//! in order.
//!
//! A sample of each resource also goes through the API server's create
//! admission of the published CRD (pruning, defaulting, value validation,
//! CEL) unchanged, and deserializes back to the same Rust value.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cert_manager;
mod k8s;
mod prometheus;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use schema_core::StructuralSchema;
use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::CustomResourceDefinition;
use schema_core::model::wire::input::{Input, read_input_owned};
use schema_core::object::admission::{Admission, Admitted};
use schema_core::rust::schema_for;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

const CERTIFICATES: &str = "cert-manager/cert-manager.io_certificates.yaml";
const PROMETHEUS_RULES: &str = "prometheus-operator/monitoring.coreos.com_prometheusrules.yaml";

/// Where the first version's schema is in a CRD document.
const SCHEMA: &str = "/spec/versions/0/schema/openAPIV3Schema";

/// A published CRD, read with the project's YAML reader: the document as
/// JSON and its decoded form. `None` without the shared corpus.
struct Published {
    doc: Value,
    crd: CustomResourceDefinition,
}

fn published(rel: &str) -> Option<Published> {
    let dir = tests::corpus_dir()?;
    let bytes = std::fs::read(dir.join(rel)).unwrap();
    let mut docs = parse_documents(rel, &bytes, &Limits::default()).unwrap();
    assert_eq!(docs.len(), 1, "{rel}: one document expected");
    let doc = docs.remove(0).value;
    let (input, _) = read_input_owned(doc.clone()).unwrap();
    let Input::CrdV1(crd) = input else {
        panic!("{rel}: not a v1 CRD");
    };
    Some(Published { doc, crd: *crd })
}

impl Published {
    /// The published JSON at `pointer` (RFC 6901).
    fn at(&self, pointer: &str) -> &Value {
        self.doc
            .pointer(pointer)
            .unwrap_or_else(|| panic!("the published CRD has nothing at {pointer}"))
    }

    /// Asserts that `derived` equals the published JSON at `pointer` (`""`
    /// for the whole CRD), object key order aside; on a mismatch, lists
    /// the first differences by JSON pointer.
    #[track_caller]
    fn assert_same(&self, pointer: &str, derived: &Value) {
        let want = self.at(pointer);
        let mut diffs = Vec::new();
        diff(pointer, derived, want, ["derived", "published"], &mut diffs);
        if diffs.is_empty() {
            return;
        }
        let mut msg = format!(
            "the derived schema differs from the published one at {pointer} ({} differences):\n",
            diffs.len()
        );
        for d in diffs.iter().take(20) {
            writeln!(msg, "  {d}").unwrap();
        }
        if diffs.len() > 20 {
            writeln!(msg, "  ...").unwrap();
        }
        panic!("{msg}");
    }

    /// Asserts that the schema of `T` equals the published JSON at `pointer`.
    #[track_caller]
    fn assert_schema<T: StructuralSchema>(&self, pointer: &str) {
        let derived = match schema_for::<T>() {
            Ok(s) => s.to_value(),
            Err(e) => panic!("schema_for::<{}> failed:\n{e}", T::schema_name()),
        };
        self.assert_same(pointer, &derived);
    }

    /// Create admission of the object `{apiVersion, kind, metadata, spec}`
    /// as the CRD's first version, returning the object sent and what
    /// admission made of it.
    fn create<T: Serialize>(&self, spec: &T) -> (Value, Admitted) {
        let group = self.at("/spec/group").as_str().unwrap();
        let version = self.at("/spec/versions/0/name").as_str().unwrap();
        let obj = json!({
            "apiVersion": format!("{group}/{version}"),
            "kind": self.at("/spec/names/kind"),
            "metadata": {"name": "sample", "namespace": "default"},
            "spec": serde_json::to_value(spec).unwrap(),
        });
        let admission = Admission::for_crd(&self.crd, version).unwrap();
        let admitted = admission.create(obj.clone());
        (obj, admitted)
    }

    /// [`Published::create`] must pass unchanged (no errors, nothing
    /// pruned or defaulted), and the spec must read back as `spec`.
    #[track_caller]
    fn admit_spec<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(&self, spec: &T) {
        let (obj, admitted) = self.create(spec);
        assert_admitted(&admitted, &obj);
        let back: T = serde_json::from_value(admitted.object["spec"].clone()).unwrap();
        assert_eq!(&back, spec);
    }

    /// The errors of [`Published::create`].
    fn spec_errors<T: Serialize>(&self, spec: &T) -> Vec<String> {
        let (_, admitted) = self.create(spec);
        admitted.errors.iter().map(ToString::to_string).collect()
    }

    /// Admission of `value` against the published schema at `pointer`
    /// (the status, which create admission of a resource drops): it must
    /// pass unchanged and read back as `value`.
    #[track_caller]
    fn admit_at<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(
        &self,
        pointer: &str,
        value: &T,
    ) {
        let json = serde_json::to_value(value).unwrap();
        let (input, _) = read_input_owned(self.at(pointer).clone()).unwrap();
        let Input::Schema(schema) = input else {
            panic!("{pointer}: not a schema");
        };
        let admission = Admission::for_schema(&schema).unwrap();
        let admitted = admission.create(json.clone());
        assert_admitted(&admitted, &json);
        let back: T = serde_json::from_value(admitted.object).unwrap();
        assert_eq!(&back, value);
    }
}

#[track_caller]
fn assert_admitted(admitted: &Admitted, sent: &Value) {
    let errors: Vec<String> = admitted.errors.iter().map(ToString::to_string).collect();
    assert!(errors.is_empty(), "rejected: {errors:#?}");
    assert!(admitted.pruned.is_empty(), "pruned: {:?}", admitted.pruned);
    // The server sets a created resource's generation to 1.
    let mut got = admitted.object.clone();
    if sent.get("metadata").is_some() && sent.pointer("/metadata/generation").is_none() {
        assert_eq!(
            got.pointer("/metadata/generation"),
            Some(&serde_json::json!(1)),
            "a created resource has generation 1"
        );
        if let Some(meta) = got.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.remove("generation");
        }
    }
    let mut diffs = Vec::new();
    diff("", &got, sent, ["admitted", "sent"], &mut diffs);
    assert!(diffs.is_empty(), "admission changed the object: {diffs:#?}");
}

/// The differences between `got` and `want` below `at`, as
/// `pointer: what` lines (`names`: what `got` and `want` are). Objects
/// compare by key (order aside), arrays element by element.
fn diff(at: &str, got: &Value, want: &Value, names: [&str; 2], out: &mut Vec<String>) {
    let [g_name, w_name] = names;
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => {
            let keys: BTreeSet<&String> = g.keys().chain(w.keys()).collect();
            for k in keys {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                match (g.get(k), w.get(k)) {
                    (Some(a), Some(b)) => diff(&p, a, b, names, out),
                    (Some(a), None) => out.push(format!("{p}: only {g_name}: {}", short(a))),
                    (None, Some(b)) => out.push(format!("{p}: only {w_name}: {}", short(b))),
                    (None, None) => {}
                }
            }
        }
        (Value::Array(g), Value::Array(w)) if g.len() == w.len() => {
            for (i, (a, b)) in g.iter().zip(w).enumerate() {
                diff(&format!("{at}/{i}"), a, b, names, out);
            }
        }
        _ if got == want => {}
        _ => out.push(format!(
            "{at}: {g_name} {}, {w_name} {}",
            short(got),
            short(want)
        )),
    }
}

/// A value for a message, cut to a readable length.
fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 160 {
        format!("{}...", s.chars().take(160).collect::<String>())
    } else {
        s
    }
}

// ---------------------------------------------------------------------------
// cert-manager: Certificate
// ---------------------------------------------------------------------------

#[test]
fn certificate_spec_equals_published() {
    let Some(p) = published(CERTIFICATES) else {
        return;
    };
    p.assert_schema::<cert_manager::CertificateSpec>(&format!("{SCHEMA}/properties/spec"));
}

#[test]
fn certificate_status_equals_published() {
    let Some(p) = published(CERTIFICATES) else {
        return;
    };
    p.assert_schema::<cert_manager::CertificateStatus>(&format!("{SCHEMA}/properties/status"));
}

fn sample_certificate() -> cert_manager::CertificateSpec {
    use cert_manager::*;
    CertificateSpec {
        subject: Some(X509Subject {
            organizations: vec!["Example Corp".into()],
            countries: vec!["DE".into()],
            serial_number: Some("1234".into()),
            ..X509Subject::default()
        }),
        common_name: Some("example.com".into()),
        duration: Some(k8s::Duration("2160h".into())),
        renew_before_percentage: Some(25),
        dns_names: vec!["example.com".into(), "www.example.com".into()],
        ip_addresses: vec!["192.0.2.10".into()],
        other_names: vec![OtherName {
            oid: Some("1.3.6.1.4.1.311.20.2.3".into()),
            utf8_value: Some("upn@example.com".into()),
        }],
        secret_name: "example-tls".into(),
        secret_template: Some(CertificateSecretTemplate {
            annotations: [("team".to_string(), "web".to_string())].into(),
            labels: [("app".to_string(), "web".to_string())].into(),
        }),
        keystores: Some(CertificateKeystores {
            jks: None,
            pkcs12: Some(Pkcs12Keystore {
                create: true,
                password_secret_ref: Some(SecretKeySelector {
                    local: LocalObjectReference {
                        name: "keystore-password".into(),
                    },
                    key: Some("password".into()),
                }),
                password: None,
                profile: Some(Pkcs12Profile::Modern2023),
            }),
        }),
        issuer_ref: IssuerReference {
            name: "letsencrypt".into(),
            kind: Some("ClusterIssuer".into()),
            group: Some("cert-manager.io".into()),
        },
        is_ca: Some(false),
        usages: vec![
            KeyUsage::DigitalSignature,
            KeyUsage::KeyEncipherment,
            KeyUsage::ServerAuth,
        ],
        private_key: Some(CertificatePrivateKey {
            rotation_policy: Some(PrivateKeyRotationPolicy::Always),
            encoding: Some(PrivateKeyEncoding::Pkcs8),
            algorithm: Some(PrivateKeyAlgorithm::Ecdsa),
            size: Some(384),
        }),
        signature_algorithm: Some(SignatureAlgorithm::EcdsaWithSha384),
        revision_history_limit: Some(3),
        additional_output_formats: vec![CertificateAdditionalOutputFormat {
            type_: CertificateOutputFormatType::CombinedPem,
        }],
        renewal: Some(CertificateRenewal {
            policy: Some(RenewalPolicy::RenewBefore),
            windows: vec![CertificateRenewalWindows {
                cron: "0 2 * * 1-5".into(),
                window_duration: k8s::Duration("2h30m".into()),
                timezone: Some("Europe/Berlin".into()),
            }],
        }),
        ..CertificateSpec::default()
    }
}

#[test]
fn certificate_round_trip() {
    let Some(p) = published(CERTIFICATES) else {
        return;
    };
    p.admit_spec(&sample_certificate());
    // The published schema does validate what the types let through.
    let mut late = sample_certificate();
    late.renewal.as_mut().unwrap().windows[0].window_duration = k8s::Duration("2 hours".into());
    assert_eq!(
        p.spec_errors(&late),
        [
            r#"spec.renewal.windows[0].windowDuration: Invalid value: "2 hours": spec.renewal.windows[0].windowDuration in body should match '^([0-9]+(\.[0-9]+)?(s|m|h))+$'"#
        ]
    );
    let status = cert_manager::CertificateStatus {
        conditions: vec![cert_manager::CertificateCondition {
            type_: "Ready".into(),
            status: cert_manager::ConditionStatus::True,
            last_transition_time: Some(k8s::Time("2026-01-02T03:04:05Z".into())),
            reason: Some("Ready".into()),
            message: Some("Certificate is up to date and has not expired".into()),
            observed_generation: Some(2),
        }],
        not_before: Some(k8s::Time("2026-01-02T03:04:05Z".into())),
        not_after: Some(k8s::Time("2026-04-02T03:04:05Z".into())),
        renewal_time: Some(k8s::Time("2026-03-03T03:04:05Z".into())),
        revision: Some(2),
        acme: Some(cert_manager::CertificateAcmeStatus {
            ari: Some(cert_manager::CertificateAriStatus {
                suggested_window: Some(cert_manager::SuggestedWindow {
                    start: k8s::Time("2026-03-01T00:00:00Z".into()),
                    end: k8s::Time("2026-03-03T00:00:00Z".into()),
                }),
                explanation_url: Some("https://acme.example/ari".into()),
                ..Default::default()
            }),
        }),
        ..Default::default()
    };
    p.admit_at(&format!("{SCHEMA}/properties/status"), &status);
}

// ---------------------------------------------------------------------------
// prometheus-operator: PrometheusRule
// ---------------------------------------------------------------------------

#[test]
fn prometheus_rule_spec_equals_published() {
    let Some(p) = published(PROMETHEUS_RULES) else {
        return;
    };
    p.assert_schema::<prometheus::PrometheusRuleSpec>(&format!("{SCHEMA}/properties/spec"));
}

#[test]
fn prometheus_rule_status_equals_published() {
    let Some(p) = published(PROMETHEUS_RULES) else {
        return;
    };
    p.assert_schema::<prometheus::ConfigResourceStatus>(&format!("{SCHEMA}/properties/status"));
}

#[test]
fn prometheus_rule_round_trip() {
    use prometheus::*;
    let Some(p) = published(PROMETHEUS_RULES) else {
        return;
    };
    let spec = PrometheusRuleSpec {
        groups: vec![RuleGroup {
            name: "node.rules".into(),
            labels: [("team".to_string(), "infra".to_string())].into(),
            interval: Some(Duration("30s".into())),
            query_offset: Some(Duration("1m".into())),
            partial_response_strategy: Some("warn".into()),
            limit: Some(100),
            rules: vec![
                Rule {
                    record: Some("instance:node_cpu:rate5m".into()),
                    alert: None,
                    expr: k8s::IntOrString::String(
                        "rate(node_cpu_seconds_total{mode!=\"idle\"}[5m])".into(),
                    ),
                    for_: None,
                    keep_firing_for: None,
                    labels: BTreeMap::new(),
                    annotations: BTreeMap::new(),
                },
                Rule {
                    record: None,
                    alert: Some("AlwaysFiring".into()),
                    expr: k8s::IntOrString::Int(1),
                    for_: Some(Duration("5m".into())),
                    keep_firing_for: Some(NonEmptyDuration("10m".into())),
                    labels: [("severity".to_string(), "info".to_string())].into(),
                    annotations: [("summary".to_string(), "Always firing.".to_string())].into(),
                },
            ],
        }],
    };
    p.admit_spec(&spec);
    let status = ConfigResourceStatus {
        bindings: vec![WorkloadBinding {
            group: WorkloadGroup::MonitoringCoreosCom,
            resource: WorkloadResource::Prometheuses,
            name: "k8s".into(),
            namespace: "monitoring".into(),
            conditions: vec![ConfigResourceCondition {
                type_: ConditionType::Accepted,
                status: "True".into(),
                last_transition_time: k8s::Time("2026-01-02T03:04:05Z".into()),
                reason: None,
                message: Some("the rules were accepted".into()),
                observed_generation: Some(1),
            }],
        }],
    };
    p.admit_at(&format!("{SCHEMA}/properties/status"), &status);
}

/// The whole CRD `crd()` builds from the types equals the published
/// `spec` (names, scope, versions, printer columns, selectable fields,
/// subresources and the root schema); the published `metadata` only adds
/// controller-gen's annotations.
#[test]
fn certificate_crd_equals_published() {
    let Some(p) = published("cert-manager/cert-manager.io_certificates.yaml") else {
        return;
    };
    let crd = <cert_manager::Certificate as schema_core::rust::CustomResource>::crd()
        .unwrap_or_else(|e| panic!("{e}"));
    p.assert_same(
        "/spec",
        &schema_core::model::wire::codec::Wire::encode(&crd)["spec"],
    );
    assert_eq!(crd.name(), Some("certificates.cert-manager.io"));
}

#[test]
fn prometheus_rule_crd_equals_published() {
    let Some(p) = published("prometheus-operator/monitoring.coreos.com_prometheusrules.yaml")
    else {
        return;
    };
    let crd = <prometheus::PrometheusRule as schema_core::rust::CustomResource>::crd()
        .unwrap_or_else(|e| panic!("{e}"));
    p.assert_same(
        "/spec",
        &schema_core::model::wire::codec::Wire::encode(&crd)["spec"],
    );
    assert_eq!(crd.name(), Some("prometheusrules.monitoring.coreos.com"));
}
