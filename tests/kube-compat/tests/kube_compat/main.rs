//! kube-rs's sources compiled with kube-derive and with schema-core's
//! compatibility derives, one module per comparison:
//!
//! - `crds`: each source's CRDs from both sides, node by node, against the
//!   allow-list;
//! - `verdicts`: the API server's CRD validation on every CRD (ours, and
//!   with Go the server's own code);
//! - `behaviour`: the sources' objects admitted with each CRD (pruning,
//!   defaults, validation, CEL rules) and what the program reads from the
//!   generated items;
//! - `plurals`: the default plural of each of a list of awkward kinds.
//!
//! One area: `cargo test -p kube-compat-tests --test kube_compat MODULE::`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

mod behaviour;
mod crds;
mod plurals;
mod verdicts;
