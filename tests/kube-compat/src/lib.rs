//! kube-rs's custom resource sources, each compiled twice: once with
//! kube-derive's `CustomResource` and schemars' `JsonSchema` (the modules
//! under [`kube_derive`]), and once with
//! `schema_core::kube::{CustomResource, JsonSchema}` (the modules under
//! [`ours`], every source but those of [`NOT_YET_OURS`]). The two builds of a source differ in their `use` lines alone:
//! each source is one file under `src/shapes/`, included into both.
//!
//! A source is written the way kube-rs's CRD examples and kube-derive's CRD
//! tests are written (the same attributes and types) and gives, besides its
//! types:
//!
//! - `crds()`: the CRDs it derives and the ones it submits (merged
//!   versions), by name;
//! - `examples()`: the objects its program creates and updates;
//! - `facts()`: what its program reads from the generated items
//!   (`Resource`'s names and paths, `CustomResourceExt`'s, `HasSpec`,
//!   `validate_cel`, ...), as text.
//!
//! The tests (`tests/kube_compat/`) compare the two builds' CRDs node by
//! node against an allow-list ([`allowed`]), ask the API server's CRD
//! validation for its verdict on every CRD, admit the examples with each
//! CRD and compare what is stored, and compare the default plurals of a
//! list of awkward kinds.

pub mod allowed;
pub mod diff;
pub mod example;

pub use example::{Example, merge_patch};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;

/// The CRDs of one source, each with the name the tests report it by.
pub type Crds = Vec<(&'static str, CustomResourceDefinition)>;

/// One source of the list, as its build in one module gives it.
#[derive(Clone, Copy, Debug)]
pub struct Source {
    /// The file name under `src/shapes/`, without `.rs`.
    pub name: &'static str,
    /// The CRDs it derives and submits.
    pub crds: fn() -> Crds,
    /// The objects its program creates and updates.
    pub examples: fn() -> Vec<Example>,
    /// What its program reads from the generated items, by name.
    pub facts: fn() -> Vec<(&'static str, String)>,
}

/// One module including `src/shapes/<name>.rs` below the `use` lines
/// given (in braces).
macro_rules! source_module {
    ({ $($uses:tt)* }, $name:ident) => {
        #[doc = concat!("`src/shapes/", stringify!($name), ".rs`.")]
        pub mod $name {
            // The sources are written as their users write them: private
            // fields, variants without documentation.
            #![allow(unused_imports, dead_code, missing_docs)]
            $($uses)*
            include!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/shapes/", stringify!($name), ".rs"));
        }
    };
}

/// The modules of one side: every source and the plural kinds below the
/// side's `use` lines, and the side's `SOURCES` table.
macro_rules! side {
    ($uses:tt, [$($name:ident),* $(,)?]) => {
        $(source_module!($uses, $name);)*
        source_module!($uses, plural_kinds);

        /// Every source, in the order of the list.
        pub const SOURCES: &[crate::Source] = &[$(crate::Source {
            name: stringify!($name),
            crds: $name::crds,
            examples: $name::examples,
            facts: $name::facts,
        }),*];
    };
}

/// Declares both sides of every source: [`kube_derive`] with every
/// source, and [`ours`] with those the compatibility derives take (the
/// others are listed in [`NOT_YET_OURS`] with what they lack).
macro_rules! sources {
    (both: [$($both:ident),* $(,)?], kube_derive_only: [$($only:ident),* $(,)?] $(,)?) => {
        /// Every source with kube-derive's `CustomResource` and schemars'
        /// `JsonSchema`; `plural_kinds::plurals()` the plurals of the
        /// awkward kinds.
        pub mod kube_derive {
            side!({ use kube::CustomResource; use schemars::JsonSchema; }, [$($both,)* $($only),*]);
        }

        /// The sources of [`kube_derive`] but those of [`NOT_YET_OURS`],
        /// with `schema_core::kube::{CustomResource, JsonSchema}`;
        /// `plural_kinds::plurals()` the plurals of the awkward kinds.
        pub mod ours {
            side!({ use schema_core::kube::{CustomResource, JsonSchema}; }, [$($both),*]);
        }

        /// The sources compiled with kube-derive alone, as
        /// [`NOT_YET_OURS`] names them.
        pub const KUBE_DERIVE_ONLY: &[&str] = &[$(stringify!($only)),*];
    };
}

sources! {
    both: [
        crd_derive,
        crd_derive_schema,
        crd_derive_multi,
        crd_derive_no_schema,
        crd_derive_cel,
        crd_api,
        crd_schema,
        typed_subresource,
        crd_enum,
        crd_mixed_enum,
        crd_schema_times,
    ],
    kube_derive_only: [
        crd_derive_custom_schema,
        crd_complex_enum,
        crd_no_spec,
    ],
}

/// The sources the compatibility derives do not compile yet, each with
/// what it uses that they lack; the tests hold this list to
/// [`KUBE_DERIVE_ONLY`].
pub const NOT_YET_OURS: &[(&str, &str)] = &[
    (
        "crd_derive_custom_schema",
        "a hand-written `impl JsonSchema` (schemars' trait): ours is a derive only",
    ),
    (
        "crd_complex_enum",
        "`#[serde(flatten)]` of an untagged enum (ours flattens structs and maps only)",
    ),
    (
        "crd_no_spec",
        "`#[kube(no_spec)]`-style roots without a spec field",
    ),
];

/// Sources kube-derive compiles but whose `crd()` panics (kube merges the
/// variants of an enum into one object and gives up where they disagree).
/// They are compiled with kube-derive alone: the tests show the panic.
pub mod kube_derive_only {
    source_module!(
        {
            use kube::CustomResource;
            use schemars::JsonSchema;
        },
        crd_mixed_enum_rejected
    );
}
