//! The `schema-gen` binary end to end, one test binary: a module per
//! command or area, sharing the helpers of [`common`] that run the real
//! binary.
//!
//! One area: `cargo test -p schema-gen --test integration MODULE::`.

mod common;

mod ci_reports;
mod cli;
mod docs_site;
mod lint;
mod ytt;
