//! Validation of custom-resource values against a CRD schema, as the API
//! server does it: apiextensions' `ValidateCustomResource` on kube-openapi's
//! `SchemaValidator`, with the result converted to field errors by
//! `kubeOpenAPIResultToFieldErrors`.
//!
//! [`SchemaValidator::new`] converts a [`JsonSchemaProps`] the way
//! `ConvertJSONSchemaPropsWithPostProcess` does (`x-kubernetes-int-or-string`
//! becomes the type list `integer,string`; formats the server does not
//! support are dropped) and precompiles everything that depends on the
//! schema only (patterns, enum renderings, bound range checks).
//! [`SchemaValidator::validate`] then walks the value once, reproducing
//! kube-openapi's validator chain (type, junctors, string, format, number,
//! slice, enum, object — all of them, even after a failure), its "match
//! counts" (which pick the errors of the best `anyOf`/`oneOf` branch), its
//! messages and their de-duplication, and the conversion of each message
//! into a `field.Error`.
//!
//! Numbers keep Go's distinction: an integral JSON number that fits `int64`
//! is an `int64`, every other number a `float64`.
//!
//! Recursion follows the schema only (a value is descended into only where
//! a schema describes it), so its depth is bounded by the schema's; the
//! checks that look at whole values (`uniqueItems`, `enum`) are iterative.
//!
//! The parts: `node` is the converted schema and how it is built from a
//! `JSONSchemaProps`; `chain` runs the validator chain at one node (the
//! type and enum checks included), handing the kind-specific checks to
//! `string` (lengths, pattern, format), `number`, `array`, `object` and
//! `junctors` (`allOf`, `anyOf`, `oneOf`, `not`, `dependencies`); `error`
//! holds the errors as kube-openapi makes them, their messages and their
//! conversion to field errors; `node_ref` lets other walks follow the
//! schema themselves and check node by node.

mod array;
mod chain;
mod error;
mod junctors;
mod node;
mod node_ref;
mod number;
mod properties;
mod string;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use serde_json::Value;

use crate::model::correlation::Correlated;
use crate::model::field::{DottedPath, ErrorList, Path};
use crate::model::wire::JsonSchemaProps;
use chain::validate_node;
use error::{Raw, ValueStep};
use node::Node;

pub use crate::go::formats::{FormatCompat, check as check_format};
pub(crate) use node_ref::{
    Check, NodeRef, TRIVIAL_ARRAY, TRIVIAL_BOOL, TRIVIAL_OBJECT, TRIVIAL_STRING,
};

/// The errors of an update ([`SchemaValidator::validate_update`]).
#[derive(Debug, Default)]
pub(crate) struct UpdateErrors {
    /// The errors that stand.
    pub(crate) errors: ErrorList,
    /// The errors of unchanged nodes, which the server drops.
    pub(crate) ratcheted: ErrorList,
}

/// Whether the error `raw` is ratcheted in the update `old`. The root's
/// `kind` and `apiVersion` get no ratcheting validator of their own
/// (apiserver's `isTypeMetaField`): their errors are the root's.
fn ratchets(raw: &Raw<'_>, old: Correlated<'_>) -> bool {
    let mut deepest = old;
    for (depth, step) in raw.origin.iter().flatten().enumerate() {
        let next = match step {
            ValueStep::Key(k) if depth == 0 && (k == "kind" || k == "apiVersion") => None,
            ValueStep::Key(k) => deepest.key(k),
            ValueStep::Index(i) => deepest.index(*i),
        };
        match next {
            Some(c) => deepest = c,
            None => break,
        }
    }
    deepest.unchanged()
}

/// `kubeOpenAPIResultToFieldErrors` over errors in the order the
/// validators report them, de-duplicated by message as `Result.AddErrors`
/// does.
fn field_errors<'r, 'a: 'r>(raws: impl Iterator<Item = &'r Raw<'a>>, root: &Path) -> ErrorList {
    let mut seen: HashSet<String> = HashSet::new();
    let mut errs = ErrorList::new();
    for raw in raws {
        let msg = raw.message();
        if seen.contains(&msg) {
            continue;
        }
        seen.insert(msg.clone());
        errs.push(raw.to_field_error(root, msg));
    }
    errs
}

/// A compiled validator for one schema (kube-openapi's `SchemaValidator`
/// over the converted `spec.Schema`).
pub struct SchemaValidator {
    root: Node,
}

impl std::fmt::Debug for SchemaValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaValidator").finish_non_exhaustive()
    }
}

impl SchemaValidator {
    /// Builds the validator at the current format-support version. Never
    /// fails: problems such as invalid patterns surface when validating.
    pub fn new(schema: &JsonSchemaProps) -> Self {
        Self::with_compat(schema, FormatCompat::Current)
    }

    /// Builds the validator with the formats supported at `compat`.
    pub fn with_compat(schema: &JsonSchemaProps, compat: FormatCompat) -> Self {
        Self {
            root: Node::build(schema, compat),
        }
    }

    /// `ValidateCustomResource(root, value, validator)`: the field errors,
    /// in the order kube-openapi reports them, de-duplicated by message.
    /// Errors without a field of their own (junctor messages, range
    /// checks) are reported at `root` (which prints `<nil>` when empty).
    pub fn validate(&self, value: &Value, root: &Path) -> ErrorList {
        let mut out = Vec::new();
        validate_node(&self.root, value, &DottedPath::Root, &mut out);
        field_errors(out.iter(), root)
    }

    /// `ValidateCustomResourceUpdate` with ratcheting: the value's errors
    /// split into those that stand and those ratcheted away. An error is
    /// ratcheted when the deepest node correlated with the old object on
    /// the way to its origin (the node whose validator reported it) is
    /// unchanged, which is where the server's ratcheting validators turn
    /// a node's errors into warnings.
    pub(crate) fn validate_update(
        &self,
        value: &Value,
        root: &Path,
        old: Correlated<'_>,
    ) -> UpdateErrors {
        let mut out = Vec::new();
        validate_node(&self.root, value, &DottedPath::Root, &mut out);
        if out.is_empty() {
            return UpdateErrors::default();
        }
        let ratcheted: Vec<bool> = out.iter().map(|r| ratchets(r, old)).collect();
        let split = |keep: bool| {
            let raws = out.iter().zip(&ratcheted).filter(move |(_, r)| **r == keep);
            field_errors(raws.map(|(raw, _)| raw), root)
        };
        UpdateErrors {
            errors: split(false),
            ratcheted: split(true),
        }
    }

    /// Whether `value` is valid (no allocation unless it is not).
    pub fn is_valid(&self, value: &Value) -> bool {
        let mut out = Vec::new();
        validate_node(&self.root, value, &DottedPath::Root, &mut out);
        out.is_empty()
    }

    /// The root node, for walks that follow the schema themselves and
    /// check each node with [`Check`]s.
    pub(crate) fn root(&self) -> NodeRef<'_> {
        NodeRef(&self.root)
    }
}
