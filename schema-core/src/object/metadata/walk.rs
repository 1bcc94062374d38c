//! The walks of apiextensions `pkg/apiserver/schema/objectmeta` that follow
//! a structural schema through an object to its embedded resources:
//! `Coerce` (the first metadata problem, with the metadata of embedded
//! resources rewritten as the server stores it) and `Validate`.

use serde_json::Value;

use crate::model::field::{ErrorList, FieldError, Path};
use crate::model::structural::Structural;
use crate::model::wire::codec::Loc;
use crate::object::metadata;
use crate::object::schema_view::View;

/// A node's embedded-resource flag, with the resource root counting as
/// embedded.
pub(crate) fn embedded(s: &Structural, forced: bool) -> bool {
    forced || s.extensions.embedded_resource
}

/// `objectmeta.Coerce(pth, obj, s, isResourceRoot, dropInvalidFields=false)`:
/// the first metadata problem, with the metadata of embedded resources
/// rewritten as the server stores it.
pub fn coerce_value(
    p: &Path,
    x: &mut Value,
    s: Option<&Structural>,
    is_resource_root: bool,
) -> Option<FieldError> {
    coerce_value_view(p, x, s.map(View::plain), is_resource_root)
}

/// [`coerce_value`] on a schema view; prepared views skip the subtrees
/// without embedded resources.
pub fn coerce_value_view(
    p: &Path,
    x: &mut Value,
    s: Option<View<'_>>,
    is_resource_root: bool,
) -> Option<FieldError> {
    let empty = Structural::default();
    let s = if is_resource_root {
        Some(s.unwrap_or(View::plain(&empty)))
    } else {
        s
    };
    coerce_walk(&Loc::base(p), x, s, is_resource_root)
}

fn coerce_walk(
    p: &Loc<'_>,
    x: &mut Value,
    s: Option<View<'_>>,
    forced: bool,
) -> Option<FieldError> {
    let s = s?;
    if !forced && !s.may_embed() {
        return None;
    }
    match x {
        Value::Object(map) => {
            if embedded(s.schema(), forced) {
                if let Some(e) = metadata::coerce_embedded_resource(&p.path(), map, false) {
                    return Some(e);
                }
            }
            for (k, v) in map.iter_mut() {
                let e = if let Some(prop) = s.prop(k) {
                    coerce_walk(&p.child(k), v, Some(prop), false)
                } else if let Some(ap) = s.additional() {
                    coerce_walk(&p.key(k), v, ap, false)
                } else {
                    None
                };
                if e.is_some() {
                    return e;
                }
            }
            None
        }
        Value::Array(items) => {
            let is = s.items();
            for (i, v) in items.iter_mut().enumerate() {
                if let Some(e) = coerce_walk(&p.index(i), v, is, false) {
                    return Some(e);
                }
            }
            None
        }
        _ => None,
    }
}

/// `objectmeta.Validate(pth, obj, s, isResourceRoot)`.
pub fn validate_meta(
    p: &Path,
    x: &Value,
    s: Option<&Structural>,
    is_resource_root: bool,
    errs: &mut ErrorList,
) {
    validate_meta_view(p, x, s.map(View::plain), is_resource_root, errs);
}

/// [`validate_meta`] on a schema view; prepared views skip the subtrees
/// without embedded resources.
pub fn validate_meta_view(
    p: &Path,
    x: &Value,
    s: Option<View<'_>>,
    is_resource_root: bool,
    errs: &mut ErrorList,
) {
    let empty = Structural::default();
    let s = if is_resource_root {
        Some(s.unwrap_or(View::plain(&empty)))
    } else {
        s
    };
    validate_meta_walk(&Loc::base(p), x, s, is_resource_root, errs);
}

fn validate_meta_walk(
    p: &Loc<'_>,
    x: &Value,
    s: Option<View<'_>>,
    forced: bool,
    errs: &mut ErrorList,
) {
    let Some(s) = s else { return };
    if !forced && !s.may_embed() {
        return;
    }
    match x {
        Value::Object(map) => {
            if embedded(s.schema(), forced) {
                errs.extend(metadata::validate_embedded_resource(&p.path(), map));
            }
            for (k, v) in map {
                if let Some(prop) = s.prop(k) {
                    validate_meta_walk(&p.child(k), v, Some(prop), false, errs);
                } else if let Some(ap) = s.additional() {
                    validate_meta_walk(&p.key(k), v, ap, false, errs);
                }
            }
        }
        Value::Array(items) => {
            let is = s.items();
            for (i, v) in items.iter().enumerate() {
                validate_meta_walk(&p.index(i), v, is, false, errs);
            }
        }
        _ => {}
    }
}
