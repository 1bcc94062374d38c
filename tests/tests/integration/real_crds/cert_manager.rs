//! cert-manager's `Certificate` (`cert-manager.io/v1`), written in Rust
//! from the Go API types' fields and markers: `#[schema(...)]` for the
//! kubebuilder markers, doc comments of our own.
//!
//! The types follow cert-manager/cert-manager at
//! `2d0d7f7f74241a9cbf79f0e2a7bb247238ee09fd` (the corpus commit):
//! `pkg/apis/certmanager/v1/types_certificate.go` (the Certificate and
//! everything under it), `pkg/apis/certmanager/v1/types.go` (`KeyUsage`)
//! and `pkg/apis/meta/v1/types.go` (`ConditionStatus`,
//! `LocalObjectReference`, `IssuerReference`, `SecretKeySelector`).

use std::collections::BTreeMap;

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

use super::k8s::{Duration, Time};

/// The certificate wanted: its subject and names, the issuer to ask, the
/// key, and the Secret to keep it in.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "cert-manager.io",
    version = "v1",
    kind = "Certificate",
    namespaced,
    status = CertificateStatus,
    spec_optional,
    short_names = ["cert", "certs"],
    categories = ["cert-manager"],
    doc = "An X.509 certificate that cert-manager obtains from an issuer, stores in the\nSecret named by `spec.secretName` and renews ahead of its expiry.",
    printer_column(name = "Ready", type = "string", json_path = ".status.conditions[?(@.type == \"Ready\")].status"),
    printer_column(name = "Secret", type = "string", json_path = ".spec.secretName"),
    printer_column(name = "Issuer", type = "string", json_path = ".spec.issuerRef.name", priority = 1),
    printer_column(name = "Status", type = "string", json_path = ".status.conditions[?(@.type == \"Ready\")].message", priority = 1),
    printer_column(name = "Expiration", type = "string", json_path = ".status.notAfter", priority = 1),
    printer_column(name = "Age", type = "date", json_path = ".metadata.creationTimestamp", description = "How long ago the Certificate was created (its creation timestamp, set by the API server in UTC)."),
    selectable_field = ".spec.issuerRef.group",
    selectable_field = ".spec.issuerRef.kind",
    selectable_field = ".spec.issuerRef.name",
))]
pub struct CertificateSpec {
    /// Subject attributes of the certificate (RFC 5280, 4.1.2.6), except
    /// the common name, which is `commonName`. Not allowed together with
    /// `literalSubject`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<X509Subject>,

    /// The whole subject as an RFC 4514 distinguished name string
    /// (`CN=app,O=Example,C=DE`), kept in the order written, which matters
    /// for LDAP clients. Not allowed together with `subject` or
    /// `commonName`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub literal_subject: Option<String>,

    /// The subject's common name. TLS clients do not look at it when the
    /// certificate has subject alternative names; keep it to 64
    /// characters, or the CSR is invalid. Not allowed together with
    /// `literalSubject`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub common_name: Option<String>,

    /// Lifetime to ask the issuer for (a Go duration, at least `1h`; 90
    /// days when unset). Issuers may give a different one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<Duration>,

    /// How long before expiry to renew (a Go duration, at least `5m`),
    /// measured on the lifetime of the certificate actually issued; a third
    /// of that lifetime when unset. Not allowed together with
    /// `renewBeforePercentage`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renew_before: Option<Duration>,

    /// When to renew, as the share of the issued lifetime still left, in
    /// percent (strictly between 0 and 100; the result must be at least
    /// five minutes). Not allowed together with `renewBefore`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renew_before_percentage: Option<i32>,

    /// DNS names to put in the subject alternative names.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dns_names: Vec<String>,

    /// IP addresses to put in the subject alternative names.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ip_addresses: Vec<String>,

    /// URIs to put in the subject alternative names.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uris: Vec<String>,

    /// `otherName` subject alternative names with UTF-8 string values (a
    /// user principal name has OID `1.3.6.1.4.1.311.20.2.3`). The OIDs are
    /// not checked.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_names: Vec<OtherName>,

    /// Email addresses to put in the subject alternative names.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub email_addresses: Vec<String>,

    /// The Secret, in the Certificate's namespace, that cert-manager
    /// creates and keeps up to date with the key and the signed
    /// certificate.
    pub secret_name: String,

    /// Labels and annotations cert-manager keeps on that Secret, next to
    /// its own (which they cannot replace).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret_template: Option<CertificateSecretTemplate>,

    /// Keystore files to add to the Secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keystores: Option<CertificateKeystores>,

    /// The issuer to ask: an Issuer of the same namespace or a
    /// ClusterIssuer. `name` is required.
    pub issuer_ref: IssuerReference,

    /// Ask for a CA certificate (basic constraints `isCA`); adds the
    /// `cert sign` usage. The issuer may ignore it.
    #[serde(rename = "isCA", skip_serializing_if = "Option::is_none")]
    pub is_ca: Option<bool>,

    /// Key usages and extended key usages to ask for; `digital signature`
    /// and `key encipherment` when unset. They also go into the CSR unless
    /// `encodeUsagesInRequest` is false.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub usages: Vec<KeyUsage>,

    /// The private key: algorithm, size, encoding and when to rotate it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub private_key: Option<CertificatePrivateKey>,

    /// The signature algorithm; it has to fit the key (RSA, ECDSA or
    /// Ed25519).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature_algorithm: Option<SignatureAlgorithm>,

    /// Whether the CSR carries the key usage extensions (true when unset);
    /// turn it off only for issuers that reject them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encode_usages_in_request: Option<bool>,

    /// How many CertificateRequests (one per issuance) to keep, oldest
    /// deleted first; at least 1, and 1 when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i32>,

    /// More formats of the key and chain to write into the Secret.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_output_formats: Vec<CertificateAdditionalOutputFormat>,

    /// Name constraints extension (RFC 5280, 4.2.1.10), for CA certificates
    /// only; behind the `NameConstraints` feature gate of the controller
    /// and the webhook.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_constraints: Option<NameConstraints>,

    /// When renewals may happen; with the `RenewBefore` policy,
    /// `renewBefore` and `renewBeforePercentage` decide.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renewal: Option<CertificateRenewal>,
}

/// Subject attributes of an X.509 name, each a list of values.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct X509Subject {
    /// Organization (O).
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub organizations: Vec<String>,
    /// Country (C).
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub countries: Vec<String>,
    /// Organizational unit (OU).
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub organizational_units: Vec<String>,
    /// Locality, the city (L).
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub localities: Vec<String>,
    /// State or province (ST).
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub provinces: Vec<String>,
    /// Street address.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub street_addresses: Vec<String>,
    /// Postal code.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub postal_codes: Vec<String>,
    /// Subject serial number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serial_number: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct OtherName {
    /// The SAN's type, a dotted OID such as `1.2.840.113556.1.4.221`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oid: Option<String>,

    /// The SAN's value, any UTF-8 string.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utf8_value: Option<String>,
}

/// Labels and annotations for the certificate's Secret.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct CertificateSecretTemplate {
    /// Annotations to set on the Secret.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,

    /// Labels to set on the Secret.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
}

/// Keystores written next to the PEM files in the Secret.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct CertificateKeystores {
    /// A Java keystore.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jks: Option<JksKeystore>,

    /// A PKCS#12 keystore.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pkcs12: Option<Pkcs12Keystore>,
}

/// A Java keystore in the Secret, protected by `password` or by the one in
/// `passwordSecretRef` (exactly one of them).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct JksKeystore {
    /// Write `keystore.jks` (and `truststore.jks` with the issuer's CA,
    /// when it gives one), encrypted with the password, and keep them up
    /// to date.
    pub create: bool,

    /// A Secret key holding the (non-empty) password; not with `password`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password_secret_ref: Option<SecretKeySelector>,

    /// The password itself; not with `passwordSecretRef`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,

    /// The key's alias in the keystore; `certificate` when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
}

/// A PKCS#12 keystore in the Secret, protected by `password` or by the one
/// in `passwordSecretRef` (exactly one of them).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pkcs12Keystore {
    /// Write `keystore.p12` (and `truststore.p12` with the issuer's CA,
    /// when it gives one), encrypted with the password, and keep them up
    /// to date.
    pub create: bool,

    /// A Secret key holding the (non-empty) password; not with `password`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password_secret_ref: Option<SecretKeySelector>,

    /// The password itself; not with `passwordSecretRef`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,

    /// The encryption and MAC algorithms of the file; `LegacyRC2` when
    /// unset. `LegacyRC2` (deprecated) and `LegacyDES` suit old readers;
    /// `Modern2023` uses current algorithms; `Modern2026` uses PBES2/AES-256
    /// with a PBMAC1 MAC (FIPS 140-3), readable by OpenSSL 3.4 and Java 26
    /// or later.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<Pkcs12Profile>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum Pkcs12Profile {
    #[serde(rename = "LegacyRC2")]
    LegacyRc2,
    #[serde(rename = "LegacyDES")]
    LegacyDes,
    Modern2023,
    Modern2026,
}

/// One key of a Secret; whether `key` may be left out depends on the
/// field.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct SecretKeySelector {
    /// The Secret.
    #[serde(flatten)]
    pub local: LocalObjectReference,

    /// The key in the Secret's `data`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// An object by name, in the referring object's namespace (for
/// cluster-scoped issuers: in cert-manager's cluster resource namespace).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct LocalObjectReference {
    /// The object's name.
    pub name: String,
}

/// An issuer by name, kind and API group.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct IssuerReference {
    /// The issuer's name.
    pub name: String,
    /// The issuer's kind; `Issuer` when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The issuer's API group; `cert-manager.io` when unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// A key usage or extended key usage (RFC 5280, 4.2.1.3 and 4.2.1.12),
/// written in words (`digital signature`, `server auth`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum KeyUsage {
    #[serde(rename = "signing")]
    Signing,
    #[serde(rename = "digital signature")]
    DigitalSignature,
    #[serde(rename = "content commitment")]
    ContentCommitment,
    #[serde(rename = "key encipherment")]
    KeyEncipherment,
    #[serde(rename = "key agreement")]
    KeyAgreement,
    #[serde(rename = "data encipherment")]
    DataEncipherment,
    #[serde(rename = "cert sign")]
    CertSign,
    #[serde(rename = "crl sign")]
    CrlSign,
    #[serde(rename = "encipher only")]
    EncipherOnly,
    #[serde(rename = "decipher only")]
    DecipherOnly,
    #[serde(rename = "any")]
    Any,
    #[serde(rename = "server auth")]
    ServerAuth,
    #[serde(rename = "client auth")]
    ClientAuth,
    #[serde(rename = "code signing")]
    CodeSigning,
    #[serde(rename = "email protection")]
    EmailProtection,
    #[serde(rename = "s/mime")]
    SMime,
    #[serde(rename = "ipsec end system")]
    IpsecEndSystem,
    #[serde(rename = "ipsec tunnel")]
    IpsecTunnel,
    #[serde(rename = "ipsec user")]
    IpsecUser,
    #[serde(rename = "timestamping")]
    Timestamping,
    #[serde(rename = "ocsp signing")]
    OcspSigning,
    #[serde(rename = "microsoft sgc")]
    MicrosoftSgc,
    #[serde(rename = "netscape sgc")]
    NetscapeSgc,
}

/// The certificate's private key.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificatePrivateKey {
    /// Whether a reissue makes a new key: `Always` (the default since
    /// cert-manager 1.18) does; `Never` reuses the key in the Secret and only
    /// creates one when there is none (a key of the wrong algorithm or size
    /// is reported, not replaced).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation_policy: Option<PrivateKeyRotationPolicy>,

    /// How the key is stored: `PKCS1` (the default) or `PKCS8`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<PrivateKeyEncoding>,

    /// The key algorithm: `RSA`, `ECDSA` or `Ed25519`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<PrivateKeyAlgorithm>,

    /// Key size in bits: 2048 (the default), 4096 or 8192 for RSA; 256 (the
    /// default), 384 or 521 for ECDSA; not used for Ed25519.
    // Go's `int`: an integer of no declared width.
    #[schema(type = "integer")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
}

/// When a reissue generates a new private key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum PrivateKeyRotationPolicy {
    Never,
    Always,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum PrivateKeyEncoding {
    #[serde(rename = "PKCS1")]
    Pkcs1,
    #[serde(rename = "PKCS8")]
    Pkcs8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum PrivateKeyAlgorithm {
    #[serde(rename = "RSA")]
    Rsa,
    #[serde(rename = "ECDSA")]
    Ecdsa,
    Ed25519,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum SignatureAlgorithm {
    #[serde(rename = "SHA256WithRSA")]
    Sha256WithRsa,
    #[serde(rename = "SHA384WithRSA")]
    Sha384WithRsa,
    #[serde(rename = "SHA512WithRSA")]
    Sha512WithRsa,
    #[serde(rename = "ECDSAWithSHA256")]
    EcdsaWithSha256,
    #[serde(rename = "ECDSAWithSHA384")]
    EcdsaWithSha384,
    #[serde(rename = "ECDSAWithSHA512")]
    EcdsaWithSha512,
    PureEd25519,
}

/// One more format of the key and chain in the Secret.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct CertificateAdditionalOutputFormat {
    /// The format.
    #[serde(rename = "type")]
    pub type_: CertificateOutputFormatType,
}

/// An extra output format: `DER` (the key in DER) or `CombinedPEM` (key
/// and chain in one PEM file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum CertificateOutputFormatType {
    #[serde(rename = "DER")]
    Der,
    #[serde(rename = "CombinedPEM")]
    CombinedPem,
}

/// The X.509 name constraints extension.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct NameConstraints {
    /// Mark the extension critical.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical: Option<bool>,
    /// The names allowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permitted: Option<NameConstraintItem>,
    /// The names forbidden, whatever `permitted` says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excluded: Option<NameConstraintItem>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct NameConstraintItem {
    /// DNS domains.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dns_domains: Vec<String>,
    /// IP ranges in CIDR notation.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ip_ranges: Vec<String>,
    /// Email addresses.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub email_addresses: Vec<String>,
    /// URI domains.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uri_domains: Vec<String>,
}

/// When the certificate may be renewed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct CertificateRenewal {
    /// `RenewBefore` or `Disabled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<RenewalPolicy>,
    /// Time windows in which renewals are allowed.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub windows: Vec<CertificateRenewalWindows>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum RenewalPolicy {
    RenewBefore,
    Disabled,
}

/// A recurring time window for renewals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateRenewalWindows {
    /// When the window opens, as a five-field cron expression (minute,
    /// hour, day of month, month, day of week).
    #[schema(min_length = 1)]
    pub cron: String,

    /// How long the window stays open (a Go duration in hours, minutes
    /// or seconds).
    #[schema(pattern = r"^([0-9]+(\.[0-9]+)?(s|m|h))+$")]
    pub window_duration: Duration,

    /// The IANA time zone of `cron` (`Europe/Berlin`); UTC when unset.
    #[schema(min_length = 1)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timezone: Option<String>,
}

/// What cert-manager observed and did; written by the controller only.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateStatus {
    /// Conditions by type (`Ready`, `Issuing`).
    #[schema(list_type = "map", list_map_keys = ["type"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<CertificateCondition>,

    /// When the latest issuance failed; cleared by a successful one. The
    /// next attempt waits `1h * 2^(failedIssuanceAttempts - 1)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_failure_time: Option<Time>,

    /// Start of validity of the certificate in the Secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_before: Option<Time>,

    /// End of validity of the certificate in the Secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_after: Option<Time>,

    /// When the next renewal is due; unset when none is planned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renewal_time: Option<Time>,

    /// The issuance the Secret holds. Each new CertificateRequest is
    /// annotated with this number plus one, and after issuance the field
    /// takes the annotation of the request used, which tells requests of
    /// past issuances from the current one.
    #[schema(type = "integer")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision: Option<i64>,

    /// The Secret holding the key for the next issuance, while the
    /// `Issuing` condition is `True`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_private_key_secret_name: Option<String>,

    /// Failed issuances in a row; removed after a success.
    #[schema(type = "integer")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_issuance_attempts: Option<i64>,

    /// What the ACME server said about this certificate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acme: Option<CertificateAcmeStatus>,
}

/// One condition of a Certificate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateCondition {
    /// The condition (`Ready`, `Issuing`).
    #[serde(rename = "type")]
    pub type_: String,

    /// `True`, `False` or `Unknown`.
    pub status: ConditionStatus,

    /// When `status` last changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,

    /// Why `status` last changed, as one CamelCase word.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,

    /// The change explained for people.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,

    /// The `metadata.generation` the condition was computed for; older
    /// than the current generation means out of date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}

/// A condition's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum ConditionStatus {
    True,
    False,
    Unknown,
}

/// ACME facts about a Certificate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct CertificateAcmeStatus {
    /// Renewal information (ARI, RFC 9773) from the ACME server; only with
    /// the ARI feature gate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ari: Option<CertificateAriStatus>,
}

/// ACME renewal information (RFC 9773) of a Certificate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateAriStatus {
    /// The window in which the server would like the renewal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggested_window: Option<SuggestedWindow>,

    /// A page the server points to for why the window is what it is.
    #[serde(rename = "explanationURL", skip_serializing_if = "Option::is_none")]
    pub explanation_url: Option<String>,

    /// When the information was last fetched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_checked: Option<Time>,

    /// When it will be fetched next.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_check: Option<Time>,

    /// The error of the last fetch, if it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

/// A renewal window from the ACME server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct SuggestedWindow {
    /// When it opens.
    pub start: Time,
    /// When it closes.
    pub end: Time,
}
