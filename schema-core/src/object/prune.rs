//! Pruning of unknown fields (apiextensions
//! `pkg/apiserver/schema/pruning/algorithm.go`).
//!
//! Fields the schema does not specify are removed, except under
//! `x-kubernetes-preserve-unknown-fields`; the apiVersion, kind and
//! metadata of the resource root and of embedded resources are kept. The
//! paths of removed fields are returned sorted, as the server reports them
//! (`a.b[0].c`).
//!
//! The walk is [`crate::object::prune_default_walk`]'s, which can also remove non-nullable
//! nulls and default in the same pass.

use serde_json::Value;

use crate::model::structural::Structural;
use crate::object::prune_default_walk::run;
use crate::object::schema_view::View;

/// `PruneWithOptions(obj, s, isResourceRoot, {TrackUnknownFieldPaths: track})`.
/// Returns the sorted paths of pruned fields (empty unless `track`).
pub fn prune(
    obj: &mut Value,
    s: Option<&Structural>,
    is_resource_root: bool,
    track: bool,
) -> Vec<String> {
    let s = s.map(View::plain);
    run(obj, Some((s, is_resource_root)), None, None, track)
}

/// [`prune`], then `PruneNonNullableNullsWithoutDefaults(obj, s)` (see
/// [`crate::object::default`]), in one walk.
pub fn prune_and_drop_nulls(
    obj: &mut Value,
    s: Option<View<'_>>,
    is_resource_root: bool,
    track: bool,
) -> Vec<String> {
    run(obj, Some((s, is_resource_root)), s, None, track)
}

/// [`prune_and_drop_nulls`], then `Default(obj, s)` (see
/// [`crate::object::default`]), in one walk: the decoding of an object that is not
/// a resource root.
pub fn prune_drop_nulls_and_default(
    obj: &mut Value,
    s: Option<View<'_>>,
    track: bool,
) -> Vec<String> {
    run(obj, Some((s, false)), s, s, track)
}
