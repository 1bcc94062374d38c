//! The metadata of custom resources and of embedded resources
//! (`x-kubernetes-embedded-resource: true`), handled to the letter as the
//! API server handles it.
//!
//! This reproduces apiextensions-apiserver's
//! `pkg/apiserver/schema/objectmeta` package and the apimachinery code it
//! calls:
//!
//! * [`get_object_meta`] / `decode_object_meta`: `GetObjectMeta`, the JSON
//!   round trip of `metadata` into a `metav1.ObjectMeta`. The metadata is
//!   marshalled with `encoding/json` (map keys sorted) and unmarshalled with
//!   `sigs.k8s.io/json` (case-sensitive field names), so the decode error is
//!   the one Go reports: the first type mismatch in sorted-key order, e.g.
//!   `json: cannot unmarshal number into Go struct field ObjectMeta.name of
//!   type string`, unless a timestamp fails to decode, which aborts the
//!   decode and wins (`parsing time "x" as "2006-01-02T15:04:05Z07:00":
//!   cannot parse "x" as "2006"`). With `drop_malformed`, every top-level
//!   field that fails to decode is dropped instead.
//! * [`ObjectMeta::to_unstructured`] / `coerce_metadata` /
//!   [`coerce_embedded_resource`]: `SetObjectMeta` and the metadata part of
//!   `Coerce`, which rewrite `metadata` as the server stores it: unknown
//!   fields gone, `omitempty` fields dropped, timestamps normalised to UTC
//!   RFC 3339, a zero `creationTimestamp` removed.
//! * [`validate_embedded_resource`] is `validateEmbeddedResource`
//!   (`apiVersion`, `kind` and `metadata` of an embedded resource or of the
//!   resource root).
//! * `validate_object_meta` is apimachinery's `ValidateObjectMeta` with
//!   the embedded-resource name validator `path.ValidatePathSegmentName`;
//!   `validate_object_meta_with` takes any name function and is what a
//!   custom resource's root metadata (`object::admission`) and a CRD's own
//!   metadata (`crd::validation`) are validated with, after
//!   `before_create`.
//!
//! Go iterates maps in random order; wherever that decides the order of the
//! reported errors (the keys of an embedded resource, labels, annotations)
//! this module iterates in sorted key order, so the output is deterministic.
//!
//! A few texts differ between API server releases; this module uses those
//! of the release `validation/definition.rs` reproduces: `must be no more than 63
//! characters` (newer: `bytes`), `kind must not be empty` and friends for
//! owner references (newer: `must not be empty`), and an empty `apiVersion`
//! or `kind` of an embedded resource is `Invalid: "": must not be empty`
//! (some releases report `Required value` instead).

pub mod walk;

mod coerce;
mod decode;
mod go_values;
mod types;
mod validation;

pub use coerce::coerce_embedded_resource;
pub(crate) use coerce::coerce_metadata;
pub use decode::get_object_meta;
pub(crate) use decode::{decode_object_meta, unknown_object_meta_fields};
pub use types::{ManagedFieldsEntry, ObjectMeta, OwnerReference, Time};
pub use validation::validate_embedded_resource;
pub(crate) use validation::{
    before_create, validate_object_meta, validate_object_meta_update, validate_object_meta_with,
};
