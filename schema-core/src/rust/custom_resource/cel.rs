//! Client-side evaluation of a custom resource's CEL rules
//! (`x-kubernetes-validations` of its CRD's schema), as the API server
//! evaluates them on a create or an update, without a server: what
//! kube-derive's `#[kube(cel)]` methods `validate_cel` and
//! `validate_cel_update` call.

use serde::Serialize;

use super::{CrdError, CustomResource};
use crate::cel::functions::CompatibilityVersion;
use crate::cel::validator::{CelOptions, CelValidator, RUNTIME_CEL_COST_BUDGET};
use crate::model::field::{ErrorList, Path};
use crate::model::options::Options;
use crate::model::structural::{NewStructuralError, Structural};

/// Why `validate_cel` (or `validate_cel_update`) failed.
#[derive(Debug, thiserror::Error)]
pub enum CelValidationError {
    /// The CRD cannot be built or is invalid.
    #[error(transparent)]
    Crd(#[from] CrdError),
    /// The CRD's schema is not structural.
    #[error("the schema is not structural: {0}")]
    NotStructural(#[from] NewStructuralError),
    /// The resource does not serialize to JSON.
    #[error("the resource does not serialize to JSON: {0}")]
    Serialize(String),
    /// Rules that failed, as the API server reports them.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))]
    Rules(ErrorList),
}

/// Evaluates the CEL rules of `T`'s CRD on `obj`, as an update of `old`
/// when it is given (transition rules, with `oldSelf`, run only then).
/// Only the rules are evaluated, as kube-derive's methods do; the schema's
/// other validations are [`crate::Admission`]'s.
///
/// # Errors
///
/// [`CelValidationError::Rules`] with every failing rule, or why the rules
/// could not run.
pub fn validate_cel<T: CustomResource + Serialize>(
    obj: &T,
    old: Option<&T>,
) -> Result<(), CelValidationError> {
    let options = Options::default();
    let crd = T::crd_with(&options)?;
    let schema = crd
        .spec
        .iter()
        .flat_map(|s| s.versions.iter().flatten())
        .find_map(|v| v.schema.as_ref()?.open_api_v3_schema.as_ref());
    let Some(schema) = schema else {
        return Ok(());
    };
    let structural = Structural::from_props(schema)?;
    let compatibility = CompatibilityVersion::stored_expressions(options.kube_version);
    let Some(validator) = CelValidator::with_rules(&structural, true, compatibility) else {
        return Ok(());
    };
    let json =
        |v: &T| serde_json::to_value(v).map_err(|e| CelValidationError::Serialize(e.to_string()));
    let obj = json(obj)?;
    let old = old.map(json).transpose()?;
    let outcome = validator.validate(
        &Path::root(),
        &obj,
        old.as_ref(),
        CelOptions::default(),
        RUNTIME_CEL_COST_BUDGET,
    );
    if outcome.errors.is_empty() {
        Ok(())
    } else {
        Err(CelValidationError::Rules(outcome.errors))
    }
}
