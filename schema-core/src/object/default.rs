//! Defaulting (apiextensions `pkg/apiserver/schema/defaulting/algorithm.go`
//! and `prunenulls.go`): schema defaults fill gaps in an object, and nulls
//! that the schema does not allow (and cannot default) are removed.

use serde_json::Value;

use crate::model::structural::Structural;
use crate::object::prune_default_walk::run;
use crate::object::schema_view::View;

/// `Default(x, s)`: sets every missing property that has a default (and
/// every null one that is not nullable) to a copy of the default, then
/// recurses, so nested defaults apply inside inserted defaults too.
/// Null array items and null additionalProperties values are replaced by
/// the items' or values' default when they are not nullable.
pub fn default(x: &mut Value, s: Option<&Structural>) {
    default_view(x, s.map(View::plain));
}

/// [`default`] on a schema view; prepared views skip the subtrees without
/// defaults.
pub fn default_view(x: &mut Value, s: Option<View<'_>>) {
    run(x, None, None, s, false);
}

/// `PruneNonNullableNullsWithoutDefaults(x, s)`: removes map entries whose
/// value is null when their schema (property, else additionalProperties)
/// exists, is not nullable and has no default. Null array items stay.
pub fn prune_non_nullable_nulls_without_defaults(x: &mut Value, s: Option<&Structural>) {
    run(x, None, s.map(View::plain), None, false);
}
