//! Real CRDs reproduced from hand-written Rust types, written with
//! `#[derive(StructuralSchema)]` as an operator author would write them
//! from the Go API types' fields and markers (doc comments of their own,
//! `#[schema(...)]` for the markers). Each module names the upstream Go
//! files it follows.
//!
//! The derived CRDs must equal the published ones (read in place from the
//! shared corpus) node by node, as JSON values, except for descriptions:
//! the doc comments here are this crate's, not upstream's prose, so every
//! `description` text is left out on both sides ([`strip_descriptions`]).
//! The other normalization is the order of object keys: the derive writes
//! properties in field order and the wire model's keys in the Go struct's
//! order, controller-gen writes both sorted. Arrays (`required`, `enum`,
//! list-map keys) compare in order. A failure lists the differing JSON
//! pointers with both values.
//!
//! A sample of each resource also goes through the API server's create
//! admission of the published CRD (pruning, defaulting, value validation,
//! CEL) unchanged, and deserializes back to the same Rust value.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cert_manager;
mod cluster_api;
mod flux;
mod gateway;
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
const KUSTOMIZATIONS: &str = "flux/kustomize.toolkit.fluxcd.io_kustomizations.yaml";

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
        let mut want = self.at(pointer).clone();
        let mut derived = derived.clone();
        strip_descriptions(&mut want);
        strip_descriptions(&mut derived);
        let mut diffs = Vec::new();
        diff(
            pointer,
            &derived,
            &want,
            ["derived", "published"],
            &mut diffs,
        );
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
        let admission =
            Admission::for_crd(&self.crd, version, &schema_core::Options::default()).unwrap();
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
        let admission = Admission::for_schema(&schema, &schema_core::Options::default()).unwrap();
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

/// Removes every `description` text below `v`: the schema nodes' and the
/// printer columns'. The types here carry doc comments of their own, so
/// descriptions are the one part of a published CRD they do not
/// reproduce. A property named `description` is an object (a schema), so
/// it stays.
fn strip_descriptions(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if matches!(m.get("description"), Some(Value::String(_))) {
                m.remove("description");
            }
            m.values_mut().for_each(strip_descriptions);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_descriptions),
        _ => {}
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

// ---------------------------------------------------------------------------
// Flux: Kustomization
// ---------------------------------------------------------------------------

/// The whole CRD equals the published `spec`, and the CRD's own
/// annotation (controller-gen's `+kubebuilder:metadata:annotations`) is
/// there too.
#[test]
fn kustomization_crd_equals_published() {
    let Some(p) = published(KUSTOMIZATIONS) else {
        return;
    };
    let crd = <flux::Kustomization as schema_core::rust::CustomResource>::crd()
        .unwrap_or_else(|e| panic!("{e}"));
    let derived = schema_core::model::wire::codec::Wire::encode(&crd);
    p.assert_same("/spec", &derived["spec"]);
    assert_eq!(
        crd.name(),
        Some("kustomizations.kustomize.toolkit.fluxcd.io")
    );
    let mut want = p.at("/metadata/annotations").clone();
    want.as_object_mut()
        .unwrap()
        .remove("controller-gen.kubebuilder.io/version");
    assert_eq!(derived["metadata"]["annotations"], want);
}

fn sample_kustomization() -> flux::KustomizationSpec {
    use flux::*;
    KustomizationSpec {
        common_metadata: Some(CommonMetadata {
            annotations: BTreeMap::new(),
            labels: [("app.kubernetes.io/part-of".to_string(), "shop".to_string())].into(),
        }),
        depends_on: vec![DependencyReference {
            name: "infra-controllers".into(),
            namespace: Some("flux-system".into()),
            ready_expr: Some("self.status.conditions.exists(c, c.type == 'Ready')".into()),
        }],
        decryption: Some(Decryption {
            provider: DecryptionProvider::Sops,
            service_account_name: None,
            secret_ref: Some(LocalObjectReference {
                name: "sops-age".into(),
            }),
        }),
        interval: k8s::Duration("10m".into()),
        retry_interval: Some(k8s::Duration("1m30s".into())),
        kube_config: Some(KubeConfigReference {
            config_map_ref: None,
            secret_ref: Some(SecretKeyReference {
                name: "staging-kubeconfig".into(),
                key: Some("value.yaml".into()),
            }),
        }),
        path: Some("./apps/staging".into()),
        post_build: Some(PostBuild {
            substitute_strategy: Some(SubstituteStrategy::Always),
            substitute: [("cluster_env".to_string(), "staging".to_string())].into(),
            substitute_from: vec![SubstituteReference {
                kind: SubstituteKind::ConfigMap,
                name: "cluster-vars".into(),
                optional: true,
            }],
        }),
        prune: true,
        deletion_policy: Some(DeletionPolicy::WaitForTermination),
        health_checks: vec![NamespacedObjectKindReference {
            api_version: Some("apps/v1".into()),
            kind: "Deployment".into(),
            name: "frontend".into(),
            namespace: Some("shop".into()),
        }],
        name_prefix: Some("staging-".into()),
        patches: vec![Patch {
            patch: "- op: replace\n  path: /spec/replicas\n  value: 2\n".into(),
            target: Some(Selector {
                kind: Some("Deployment".into()),
                label_selector: Some("app in (frontend,backend)".into()),
                ..Selector::default()
            }),
        }],
        images: vec![Image {
            name: "ghcr.io/example/frontend".into(),
            new_tag: Some("1.4.2".into()),
            ..Image::default()
        }],
        source_ref: CrossNamespaceSourceReference {
            api_version: None,
            kind: SourceKind::OciRepository,
            name: "shop-manifests".into(),
            namespace: Some("flux-system".into()),
        },
        target_namespace: Some("shop".into()),
        timeout: Some(k8s::Duration("5m".into())),
        force: false,
        wait: Some(true),
        build_metadata: vec![BuildMetadataOption::OriginAnnotations],
        components: vec!["../components/monitoring".into()],
        ignore_missing_components: Some(true),
        health_check_exprs: vec![CustomHealthCheck {
            api_version: "cert-manager.io/v1".into(),
            kind: Some("Certificate".into()),
            expressions: HealthCheckExpressions {
                current:
                    "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')"
                        .into(),
                in_progress: None,
                failed: Some(
                    "status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')"
                        .into(),
                ),
            },
        }],
        ignore: vec![IgnoreRule {
            paths: vec!["/spec/replicas".into()],
            target: Some(Selector {
                kind: Some("Deployment".into()),
                ..Selector::default()
            }),
        }],
        name_suffix: None,
        service_account_name: Some("shop-deployer".into()),
        suspend: Some(false),
    }
}

#[test]
fn kustomization_round_trip() {
    use flux::*;
    let Some(p) = published(KUSTOMIZATIONS) else {
        return;
    };
    p.admit_spec(&sample_kustomization());

    // The published schema checks what the types let through: both
    // kubeconfig references at once, and an interval Go cannot parse.
    let mut both = sample_kustomization();
    both.kube_config.as_mut().unwrap().config_map_ref = Some(LocalObjectReference {
        name: "staging-cluster".into(),
    });
    both.interval = k8s::Duration("1d".into());
    assert_eq!(
        p.spec_errors(&both),
        [
            r#"spec.interval: Invalid value: "1d": spec.interval in body should match '^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$'"#,
            r#"spec.kubeConfig: Invalid value: exactly one of spec.kubeConfig.configMapRef or spec.kubeConfig.secretRef must be specified"#,
        ]
    );

    let time = |s: &str| k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(s.parse().unwrap());
    let status = KustomizationStatus {
        reconcile_request: ReconcileRequestStatus {
            last_handled_reconcile_at: Some("2026-01-02T03:00:00Z".into()),
        },
        observed_generation: Some(3),
        conditions: vec![k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition {
            type_: "Ready".into(),
            status: "True".into(),
            last_transition_time: time("2026-01-02T03:04:05Z"),
            reason: "ReconciliationSucceeded".into(),
            message: "Applied revision: latest@sha256:0123abcd".into(),
            observed_generation: Some(3),
        }],
        last_applied_revision: Some("latest@sha256:0123abcd".into()),
        last_applied_origin_revision: Some("main@sha1:89ab".into()),
        last_attempted_revision: Some("latest@sha256:0123abcd".into()),
        inventory: Some(ResourceInventory {
            entries: vec![ResourceRef {
                id: "shop_frontend_apps_Deployment".into(),
                version: "v1".into(),
            }],
        }),
        history: vec![Snapshot {
            digest: "sha256:4567ef".into(),
            first_reconciled: time("2026-01-01T00:00:00Z"),
            last_reconciled: time("2026-01-02T03:04:05Z"),
            last_reconciled_duration: k8s::Duration("2.5s".into()),
            last_reconciled_status: "ReconciliationSucceeded".into(),
            total_reconciliations: 7,
            metadata: [("revision".to_string(), "latest@sha256:0123abcd".to_string())].into(),
        }],
    };
    p.admit_at(&format!("{SCHEMA}/properties/status"), &status);
}

// ---------------------------------------------------------------------------
// Gateway API: HTTPRoute (v1 stored, v1beta1 served)
// ---------------------------------------------------------------------------

const HTTP_ROUTES: &str = "gateway-api/gateway.networking.k8s.io_httproutes.yaml";

/// Both versions' CRDs merged, in the published order (v1, then v1beta1).
fn http_route_crd() -> CustomResourceDefinition {
    use schema_core::rust::{CustomResource, merge_crds};
    let v1 = gateway::v1::HTTPRoute::crd().unwrap_or_else(|e| panic!("v1: {e}"));
    let v1beta1 = gateway::v1beta1::HTTPRoute::crd().unwrap_or_else(|e| panic!("v1beta1: {e}"));
    merge_crds(&[v1, v1beta1]).unwrap_or_else(|e| panic!("{e}"))
}

/// The whole merged CRD equals the published `spec`: names, scope, both
/// versions (served, storage, printer columns, subresources) and both
/// schemas.
#[test]
fn http_route_crd_equals_published() {
    let Some(p) = published(HTTP_ROUTES) else {
        return;
    };
    let crd = http_route_crd();
    p.assert_same(
        "/spec",
        &schema_core::model::wire::codec::Wire::encode(&crd)["spec"],
    );
    // The name and gateway-api's annotations (API approval, bundle
    // version, channel), which the Go types carry no marker for.
    p.assert_same(
        "/metadata",
        &schema_core::model::wire::codec::Wire::encode(&crd)["metadata"],
    );
}

/// A route in front of a shop: two listeners of one Gateway, an API rule
/// with header, query and method matches, header edits, CORS, timeouts and
/// a weighted canary; a redirect of an old path; a rewritten and mirrored
/// legacy API. Every defaulted field is written out, so that admission has
/// nothing to add.
fn sample_http_route() -> gateway::v1::HTTPRouteSpec {
    use gateway::v1::*;
    let service = |name: &str, port: i32| BackendObjectReference {
        group: Some(Group(String::new())),
        kind: Some(Kind("Service".into())),
        name: ObjectName(name.into()),
        namespace: None,
        port: Some(port),
    };
    let backend =
        |name: &str, port: i32, weight: i32, filters: Vec<HTTPRouteFilter>| HTTPBackendRef {
            backend_ref: BackendRef {
                object: service(name, port),
                weight: Some(weight),
            },
            filters,
        };
    let filter = |type_: HTTPRouteFilterType| HTTPRouteFilter {
        type_,
        request_header_modifier: None,
        response_header_modifier: None,
        request_mirror: None,
        request_redirect: None,
        url_rewrite: None,
        cors: None,
        extension_ref: None,
    };
    let path = |type_: PathMatchType, value: &str| HTTPPathMatch {
        type_: Some(type_),
        value: Some(value.into()),
    };
    let listener = |section: &str| ParentReference {
        group: Some(Group("gateway.networking.k8s.io".into())),
        kind: Some(Kind("Gateway".into())),
        namespace: Some(Namespace("infra".into())),
        name: ObjectName("public".into()),
        section_name: Some(SectionName(section.into())),
        port: None,
    };
    HTTPRouteSpec {
        common: CommonRouteSpec {
            parent_refs: vec![listener("https"), listener("http")],
        },
        hostnames: vec![
            Hostname("shop.example.com".into()),
            Hostname("*.shop.example.com".into()),
        ],
        rules: vec![
            HTTPRouteRule {
                name: Some(SectionName("api".into())),
                matches: vec![HTTPRouteMatch {
                    path: Some(path(PathMatchType::PathPrefix, "/api")),
                    headers: vec![HTTPHeaderMatch {
                        type_: Some(HeaderMatchType::Exact),
                        name: HeaderName("X-Canary".into()),
                        value: "always".into(),
                    }],
                    query_params: vec![HTTPQueryParamMatch {
                        type_: Some(QueryParamMatchType::RegularExpression),
                        name: HeaderName("lang".into()),
                        value: "^(de|en)$".into(),
                    }],
                    method: Some(HTTPMethod::Get),
                }],
                filters: vec![
                    HTTPRouteFilter {
                        request_header_modifier: Some(HTTPHeaderFilter {
                            set: vec![HTTPHeader {
                                name: HeaderName("X-Forwarded-Prefix".into()),
                                value: "/api".into(),
                            }],
                            add: vec![HTTPHeader {
                                name: HeaderName("Via".into()),
                                value: "1.1 shop-gateway".into(),
                            }],
                            remove: vec!["X-Debug".into()],
                        }),
                        ..filter(HTTPRouteFilterType::RequestHeaderModifier)
                    },
                    HTTPRouteFilter {
                        cors: Some(HTTPCORSFilter {
                            allow_origins: vec![
                                CORSOrigin("https://shop.example.com".into()),
                                CORSOrigin("https://*.example.com".into()),
                            ],
                            allow_credentials: Some(true),
                            allow_methods: vec![
                                HTTPMethodWithWildcard::Get,
                                HTTPMethodWithWildcard::Post,
                                HTTPMethodWithWildcard::Options,
                            ],
                            allow_headers: vec![HeaderName("Content-Type".into())],
                            expose_headers: vec![HeaderName("X-Request-Id".into())],
                            max_age: Some(600),
                        }),
                        ..filter(HTTPRouteFilterType::Cors)
                    },
                ],
                backend_refs: vec![
                    backend("shop-api", 8080, 90, Vec::new()),
                    backend(
                        "shop-api-canary",
                        8080,
                        10,
                        vec![HTTPRouteFilter {
                            response_header_modifier: Some(HTTPHeaderFilter {
                                set: vec![HTTPHeader {
                                    name: HeaderName("X-Canary".into()),
                                    value: "served".into(),
                                }],
                                ..HTTPHeaderFilter::default()
                            }),
                            ..filter(HTTPRouteFilterType::ResponseHeaderModifier)
                        }],
                    ),
                ],
                timeouts: Some(HTTPRouteTimeouts {
                    request: Some(Duration("10s".into())),
                    backend_request: Some(Duration("2s500ms".into())),
                }),
            },
            HTTPRouteRule {
                name: Some(SectionName("old-catalog".into())),
                matches: vec![HTTPRouteMatch {
                    path: Some(path(PathMatchType::Exact, "/catalog.html")),
                    ..HTTPRouteMatch::default()
                }],
                filters: vec![HTTPRouteFilter {
                    request_redirect: Some(HTTPRequestRedirectFilter {
                        scheme: Some("https".into()),
                        hostname: Some(PreciseHostname("shop.example.com".into())),
                        path: Some(HTTPPathModifier {
                            type_: HTTPPathModifierType::ReplaceFullPath,
                            replace_full_path: Some("/catalog".into()),
                            replace_prefix_match: None,
                        }),
                        port: Some(443),
                        status_code: Some(301),
                    }),
                    ..filter(HTTPRouteFilterType::RequestRedirect)
                }],
                backend_refs: Vec::new(),
                timeouts: None,
            },
            HTTPRouteRule {
                name: None,
                matches: vec![HTTPRouteMatch {
                    path: Some(path(PathMatchType::PathPrefix, "/v1")),
                    ..HTTPRouteMatch::default()
                }],
                filters: vec![
                    HTTPRouteFilter {
                        url_rewrite: Some(HTTPURLRewriteFilter {
                            hostname: Some(PreciseHostname("legacy.internal".into())),
                            path: Some(HTTPPathModifier {
                                type_: HTTPPathModifierType::ReplacePrefixMatch,
                                replace_full_path: None,
                                replace_prefix_match: Some("/v2".into()),
                            }),
                        }),
                        ..filter(HTTPRouteFilterType::UrlRewrite)
                    },
                    HTTPRouteFilter {
                        request_mirror: Some(HTTPRequestMirrorFilter {
                            backend_ref: service("shop-api-shadow", 8080),
                            percent: None,
                            fraction: Some(Fraction {
                                numerator: 1,
                                denominator: Some(20),
                            }),
                        }),
                        ..filter(HTTPRouteFilterType::RequestMirror)
                    },
                ],
                backend_refs: vec![backend("legacy-api", 80, 1, Vec::new())],
                timeouts: None,
            },
        ],
    }
}

#[test]
fn http_route_round_trip() {
    use gateway::v1::*;
    let Some(p) = published(HTTP_ROUTES) else {
        return;
    };
    p.admit_spec(&sample_http_route());

    // The published rules do hold what the types let through: a redirect
    // beside backends, and a rewrite of a prefix under an exact match.
    let mut bad = sample_http_route();
    bad.rules[1].backend_refs = bad.rules[0].backend_refs.clone();
    bad.rules[2].matches[0].path = Some(HTTPPathMatch {
        type_: Some(PathMatchType::Exact),
        value: Some("/v1".into()),
    });
    assert_eq!(
        p.spec_errors(&bad),
        [
            "spec.rules[1]: Invalid value: RequestRedirect filter must not be used together with backendRefs",
            "spec.rules[2]: Invalid value: When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified",
        ]
    );

    let status: HTTPRouteStatus = serde_json::from_value(json!({
        "parents": [{
            "parentRef": {
                "group": "gateway.networking.k8s.io",
                "kind": "Gateway",
                "namespace": "infra",
                "name": "public",
                "sectionName": "https",
            },
            "controllerName": "example.com/gateway-controller",
            "conditions": [
                {
                    "type": "Accepted",
                    "status": "True",
                    "reason": "Accepted",
                    "message": "Route is accepted",
                    "lastTransitionTime": "2026-01-02T03:04:05Z",
                    "observedGeneration": 1,
                },
                {
                    "type": "ResolvedRefs",
                    "status": "True",
                    "reason": "ResolvedRefs",
                    "message": "All references are resolved",
                    "lastTransitionTime": "2026-01-02T03:04:05Z",
                    "observedGeneration": 1,
                },
            ],
        }],
    }))
    .unwrap();
    p.admit_at(&format!("{SCHEMA}/properties/status"), &status);
}

/// The v1beta1 root object holds the v1 spec: a whole object of that
/// version passes the published v1beta1 schema unchanged.
#[test]
fn http_route_v1beta1_round_trip() {
    let Some(p) = published(HTTP_ROUTES) else {
        return;
    };
    let route = gateway::v1beta1::HTTPRoute {
        api_version: Some("gateway.networking.k8s.io/v1beta1".into()),
        kind: Some("HTTPRoute".into()),
        metadata: schema_core::rust::ObjectMeta {
            name: Some("shop".into()),
            namespace: Some("default".into()),
            ..Default::default()
        },
        spec: sample_http_route(),
        status: None,
    };
    let obj = serde_json::to_value(&route).unwrap();
    let admitted = Admission::for_crd(&p.crd, "v1beta1", &schema_core::Options::default())
        .unwrap()
        .create(obj.clone());
    assert_admitted(&admitted, &obj);
    let mut back: gateway::v1beta1::HTTPRoute = serde_json::from_value(admitted.object).unwrap();
    back.metadata.generation = None;
    assert_eq!(back, route);
}

// ---------------------------------------------------------------------------
// Cluster API: Cluster (v1beta1 and v1beta2)
// ---------------------------------------------------------------------------

const CLUSTERS: &str = "cluster-api/cluster.x-k8s.io_clusters.yaml";

/// Both versions, merged, equal the published CRD's `spec` as a whole:
/// names, scope, each version's flags (v1beta1 deprecated and not stored),
/// printer columns, subresources and schemas.
#[test]
fn cluster_crd_equals_published() {
    let Some(p) = published(CLUSTERS) else {
        return;
    };
    let crd = cluster_api::crd();
    p.assert_same(
        "/spec",
        &schema_core::model::wire::codec::Wire::encode(&crd)["spec"],
    );
    assert_eq!(crd.name(), Some("clusters.cluster.x-k8s.io"));
}

/// A `k8s-openapi` timestamp from RFC 3339 text.
fn capi_time(s: &str) -> k8s_openapi::apimachinery::pkg::apis::meta::v1::Time {
    k8s_openapi::apimachinery::pkg::apis::meta::v1::Time(s.parse().unwrap())
}

/// A topology-managed cluster as the stored version writes it: a class,
/// a control plane with health checks and taints, one MachineDeployment
/// and one MachinePool, variables of several JSON shapes.
fn sample_cluster_v1beta2() -> cluster_api::v1beta2::ClusterSpec {
    use cluster_api::v1beta2::*;
    use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
    let var = |name: &str, value: Value| ClusterVariable {
        name: name.into(),
        value,
    };
    ClusterSpec {
        paused: Some(false),
        cluster_network: Some(ClusterNetwork {
            api_server_port: Some(6443),
            services: Some(NetworkRanges {
                cidr_blocks: vec!["10.128.0.0/12".into()],
            }),
            pods: Some(NetworkRanges {
                cidr_blocks: vec!["192.168.0.0/16".into(), "fd00:10:244::/56".into()],
            }),
            service_domain: Some("cluster.local".into()),
        }),
        control_plane_endpoint: Some(ApiEndpoint {
            host: Some("api.prod-eu1.example.com".into()),
            port: Some(6443),
        }),
        control_plane_ref: Some(ContractVersionedObjectReference {
            kind: "KubeadmControlPlane".into(),
            name: "prod-eu1-cp".into(),
            api_group: "controlplane.cluster.x-k8s.io".into(),
        }),
        infrastructure_ref: Some(ContractVersionedObjectReference {
            kind: "DockerCluster".into(),
            name: "prod-eu1".into(),
            api_group: "infrastructure.cluster.x-k8s.io".into(),
        }),
        topology: Some(Topology {
            class_ref: ClusterClassRef {
                name: "quick-start".into(),
                namespace: Some("capi-classes".into()),
            },
            version: "v1.33.1".into(),
            control_plane: Some(ControlPlaneTopology {
                metadata: Some(ObjectMeta {
                    labels: [("tier".to_string(), "control-plane".to_string())].into(),
                    annotations: BTreeMap::new(),
                }),
                replicas: Some(3),
                rollout: Some(ControlPlaneTopologyRolloutSpec {
                    after: Some(capi_time("2026-03-01T00:00:00Z")),
                }),
                health_check: Some(ControlPlaneTopologyHealthCheck {
                    enabled: Some(true),
                    checks: Some(ControlPlaneTopologyHealthCheckChecks {
                        node_startup_timeout_seconds: Some(600),
                        unhealthy_node_conditions: vec![
                            UnhealthyNodeCondition {
                                type_: "Ready".into(),
                                status: "Unknown".into(),
                                timeout_seconds: 300,
                            },
                            UnhealthyNodeCondition {
                                type_: "Ready".into(),
                                status: "False".into(),
                                timeout_seconds: 300,
                            },
                        ],
                        unhealthy_machine_conditions: vec![UnhealthyMachineCondition {
                            type_: "example.com/NetworkReady".into(),
                            status: ConditionStatus::False,
                            timeout_seconds: 120,
                        }],
                    }),
                    remediation: Some(ControlPlaneTopologyHealthCheckRemediation {
                        trigger_if: Some(ControlPlaneTopologyHealthCheckRemediationTriggerIf {
                            unhealthy_less_than_or_equal_to: Some(IntOrString::Int(1)),
                            unhealthy_in_range: None,
                        }),
                        template_ref: None,
                    }),
                }),
                deletion: Some(ControlPlaneTopologyMachineDeletionSpec {
                    node_drain_timeout_seconds: Some(300),
                    node_volume_detach_timeout_seconds: Some(600),
                    node_deletion_timeout_seconds: Some(10),
                }),
                taints: vec![MachineTaint {
                    key: "node-role.kubernetes.io/control-plane".into(),
                    value: None,
                    effect: TaintEffect::NoSchedule,
                    propagation: MachineTaintPropagation::Always,
                }],
                readiness_gates: Vec::new(),
                variables: Some(ControlPlaneVariables {
                    overrides: vec![var("imageRepository", json!("registry.example.com/k8s"))],
                }),
            }),
            workers: Some(WorkersTopology {
                machine_deployments: vec![MachineDeploymentTopology {
                    class: "default-worker".into(),
                    name: "md-0".into(),
                    failure_domain: Some("eu-1a".into()),
                    replicas: Some(5),
                    health_check: Some(MachineDeploymentTopologyHealthCheck {
                        enabled: Some(true),
                        checks: Some(MachineDeploymentTopologyHealthCheckChecks {
                            node_startup_timeout_seconds: Some(900),
                            unhealthy_node_conditions: vec![UnhealthyNodeCondition {
                                type_: "Ready".into(),
                                status: "Unknown".into(),
                                timeout_seconds: 300,
                            }],
                            unhealthy_machine_conditions: Vec::new(),
                        }),
                        remediation: Some(MachineDeploymentTopologyHealthCheckRemediation {
                            max_in_flight: Some(IntOrString::String("20%".into())),
                            trigger_if: Some(
                                MachineDeploymentTopologyHealthCheckRemediationTriggerIf {
                                    unhealthy_less_than_or_equal_to: None,
                                    unhealthy_in_range: Some("[0-2]".into()),
                                },
                            ),
                            template_ref: Some(MachineHealthCheckRemediationTemplateReference {
                                kind: "Metal3RemediationTemplate".into(),
                                name: "md-0-remediation".into(),
                                api_version: "infrastructure.cluster.x-k8s.io/v1beta1".into(),
                            }),
                        }),
                    }),
                    deletion: Some(MachineDeploymentTopologyMachineDeletionSpec {
                        order: Some(MachineSetDeletionOrder::Oldest),
                        node_drain_timeout_seconds: Some(600),
                        node_volume_detach_timeout_seconds: None,
                        node_deletion_timeout_seconds: None,
                    }),
                    taints: vec![MachineTaint {
                        key: "example.com/dedicated".into(),
                        value: Some("batch".into()),
                        effect: TaintEffect::PreferNoSchedule,
                        propagation: MachineTaintPropagation::OnInitialization,
                    }],
                    min_ready_seconds: Some(30),
                    readiness_gates: vec![MachineReadinessGate {
                        condition_type: "example.com/StorageReady".into(),
                        polarity: None,
                    }],
                    rollout: Some(MachineDeploymentTopologyRolloutSpec {
                        after: None,
                        strategy: Some(MachineDeploymentTopologyRolloutStrategy {
                            type_: MachineDeploymentRolloutStrategyType::RollingUpdate,
                            rolling_update: Some(
                                MachineDeploymentTopologyRolloutStrategyRollingUpdate {
                                    max_unavailable: Some(IntOrString::Int(0)),
                                    max_surge: Some(IntOrString::Int(1)),
                                },
                            ),
                        }),
                    }),
                    variables: Some(MachineDeploymentVariables {
                        overrides: vec![var("workerMachineType", json!("m5.xlarge"))],
                    }),
                    ..MachineDeploymentTopology::default()
                }],
                machine_pools: vec![MachinePoolTopology {
                    class: "default-pool".into(),
                    name: "mp-0".into(),
                    failure_domains: vec!["eu-1a".into(), "eu-1b".into()],
                    deletion: Some(MachinePoolTopologyMachineDeletionSpec {
                        node_drain_timeout_seconds: Some(120),
                        ..MachinePoolTopologyMachineDeletionSpec::default()
                    }),
                    replicas: Some(2),
                    ..MachinePoolTopology::default()
                }],
            }),
            variables: vec![
                var("region", json!("eu-1")),
                var("highAvailability", json!(true)),
                var(
                    "etcd",
                    json!({"dataDir": "/var/lib/etcd", "snapshots": {"enabled": true, "everyHours": 6}}),
                ),
                var("extraSANs", json!(["api.example.com", "10.0.0.10"])),
            ],
        }),
        availability_gates: vec![
            ClusterAvailabilityGate {
                condition_type: "example.com/NetworkPolicyReady".into(),
                polarity: Some(ConditionPolarity::Positive),
            },
            ClusterAvailabilityGate {
                condition_type: "example.com/Degraded".into(),
                polarity: Some(ConditionPolarity::Negative),
            },
        ],
    }
}

/// Create admission of `cluster` as the published CRD's version of the
/// same name (the stored `v1beta2` is not the first version).
fn admit_cluster_v1beta2(
    p: &Published,
    cluster: &cluster_api::v1beta2::Cluster,
) -> (Value, Admitted) {
    let obj = serde_json::to_value(cluster).unwrap();
    let admission =
        Admission::for_crd(&p.crd, "v1beta2", &schema_core::Options::default()).unwrap();
    let admitted = admission.create(obj.clone());
    (obj, admitted)
}

/// A sample of the stored version passes create admission unchanged and
/// reads back as the generated `Cluster`; the status passes its schema.
#[test]
fn cluster_v1beta2_round_trip() {
    use cluster_api::v1beta2::*;
    let Some(p) = published(CLUSTERS) else {
        return;
    };
    assert_eq!(p.at("/spec/versions/1/name"), "v1beta2");
    assert_eq!(p.at("/spec/versions/1/storage"), true);
    let mut cluster = Cluster::new("prod-eu1", sample_cluster_v1beta2());
    cluster.metadata.namespace = Some("clusters".into());
    let (obj, admitted) = admit_cluster_v1beta2(&p, &cluster);
    assert_eq!(obj["apiVersion"], "cluster.x-k8s.io/v1beta2");
    assert_eq!(obj["kind"], "Cluster");
    assert_admitted(&admitted, &obj);
    let back: Cluster = serde_json::from_value(admitted.object).unwrap();
    assert_eq!(back.spec, cluster.spec);
    assert_eq!(back.metadata.name, cluster.metadata.name);

    // The published schema does enforce what the types only describe: the
    // CEL rule on machine condition types, and the list-map keys.
    let mut bad = cluster.clone();
    let topology = bad.spec.topology.as_mut().unwrap();
    let checks = topology
        .control_plane
        .as_mut()
        .unwrap()
        .health_check
        .as_mut()
        .unwrap()
        .checks
        .as_mut()
        .unwrap();
    checks.unhealthy_machine_conditions[0].type_ = "Ready".into();
    topology.variables.push(topology.variables[0].clone());
    let errors: Vec<String> = admit_cluster_v1beta2(&p, &bad)
        .1
        .errors
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errors,
        [
            r#"spec.topology.variables[4]: Duplicate value: {"name":"region"}"#,
            r#"spec.topology.controlPlane.healthCheck.checks.unhealthyMachineConditions[0].type: Invalid value: "Ready": type must not be one of: Ready, Available, HealthCheckSucceeded, OwnerRemediated, ExternallyRemediated"#,
        ]
    );

    let time = capi_time("2026-01-02T03:04:05Z");
    let status = ClusterStatus {
        conditions: vec![
            k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition {
                type_: "Available".into(),
                status: "True".into(),
                reason: "Available".into(),
                message: String::new(),
                last_transition_time: time.clone(),
                observed_generation: Some(2),
            },
            k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition {
                type_: "Paused".into(),
                status: "False".into(),
                reason: "NotPaused".into(),
                message: String::new(),
                last_transition_time: time.clone(),
                observed_generation: Some(2),
            },
        ],
        initialization: Some(ClusterInitializationStatus {
            infrastructure_provisioned: Some(true),
            control_plane_initialized: Some(true),
        }),
        control_plane: Some(ClusterControlPlaneStatus {
            desired_replicas: Some(3),
            replicas: Some(3),
            up_to_date_replicas: Some(3),
            ready_replicas: Some(3),
            available_replicas: Some(3),
            versions: vec![StatusVersion {
                version: "v1.33.1".into(),
                replicas: Some(3),
            }],
            upgrade_plan: Vec::new(),
        }),
        workers: Some(WorkersStatus {
            desired_replicas: Some(7),
            replicas: Some(7),
            up_to_date_replicas: Some(5),
            ready_replicas: Some(7),
            available_replicas: Some(7),
            versions: vec![
                StatusVersion {
                    version: "v1.32.4".into(),
                    replicas: Some(2),
                },
                StatusVersion {
                    version: "v1.33.1".into(),
                    replicas: Some(5),
                },
            ],
            upgrade_plan: vec![StatusUpgradePlanVersion {
                version: "v1.33.1".into(),
            }],
        }),
        failure_domains: vec![
            FailureDomain {
                name: "eu-1a".into(),
                control_plane: Some(true),
                attributes: [("zone".to_string(), "eu-1a".to_string())].into(),
            },
            FailureDomain {
                name: "eu-1b".into(),
                control_plane: Some(false),
                attributes: BTreeMap::new(),
            },
        ],
        phase: Some(ClusterPhase::Provisioned),
        observed_generation: Some(2),
        deprecated: Some(ClusterDeprecatedStatus {
            v1beta1: Some(ClusterV1Beta1DeprecatedStatus {
                conditions: vec![Condition {
                    type_: "Ready".into(),
                    status: "True".into(),
                    severity: None,
                    last_transition_time: time,
                    reason: None,
                    message: None,
                }],
                failure_reason: None,
                failure_message: None,
            }),
        }),
    };
    p.admit_at(
        "/spec/versions/1/schema/openAPIV3Schema/properties/status",
        &status,
    );
}

/// The deprecated version still reads and writes its own shape: a
/// topology with the inline health-check fields (`#[serde(flatten)]`),
/// durations and full object references.
#[test]
fn cluster_v1beta1_round_trip() {
    use cluster_api::v1beta1::*;
    use k8s_openapi::api::core::v1::ObjectReference;
    use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
    let Some(p) = published(CLUSTERS) else {
        return;
    };
    assert_eq!(p.at("/spec/versions/0/name"), "v1beta1");
    let spec = ClusterSpec {
        cluster_network: Some(ClusterNetwork {
            pods: Some(NetworkRanges {
                cidr_blocks: vec!["192.168.0.0/16".into()],
            }),
            ..ClusterNetwork::default()
        }),
        control_plane_endpoint: Some(ApiEndpoint {
            host: "10.0.0.10".into(),
            port: 6443,
        }),
        infrastructure_ref: Some(ObjectReference {
            api_version: Some("infrastructure.cluster.x-k8s.io/v1beta1".into()),
            kind: Some("DockerCluster".into()),
            name: Some("dev".into()),
            namespace: Some("clusters".into()),
            ..ObjectReference::default()
        }),
        topology: Some(Topology {
            class: "quick-start".into(),
            version: "v1.33.1".into(),
            control_plane: Some(ControlPlaneTopology {
                replicas: Some(1),
                machine_health_check: Some(MachineHealthCheckTopology {
                    enable: Some(true),
                    class: MachineHealthCheckClass {
                        unhealthy_conditions: vec![UnhealthyCondition {
                            type_: "Ready".into(),
                            status: "Unknown".into(),
                            timeout: k8s::Duration("5m0s".into()),
                        }],
                        max_unhealthy: Some(IntOrString::String("40%".into())),
                        node_startup_timeout: Some(k8s::Duration("10m".into())),
                        ..MachineHealthCheckClass::default()
                    },
                }),
                node_drain_timeout: Some(k8s::Duration("2m".into())),
                ..ControlPlaneTopology::default()
            }),
            workers: Some(WorkersTopology {
                machine_deployments: vec![MachineDeploymentTopology {
                    class: "default-worker".into(),
                    name: "md-0".into(),
                    replicas: Some(2),
                    strategy: Some(MachineDeploymentStrategy {
                        type_: Some(MachineDeploymentStrategyType::RollingUpdate),
                        rolling_update: Some(MachineRollingUpdateDeployment {
                            max_surge: Some(IntOrString::Int(1)),
                            delete_policy: Some(DeletePolicy::Oldest),
                            ..MachineRollingUpdateDeployment::default()
                        }),
                        remediation: None,
                    }),
                    ..MachineDeploymentTopology::default()
                }],
                machine_pools: Vec::new(),
            }),
            variables: vec![ClusterVariable {
                name: "region".into(),
                definition_from: None,
                value: json!("eu-1"),
            }],
            ..Topology::default()
        }),
        ..ClusterSpec::default()
    };
    p.admit_spec(&spec);
}
