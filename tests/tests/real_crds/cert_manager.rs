//! cert-manager's `Certificate` (`cert-manager.io/v1`), written as an
//! operator author would write it in Rust: the doc comments are the Go
//! sources' (controller-gen turns them into the published descriptions),
//! the validation markers are `#[schema(...)]` attributes.

use std::collections::BTreeMap;

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

use super::k8s::{Duration, Time};

/// Specification of the desired state of the Certificate resource.
/// https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status
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
    doc = "A Certificate resource should be created to ensure an up to date and signed\nX.509 certificate is stored in the Kubernetes Secret resource named in `spec.secretName`.\n\nThe stored certificate will be renewed before it expires (as configured by `spec.renewBefore`).",
    printer_column(name = "Ready", type = "string", json_path = ".status.conditions[?(@.type == \"Ready\")].status"),
    printer_column(name = "Secret", type = "string", json_path = ".spec.secretName"),
    printer_column(name = "Issuer", type = "string", json_path = ".spec.issuerRef.name", priority = 1),
    printer_column(name = "Status", type = "string", json_path = ".status.conditions[?(@.type == \"Ready\")].message", priority = 1),
    printer_column(name = "Expiration", type = "string", json_path = ".status.notAfter", priority = 1),
    printer_column(name = "Age", type = "date", json_path = ".metadata.creationTimestamp", description = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC."),
    selectable_field = ".spec.issuerRef.group",
    selectable_field = ".spec.issuerRef.kind",
    selectable_field = ".spec.issuerRef.name",
))]
pub struct CertificateSpec {
    /// Requested set of X509 certificate subject attributes.
    /// More info: https://datatracker.ietf.org/doc/html/rfc5280#section-4.1.2.6
    ///
    /// The common name attribute is specified separately in the `commonName` field.
    /// Cannot be set if the `literalSubject` field is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<X509Subject>,

    /// Requested X.509 certificate subject, represented using the LDAP "String
    /// Representation of a Distinguished Name" [1].
    /// Important: the LDAP string format also specifies the order of the attributes
    /// in the subject, this is important when issuing certs for LDAP authentication.
    /// Example: `CN=foo,DC=corp,DC=example,DC=com`
    /// More info [1]: https://datatracker.ietf.org/doc/html/rfc4514
    /// More info: https://github.com/cert-manager/cert-manager/issues/3203
    /// More info: https://github.com/cert-manager/cert-manager/issues/4424
    ///
    /// Cannot be set if the `subject` or `commonName` field is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub literal_subject: Option<String>,

    /// Requested common name X509 certificate subject attribute.
    /// More info: https://datatracker.ietf.org/doc/html/rfc5280#section-4.1.2.6
    /// NOTE: TLS clients will ignore this value when any subject alternative name is
    /// set (see https://tools.ietf.org/html/rfc6125#section-6.4.4).
    ///
    /// Should have a length of 64 characters or fewer to avoid generating invalid CSRs.
    /// Cannot be set if the `literalSubject` field is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub common_name: Option<String>,

    /// Requested 'duration' (i.e. lifetime) of the Certificate. Note that the
    /// issuer may choose to ignore the requested duration, just like any other
    /// requested attribute.
    ///
    /// If unset, this defaults to 90 days.
    /// Minimum accepted duration is 1 hour.
    /// Value must be in units accepted by Go time.ParseDuration https://golang.org/pkg/time/#ParseDuration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<Duration>,

    /// How long before the currently issued certificate's expiry cert-manager should
    /// renew the certificate. For example, if a certificate is valid for 60 minutes,
    /// and `renewBefore=10m`, cert-manager will begin to attempt to renew the certificate
    /// 50 minutes after it was issued (i.e. when there are 10 minutes remaining until
    /// the certificate is no longer valid).
    ///
    /// NOTE: The actual lifetime of the issued certificate is used to determine the
    /// renewal time. If an issuer returns a certificate with a different lifetime than
    /// the one requested, cert-manager will use the lifetime of the issued certificate.
    ///
    /// If unset, this defaults to 1/3 of the issued certificate's lifetime.
    /// Minimum accepted value is 5 minutes.
    /// Value must be in units accepted by Go time.ParseDuration https://golang.org/pkg/time/#ParseDuration.
    /// Cannot be set if the `renewBeforePercentage` field is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renew_before: Option<Duration>,

    /// `renewBeforePercentage` is like `renewBefore`, except it is a relative percentage
    /// rather than an absolute duration. For example, if a certificate is valid for 60
    /// minutes, and  `renewBeforePercentage=25`, cert-manager will begin to attempt to
    /// renew the certificate 45 minutes after it was issued (i.e. when there are 15
    /// minutes (25%) remaining until the certificate is no longer valid).
    ///
    /// NOTE: The actual lifetime of the issued certificate is used to determine the
    /// renewal time. If an issuer returns a certificate with a different lifetime than
    /// the one requested, cert-manager will use the lifetime of the issued certificate.
    ///
    /// Value must be an integer in the range (0,100). The minimum effective
    /// `renewBefore` derived from the `renewBeforePercentage` and `duration` fields is 5
    /// minutes.
    /// Cannot be set if the `renewBefore` field is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renew_before_percentage: Option<i32>,

    /// Requested DNS subject alternative names.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dns_names: Vec<String>,

    /// Requested IP address subject alternative names.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ip_addresses: Vec<String>,

    /// Requested URI subject alternative names.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uris: Vec<String>,

    /// `otherNames` is an escape hatch for SAN that allows any type. We currently restrict the support to string like otherNames, cf RFC 5280 p 37
    /// Any UTF8 String valued otherName can be passed with by setting the keys oid: x.x.x.x and UTF8Value: somevalue for `otherName`.
    /// Most commonly this would be UPN set with oid: 1.3.6.1.4.1.311.20.2.3
    /// You should ensure that any OID passed is valid for the UTF8String type as we do not explicitly validate this.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_names: Vec<OtherName>,

    /// Requested email subject alternative names.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub email_addresses: Vec<String>,

    /// Name of the Secret resource that will be automatically created and
    /// managed by this Certificate resource. It will be populated with a
    /// private key and certificate, signed by the denoted issuer. The Secret
    /// resource lives in the same namespace as the Certificate resource.
    pub secret_name: String,

    /// Defines annotations and labels to be copied to the Certificate's Secret.
    /// Labels and annotations on the Secret will be changed as they appear on the
    /// SecretTemplate when added or removed. SecretTemplate annotations are added
    /// in conjunction with, and cannot overwrite, the base set of annotations
    /// cert-manager sets on the Certificate's Secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret_template: Option<CertificateSecretTemplate>,

    /// Additional keystore output formats to be stored in the Certificate's Secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keystores: Option<CertificateKeystores>,

    /// Reference to the issuer responsible for issuing the certificate.
    /// If the issuer is namespace-scoped, it must be in the same namespace
    /// as the Certificate. If the issuer is cluster-scoped, it can be used
    /// from any namespace.
    ///
    /// The `name` field of the reference must always be specified.
    pub issuer_ref: IssuerReference,

    /// Requested basic constraints isCA value.
    /// The isCA value is used to set the `isCA` field on the created CertificateRequest
    /// resources. Note that the issuer may choose to ignore the requested isCA value, just
    /// like any other requested attribute.
    ///
    /// If true, this will automatically add the `cert sign` usage to the list
    /// of requested `usages`.
    #[serde(rename = "isCA", skip_serializing_if = "Option::is_none")]
    pub is_ca: Option<bool>,

    /// Requested key usages and extended key usages.
    /// These usages are used to set the `usages` field on the created CertificateRequest
    /// resources. If `encodeUsagesInRequest` is unset or set to `true`, the usages
    /// will additionally be encoded in the `request` field which contains the CSR blob.
    ///
    /// If unset, defaults to `digital signature` and `key encipherment`.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub usages: Vec<KeyUsage>,

    /// Private key options. These include the key algorithm and size, the used
    /// encoding and the rotation policy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub private_key: Option<CertificatePrivateKey>,

    /// Signature algorithm to use.
    /// Allowed values for RSA keys: SHA256WithRSA, SHA384WithRSA, SHA512WithRSA.
    /// Allowed values for ECDSA keys: ECDSAWithSHA256, ECDSAWithSHA384, ECDSAWithSHA512.
    /// Allowed values for Ed25519 keys: PureEd25519.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature_algorithm: Option<SignatureAlgorithm>,

    /// Whether the KeyUsage and ExtKeyUsage extensions should be set in the encoded CSR.
    ///
    /// This option defaults to true, and should only be disabled if the target
    /// issuer does not support CSRs with these X509 KeyUsage/ ExtKeyUsage extensions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encode_usages_in_request: Option<bool>,

    /// The maximum number of CertificateRequest revisions that are maintained in
    /// the Certificate's history. Each revision represents a single `CertificateRequest`
    /// created by this Certificate, either when it was created, renewed, or Spec
    /// was changed. Revisions will be removed by oldest first if the number of
    /// revisions exceeds this number.
    ///
    /// If set, revisionHistoryLimit must be a value of `1` or greater.
    /// Default value is `1`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision_history_limit: Option<i32>,

    /// Defines extra output formats of the private key and signed certificate chain
    /// to be written to this Certificate's target Secret.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_output_formats: Vec<CertificateAdditionalOutputFormat>,

    /// x.509 certificate NameConstraint extension which MUST NOT be used in a non-CA certificate.
    /// More Info: https://datatracker.ietf.org/doc/html/rfc5280#section-4.2.1.10
    ///
    /// This is an Alpha Feature and is only enabled with the
    /// `--feature-gates=NameConstraints=true` option set on both
    /// the controller and webhook components.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_constraints: Option<NameConstraints>,

    /// `renewal` allows configuration of how your certificate is renewed. If the policy mentioned is
    /// `RenewBefore` then the controller respects `renewBefore` and `renewBeforePercentage`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renewal: Option<CertificateRenewal>,
}

/// X509Subject Full X509 name specification
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct X509Subject {
    /// Organizations to be used on the Certificate.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub organizations: Vec<String>,
    /// Countries to be used on the Certificate.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub countries: Vec<String>,
    /// Organizational Units to be used on the Certificate.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub organizational_units: Vec<String>,
    /// Cities to be used on the Certificate.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub localities: Vec<String>,
    /// State/Provinces to be used on the Certificate.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub provinces: Vec<String>,
    /// Street addresses to be used on the Certificate.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub street_addresses: Vec<String>,
    /// Postal codes to be used on the Certificate.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub postal_codes: Vec<String>,
    /// Serial number to be used on the Certificate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serial_number: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct OtherName {
    /// OID is the object identifier for the otherName SAN.
    /// The object identifier must be expressed as a dotted string, for
    /// example, "1.2.840.113556.1.4.221".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oid: Option<String>,

    /// utf8Value is the string value of the otherName SAN.
    /// The utf8Value accepts any valid UTF8 string to set as value for the otherName SAN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utf8_value: Option<String>,
}

/// CertificateSecretTemplate defines the default labels and annotations
/// to be copied to the Kubernetes Secret resource named in `CertificateSpec.secretName`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct CertificateSecretTemplate {
    /// Annotations is a key value map to be copied to the target Kubernetes Secret.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,

    /// Labels is a key value map to be copied to the target Kubernetes Secret.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
}

/// CertificateKeystores configures additional keystore output formats to be
/// created in the Certificate's output Secret.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct CertificateKeystores {
    /// JKS configures options for storing a JKS keystore in the
    /// `spec.secretName` Secret resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jks: Option<JksKeystore>,

    /// PKCS12 configures options for storing a PKCS12 keystore in the
    /// `spec.secretName` Secret resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pkcs12: Option<Pkcs12Keystore>,
}

/// JKS configures options for storing a JKS keystore in the target secret.
/// Either PasswordSecretRef or Password must be provided.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct JksKeystore {
    /// Create enables JKS keystore creation for the Certificate.
    /// If true, a file named `keystore.jks` will be created in the target
    /// Secret resource, encrypted using the password stored in
    /// `passwordSecretRef` or `password`.
    /// The keystore file will be updated immediately.
    /// If the issuer provided a CA certificate, a file named `truststore.jks`
    /// will also be created in the target Secret resource, encrypted using the
    /// password stored in `passwordSecretRef`
    /// containing the issuing Certificate Authority
    pub create: bool,

    /// PasswordSecretRef is a reference to a non-empty key in a Secret resource
    /// containing the password used to encrypt the JKS keystore.
    /// Mutually exclusive with password.
    /// One of password or passwordSecretRef must provide a password with a non-zero length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password_secret_ref: Option<SecretKeySelector>,

    /// Password provides a literal password used to encrypt the JKS keystore.
    /// Mutually exclusive with passwordSecretRef.
    /// One of password or passwordSecretRef must provide a password with a non-zero length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,

    /// Alias specifies the alias of the key in the keystore, required by the JKS format.
    /// If not provided, the default alias `certificate` will be used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
}

/// PKCS12 configures options for storing a PKCS12 keystore in the
/// `spec.secretName` Secret resource.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pkcs12Keystore {
    /// Create enables PKCS12 keystore creation for the Certificate.
    /// If true, a file named `keystore.p12` will be created in the target
    /// Secret resource, encrypted using the password stored in
    /// `passwordSecretRef` or in `password`.
    /// The keystore file will be updated immediately.
    /// If the issuer provided a CA certificate, a file named `truststore.p12` will
    /// also be created in the target Secret resource, encrypted using the
    /// password stored in `passwordSecretRef` containing the issuing Certificate
    /// Authority
    pub create: bool,

    /// PasswordSecretRef is a reference to a non-empty key in a Secret resource
    /// containing the password used to encrypt the PKCS#12 keystore.
    /// Mutually exclusive with password.
    /// One of password or passwordSecretRef must provide a password with a non-zero length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password_secret_ref: Option<SecretKeySelector>,

    /// Password provides a literal password used to encrypt the PKCS#12 keystore.
    /// Mutually exclusive with passwordSecretRef.
    /// One of password or passwordSecretRef must provide a password with a non-zero length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,

    /// Profile specifies the key and certificate encryption algorithms and the HMAC algorithm
    /// used to create the PKCS12 keystore. Default value is `LegacyRC2` for backward compatibility.
    ///
    /// If provided, allowed values are:
    /// `LegacyRC2`: Deprecated. Not supported by default in OpenSSL 3 or Java 20.
    /// `LegacyDES`: Less secure algorithm. Use this option for maximal compatibility.
    /// `Modern2023`: Secure algorithm. Use this option in case you have to always use secure algorithms
    /// (e.g., because of company policy). Please note that the security of the algorithm is not that important
    /// in reality, because the unencrypted certificate and private key are also stored in the Secret.
    /// `Modern2026`: Encodes PKCS#12 files using algorithms that are considered modern as of 2026.
    /// Private keys and certificates are encrypted using PBES2 with PBKDF2-HMAC-SHA-256 and AES-256-CBC.
    /// The MAC algorithm is PBMAC1 with PBKDF2-HMAC-SHA-256 and HMAC-SHA256.
    /// Files produced with this profile can be read by OpenSSL 3.4.0 and higher, Java 26 and higher,
    /// or with Java using compatible versions of Bouncy Castle. Meets FIPS 140-3 requirements.
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

/// A reference to a specific 'key' within a Secret resource.
/// In some instances, `key` is a required field.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct SecretKeySelector {
    /// The name of the Secret resource being referred to.
    #[serde(flatten)]
    pub local: LocalObjectReference,

    /// The key of the entry in the Secret resource's `data` field to be used.
    /// Some instances of this field may be defaulted, in others it may be
    /// required.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// A reference to an object in the same namespace as the referent.
/// If the referent is a cluster-scoped resource (e.g., a ClusterIssuer),
/// the reference instead refers to the resource with the given name in the
/// configured 'cluster resource namespace', which is set as a flag on the
/// controller component (and defaults to the namespace that cert-manager
/// runs in).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct LocalObjectReference {
    /// Name of the resource being referred to.
    /// More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
    pub name: String,
}

/// IssuerReference is a reference to a certificate issuer object with a given name, kind and group.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct IssuerReference {
    /// Name of the issuer being referred to.
    pub name: String,
    /// Kind of the issuer being referred to.
    /// Defaults to 'Issuer'.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Group of the issuer being referred to.
    /// Defaults to 'cert-manager.io'.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// KeyUsage specifies valid usage contexts for keys.
/// See:
/// https://tools.ietf.org/html/rfc5280#section-4.2.1.3
/// https://tools.ietf.org/html/rfc5280#section-4.2.1.12
///
/// Valid KeyUsage values are as follows:
/// "signing",
/// "digital signature",
/// "content commitment",
/// "key encipherment",
/// "key agreement",
/// "data encipherment",
/// "cert sign",
/// "crl sign",
/// "encipher only",
/// "decipher only",
/// "any",
/// "server auth",
/// "client auth",
/// "code signing",
/// "email protection",
/// "s/mime",
/// "ipsec end system",
/// "ipsec tunnel",
/// "ipsec user",
/// "timestamping",
/// "ocsp signing",
/// "microsoft sgc",
/// "netscape sgc"
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

/// CertificatePrivateKey contains configuration options for private keys
/// used by the Certificate controller.
/// These include the key algorithm and size, the used encoding and the
/// rotation policy.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificatePrivateKey {
    /// RotationPolicy controls how private keys should be regenerated when a
    /// re-issuance is being processed.
    ///
    /// If set to `Never`, a private key will only be generated if one does not
    /// already exist in the target `spec.secretName`. If one does exist but it
    /// does not have the correct algorithm or size, a warning will be raised
    /// to await user intervention.
    /// If set to `Always`, a private key matching the specified requirements
    /// will be generated whenever a re-issuance occurs.
    /// Default is `Always`.
    /// The default was changed from `Never` to `Always` in cert-manager >=v1.18.0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation_policy: Option<PrivateKeyRotationPolicy>,

    /// The private key cryptography standards (PKCS) encoding for this
    /// certificate's private key to be encoded in.
    ///
    /// If provided, allowed values are `PKCS1` and `PKCS8` standing for PKCS#1
    /// and PKCS#8, respectively.
    /// Defaults to `PKCS1` if not specified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<PrivateKeyEncoding>,

    /// Algorithm is the private key algorithm of the corresponding private key
    /// for this certificate.
    ///
    /// If provided, allowed values are either `RSA`, `ECDSA` or `Ed25519`.
    /// If `algorithm` is specified and `size` is not provided,
    /// key size of 2048 will be used for `RSA` key algorithm and
    /// key size of 256 will be used for `ECDSA` key algorithm.
    /// key size is ignored when using the `Ed25519` key algorithm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<PrivateKeyAlgorithm>,

    /// Size is the key bit size of the corresponding private key for this certificate.
    ///
    /// If `algorithm` is set to `RSA`, valid values are `2048`, `4096` or `8192`,
    /// and will default to `2048` if not specified.
    /// If `algorithm` is set to `ECDSA`, valid values are `256`, `384` or `521`,
    /// and will default to `256` if not specified.
    /// If `algorithm` is set to `Ed25519`, Size is ignored.
    /// No other values are allowed.
    // Go's `int`: an integer of no declared width.
    #[schema(type = "integer")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
}

/// Denotes how private keys should be generated or sourced when a Certificate
/// is being issued.
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

/// CertificateAdditionalOutputFormat defines an additional output format of a
/// Certificate resource. These contain supplementary data formats of the signed
/// certificate chain and paired private key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct CertificateAdditionalOutputFormat {
    /// Type is the name of the format type that should be written to the
    /// Certificate's target Secret.
    #[serde(rename = "type")]
    pub type_: CertificateOutputFormatType,
}

/// CertificateOutputFormatType specifies which additional output formats should
/// be written to the Certificate's target Secret.
/// Allowed values are `DER` or `CombinedPEM`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum CertificateOutputFormatType {
    #[serde(rename = "DER")]
    Der,
    #[serde(rename = "CombinedPEM")]
    CombinedPem,
}

/// NameConstraints is a type to represent x509 NameConstraints
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct NameConstraints {
    /// if true then the name constraints are marked critical.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical: Option<bool>,
    /// Permitted contains the constraints in which the names must be located.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permitted: Option<NameConstraintItem>,
    /// Excluded contains the constraints which must be disallowed. Any name matching a
    /// restriction in the excluded field is invalid regardless
    /// of information appearing in the permitted
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excluded: Option<NameConstraintItem>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct NameConstraintItem {
    /// DNSDomains is a list of DNS domains that are permitted or excluded.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dns_domains: Vec<String>,
    /// IPRanges is a list of IP Ranges that are permitted or excluded.
    /// This should be a valid CIDR notation.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ip_ranges: Vec<String>,
    /// EmailAddresses is a list of Email Addresses that are permitted or excluded.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub email_addresses: Vec<String>,
    /// URIDomains is a list of URI domains that are permitted or excluded.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uri_domains: Vec<String>,
}

/// CertificateRenewal configures how the certificate is renewed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct CertificateRenewal {
    /// `policy` must be one of `Disabled`, `RenewBefore`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<RenewalPolicy>,
    /// `windows` mentions the behavior of when the renewal must happen.
    #[schema(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub windows: Vec<CertificateRenewalWindows>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum RenewalPolicy {
    RenewBefore,
    Disabled,
}

/// CertificateRenewalWindows is the definition for renewal windows
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateRenewalWindows {
    /// `cron` is a cron compliant string to allow when the renewal should be allowed. Format is as shown below:
    /// * * * * *
    /// | | | | |
    /// | | | | day of the week (0–6) (Sunday to Saturday;
    /// | | | month (1–12)             7 is also Sunday on some systems)
    /// | | day of the month (1–31)
    /// | hour (0–23)
    /// minute (0–59)
    #[schema(min_length = 1)]
    pub cron: String,

    /// `windowDuration` is how long the cron definition is active for.
    /// Value must be in units accepted by Go time.ParseDuration https://golang.org/pkg/time/#ParseDuration.
    #[schema(pattern = r"^([0-9]+(\.[0-9]+)?(s|m|h))+$")]
    pub window_duration: Duration,

    /// `timezone` is IANA compliant timezone. For example America/Denver.
    /// If this field is not set, timezone is treated as UTC.
    #[schema(min_length = 1)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timezone: Option<String>,
}

/// Status of the Certificate.
/// This is set and managed automatically.
/// Read-only.
/// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateStatus {
    /// List of status conditions to indicate the status of certificates.
    /// Known condition types are `Ready` and `Issuing`.
    #[schema(list_type = "map", list_map_keys = ["type"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<CertificateCondition>,

    /// LastFailureTime is set only if the latest issuance for this
    /// Certificate failed and contains the time of the failure. If an
    /// issuance has failed, the delay till the next issuance will be
    /// calculated using formula time.Hour * 2 ^ (failedIssuanceAttempts -
    /// 1). If the latest issuance has succeeded this field will be unset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_failure_time: Option<Time>,

    /// The time after which the certificate stored in the secret named
    /// by this resource in `spec.secretName` is valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_before: Option<Time>,

    /// The expiration time of the certificate stored in the secret named
    /// by this resource in `spec.secretName`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_after: Option<Time>,

    /// RenewalTime is the time at which the certificate will be next
    /// renewed.
    /// If not set, no upcoming renewal is scheduled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renewal_time: Option<Time>,

    /// The current 'revision' of the certificate as issued.
    ///
    /// When a CertificateRequest resource is created, it will have the
    /// `cert-manager.io/certificate-revision` set to one greater than the
    /// current value of this field.
    ///
    /// Upon issuance, this field will be set to the value of the annotation
    /// on the CertificateRequest resource used to issue the certificate.
    ///
    /// Persisting the value on the CertificateRequest resource allows the
    /// certificates controller to know whether a request is part of an old
    /// issuance or if it is part of the ongoing revision's issuance by
    /// checking if the revision value in the annotation is greater than this
    /// field.
    #[schema(type = "integer")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revision: Option<i64>,

    /// The name of the Secret resource containing the private key to be used
    /// for the next certificate iteration.
    /// The keymanager controller will automatically set this field if the
    /// `Issuing` condition is set to `True`.
    /// It will automatically unset this field when the Issuing condition is
    /// not set or False.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_private_key_secret_name: Option<String>,

    /// The number of continuous failed issuance attempts up till now. This
    /// field gets removed (if set) on a successful issuance and gets set to
    /// 1 if unset and an issuance has failed. If an issuance has failed, the
    /// delay till the next issuance will be calculated using formula
    /// time.Hour * 2 ^ (failedIssuanceAttempts - 1).
    #[schema(type = "integer")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_issuance_attempts: Option<i64>,

    /// ACME stores information that is fetched from the ACME CA server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acme: Option<CertificateAcmeStatus>,
}

/// CertificateCondition contains condition information for a Certificate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateCondition {
    /// Type of the condition, known values are (`Ready`, `Issuing`).
    #[serde(rename = "type")]
    pub type_: String,

    /// Status of the condition, one of (`True`, `False`, `Unknown`).
    pub status: ConditionStatus,

    /// LastTransitionTime is the timestamp corresponding to the last status
    /// change of this condition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,

    /// Reason is a brief machine readable explanation for the condition's last
    /// transition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,

    /// Message is a human readable description of the details of the last
    /// transition, complementing reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,

    /// If set, this represents the .metadata.generation that the condition was
    /// set based upon.
    /// For instance, if .metadata.generation is currently 12, but the
    /// .status.condition[x].observedGeneration is 9, the condition is out of date
    /// with respect to the current state of the Certificate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
}

/// ConditionStatus represents a condition's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, StructuralSchema)]
pub enum ConditionStatus {
    True,
    False,
    Unknown,
}

/// CertificateACMEStatus holds ACME-specific status for a Certificate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct CertificateAcmeStatus {
    /// ARI stores the ACME Renewal Information that is fetched from the ACME server
    /// in accordance with RFC 9773. This is only populated if the ARI feature gate is enabled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ari: Option<CertificateAriStatus>,
}

/// CertificateARIStatus holds the ACME Renewal Information for a Certificate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
pub struct CertificateAriStatus {
    /// SuggestedWindow is the suggested renewal window as returned by the ACME server in accordance with RFC 9773.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggested_window: Option<SuggestedWindow>,

    /// ExplanationURL is a human-readable URL that may explain why the suggested window
    /// has its current value.
    #[serde(rename = "explanationURL", skip_serializing_if = "Option::is_none")]
    pub explanation_url: Option<String>,

    /// LastChecked is the time at which the ACME server was last checked for renewal information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_checked: Option<Time>,

    /// NextCheck is the time at which the ACME server will next be checked for renewal information.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_check: Option<Time>,

    /// LastError is the last error encountered when checking the ACME server for renewal information, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
}

/// SuggestedWindow is a renewal window as returned by the ACME server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, StructuralSchema)]
pub struct SuggestedWindow {
    /// Start is the start of the suggested renewal window.
    pub start: Time,
    /// End is the end of the suggested renewal window.
    pub end: Time,
}
