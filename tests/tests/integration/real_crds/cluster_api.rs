//! Cluster API's `Cluster` (`cluster.x-k8s.io`), both served versions:
//! `v1beta1` (deprecated) and `v1beta2` (stored). Each version is its own
//! module, as each is its own Go package upstream
//! (kubernetes-sigs/cluster-api `api/core/v1beta1` and `api/core/v1beta2`:
//! `cluster_types.go`, `common_types.go`, `condition_types.go`,
//! `clusterclass_types.go`, `machinehealthcheck_types.go`,
//! `machinedeployment_types.go`, `machineset_types.go`,
//! `machine_types.go`, and `api/deprecated/errors`). Fields, JSON names and
//! markers follow the Go types; the doc comments are this crate's own.
//!
//! The Kubernetes types come from k8s-openapi (`metav1.Condition`,
//! `metav1.Time`, `corev1.ObjectReference`, `intstr.IntOrString`);
//! `metav1.Duration`, which k8s-openapi has no type for, is the stand-in of
//! [`crate::real_crds::k8s`]; `apiextensionsv1.JSON` is a [`serde_json::Value`].

use schema_core::model::wire::CustomResourceDefinition;
use schema_core::rust::{CustomResource, merge_crds};

/// Both versions merged into one CRD, in controller-gen's order (by
/// version name).
pub fn crd() -> CustomResourceDefinition {
    let v1beta1 = v1beta1::Cluster::crd().unwrap_or_else(|e| panic!("v1beta1: {e}"));
    let v1beta2 = v1beta2::Cluster::crd().unwrap_or_else(|e| panic!("v1beta2: {e}"));
    merge_crds(&[v1beta1, v1beta2]).unwrap_or_else(|e| panic!("merge: {e}"))
}

/// The deprecated `v1beta1` API: references are full object references,
/// timeouts are durations, and the newer conditions live under
/// `status.v1beta2`.
pub mod v1beta1;

/// The stored `v1beta2` API: typed references by API group, timeouts in
/// seconds, health checks grouped, the old conditions under
/// `status.deprecated.v1beta1`.
pub mod v1beta2;
