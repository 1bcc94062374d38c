//! The table of `crd(...)` keys, in the order the derive suggests them
//! for a misspelt key.

use crate::ValueKind;
use crate::keys::*;

/// One key of `crd(...)`: a setting of the custom resource's CRD.
#[derive(Clone, Copy, Debug)]
pub struct CrdSetting {
    /// The key.
    pub key: &'static str,
    /// Its value.
    pub value: ValueKind,
    /// How it is written.
    pub example: &'static str,
    /// What it sets in the CRD: the reference's "CRD" column.
    pub doc: &'static str,
}

/// The setting of `key`, if it is one.
pub fn crd_setting(key: &str) -> Option<&'static CrdSetting> {
    CRD_SETTINGS.iter().find(|s| s.key == key)
}

/// Every key of `crd(...)`.
pub const CRD_SETTINGS: &[CrdSetting] = &[
    CrdSetting {
        key: GROUP,
        value: ValueKind::String,
        example: "group = \"example.com\"",
        doc: "`spec.group`; a DNS subdomain with at least one dot",
    },
    CrdSetting {
        key: VERSION,
        value: ValueKind::String,
        example: "version = \"v1alpha1\"",
        doc: "the version's `name`; a DNS-1035 label",
    },
    CrdSetting {
        key: KIND,
        value: ValueKind::String,
        example: "kind = \"Database\"",
        doc: "`names.kind`, and the root type's name; must differ from the spec struct's name",
    },
    CrdSetting {
        key: PLURAL,
        value: ValueKind::String,
        example: "plural = \"databases\"",
        doc: "`names.plural`. Default: controller-gen's, `flect.Pluralize` of the lower-cased kind (`Policy` → `policies`, `Ingress` → `ingresses`, `Proxy` → `proxies`, `Key` → `keys`, `Status` → `statuses`, `Person` → `people`, `Child` → `children`, `Index` → `indices`)",
    },
    CrdSetting {
        key: SINGULAR,
        value: ValueKind::String,
        example: "singular = \"db\"",
        doc: "`names.singular`. Default: the lower-cased kind",
    },
    CrdSetting {
        key: LIST_KIND,
        value: ValueKind::String,
        example: "list_kind = \"DatabaseList\"",
        doc: "`names.listKind`. Default: the kind + `List`",
    },
    CrdSetting {
        key: SHORT_NAMES,
        value: ValueKind::Strings,
        example: "short_names = [\"db\"]",
        doc: "`names.shortNames`",
    },
    CrdSetting {
        key: CATEGORIES,
        value: ValueKind::Strings,
        example: "categories = [\"all\"]",
        doc: "`names.categories`",
    },
    CrdSetting {
        key: NAMESPACED,
        value: ValueKind::Flag,
        example: "namespaced",
        doc: "`scope: Namespaced`. Default: `Cluster`, as controller-gen and kube",
    },
    CrdSetting {
        key: STATUS,
        value: ValueKind::Type,
        example: "status = DatabaseStatus",
        doc: "the `status` property and field, and the status subresource",
    },
    CrdSetting {
        key: STATUS_SUBRESOURCE,
        value: ValueKind::Flag,
        example: "status_subresource = false",
        doc: "no `subresources.status` (controller-gen's root type without `+kubebuilder:subresource:status`); needs `status`",
    },
    CrdSetting {
        key: SPEC_OPTIONAL,
        value: ValueKind::Flag,
        example: "spec_optional",
        doc: "`spec` not in the root's `required` (Go's `json:\"spec,omitempty\"`); the field is an `Option`",
    },
    CrdSetting {
        key: SCALE,
        value: ValueKind::Nested,
        example: "scale(spec_replicas_path = \".spec.replicas\", status_replicas_path = \".status.replicas\", label_selector_path = \".status.selector\")",
        doc: "`subresources.scale`; needs `status`; the paths must be under `.spec` / `.status` (the selector under either)",
    },
    CrdSetting {
        key: PRINTER_COLUMN,
        value: ValueKind::Nested,
        example: "printer_column(name = \"Age\", type = \"date\", json_path = \".metadata.creationTimestamp\", description = \"...\", format = \"date-time\", priority = 1)",
        doc: "one `additionalPrinterColumns` entry, repeatable, in order; `type` one of `integer`, `number`, `string`, `boolean`, `date`; `format` one of `int32`, `int64`, `float`, `double`, `byte`, `date`, `date-time`, `password`; names may repeat, as the API server allows",
    },
    CrdSetting {
        key: SELECTABLE_FIELD,
        value: ValueKind::String,
        example: "selectable_field = \".spec.engine\"",
        doc: "one `selectableFields` entry, repeatable (at most 8); must name a string, boolean or integer field",
    },
    CrdSetting {
        key: SERVED,
        value: ValueKind::Flag,
        example: "served = false",
        doc: "the version's `served`. Default: true",
    },
    CrdSetting {
        key: STORAGE,
        value: ValueKind::Flag,
        example: "storage = false",
        doc: "the version's `storage`. Default: true; exactly one version of a merged CRD must be",
    },
    CrdSetting {
        key: DEPRECATED,
        value: ValueKind::Flag,
        example: "deprecated",
        doc: "the version's `deprecated: true`",
    },
    CrdSetting {
        key: DEPRECATION_WARNING,
        value: ValueKind::String,
        example: "deprecation_warning = \"use v1\"",
        doc: "`deprecationWarning` (and `deprecated: true`)",
    },
    CrdSetting {
        key: DOC,
        value: ValueKind::String,
        example: "doc = \"Database is the Schema for the databases API.\"",
        doc: "the root schema's `description` (none by default) and the root type's doc",
    },
    CrdSetting {
        key: MAX_DESCRIPTION_LEN,
        value: ValueKind::Count,
        example: "max_description_len = 80",
        doc: "controller-gen's `maxDescLen`: every description of the schema longer than N bytes is cut at N, then back to the last sentence end (`.` and the other Unicode sentence terminators), else to the last space with `...` appended, else `...` is appended to the cut; `0` removes every description",
    },
    CrdSetting {
        key: ROOT,
        value: ValueKind::String,
        example: "root = \"DatabaseResource\"",
        doc: "the root type's name, when it cannot (or should not) be the kind",
    },
    CrdSetting {
        key: OBJECT_ROOT,
        value: ValueKind::Flag,
        example: "object_root",
        doc: "the struct is the whole object, not the spec (see below)",
    },
    CrdSetting {
        key: EXPLICIT_NAMES,
        value: ValueKind::Flag,
        example: "explicit_names",
        doc: "`spec.names` holds only the names written: without `singular` or `list_kind` the CRD leaves them for the API server to default (the constants still carry the defaults)",
    },
    CrdSetting {
        key: ANNOTATIONS,
        value: ValueKind::StringMap,
        example: "annotations = {\"example.com/owner\": \"platform\"}",
        doc: "the CRD's `metadata.annotations` (controller-gen's `+kubebuilder:metadata:annotations`)",
    },
    CrdSetting {
        key: EMPTY_SUBRESOURCES,
        value: ValueKind::Flag,
        example: "empty_subresources",
        doc: "`subresources: {}` even without status or scale (as some CRDs are written)",
    },
    CrdSetting {
        key: GENERATE_EMBEDDED_OBJECT_META,
        value: ValueKind::Flag,
        example: "generate_embedded_object_meta",
        doc: "controller-gen's `crd:generateEmbeddedObjectMeta=true`: an `ObjectMeta` embedded below the root (a k8s-openapi `PodTemplateSpec`'s `metadata`) is the object of `name`, `namespace`, `labels`, `annotations` and `finalizers` instead of a bare `{type: object}`, so the server keeps a template's labels instead of pruning them",
    },
    CrdSetting {
        key: LABELS,
        value: ValueKind::StringMap,
        example: "labels = {\"app.kubernetes.io/part-of\": \"shop\"}",
        doc: "the CRD's `metadata.labels`",
    },
    CrdSetting {
        key: CONVERSION,
        value: ValueKind::JsonObject,
        example: "conversion = {\"strategy\": \"Webhook\", \"webhook\": {\"clientConfig\": {\"service\": {\"name\": \"conv\", \"namespace\": \"system\", \"path\": \"/convert\"}}, \"conversionReviewVersions\": [\"v1\"]}}",
        doc: "the CRD's `spec.conversion`, as JSON, checked as the API server checks it when `crd()` runs",
    },
    CrdSetting {
        key: PRESERVE_UNKNOWN_FIELDS_CRD,
        value: ValueKind::Flag,
        example: "preserve_unknown_fields = false",
        doc: "`spec.preserveUnknownFields` (a v1 CRD may only write `false`)",
    },
];
