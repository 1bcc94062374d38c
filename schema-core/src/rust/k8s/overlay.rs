//! Hand-written patches for what controller-gen emits for the Kubernetes
//! types but the Go markers do not say, so that `cargo xtask k8s-markers`
//! cannot derive it into `markers.rs`. They apply after the marker
//! patches, to every Kubernetes version (a patch whose path does not exist
//! in the selected version is skipped). Each entry says why it is here.
//!
//! The table is empty: every detail the corpus CRDs show for the embedded
//! Kubernetes types (`tests/tests/k8s.rs` compares them) follows from the
//! markers. controller-gen's own special cases are elsewhere: the types it
//! replaces by a fixed schema (`Quantity`, `IntOrString`, `Time`,
//! `ObjectMeta` …) in `known` and the `ObjectMeta` handling of `mod.rs`,
//! and the values of `+k8s:enum` types, which controller-gen reads from Go
//! constants, in the generator's input (`ENUM_CONSTS` in
//! `xtask/src/k8s_markers/mod.rs`).

use super::Patch;

/// The patches, sorted by schema name, then path.
pub(super) static PATCHES: &[Patch] = &[];
