//! The resource version an update carries: the stored object's
//! `metadata.resourceVersion`, which the API server requires of a custom
//! resource update, and the stand-in given to a stored object read from a
//! file, which has none.

use serde_json::Value;

use crate::object::admission::{Admission, Admitted};

/// The resource version given to a stored object that names none (a
/// manifest read from a file): the API server gives every stored object
/// one.
pub const STAND_IN_RESOURCE_VERSION: &str = "1";

/// The `resourceVersion` of `metadata` (an object's `metadata`), when it
/// is a non-empty string.
#[must_use]
pub fn resource_version(metadata: Option<&Value>) -> Option<&str> {
    metadata?
        .get("resourceVersion")
        .and_then(Value::as_str)
        .filter(|v| !v.is_empty())
}

/// Sets the `resourceVersion` of `metadata` when it is a map.
pub fn set_resource_version(metadata: &mut Value, version: &str) {
    if let Value::Object(meta) = metadata {
        meta.insert(
            "resourceVersion".to_string(),
            Value::String(version.to_string()),
        );
    }
}

/// The resource version of the stored object `stored`: its own, or the
/// stand-in when it names none.
#[must_use]
pub fn stored_resource_version(stored: &Value) -> &str {
    resource_version(stored.get("metadata")).unwrap_or(STAND_IN_RESOURCE_VERSION)
}

/// `stored` as the API server keeps it: with a resource version (the
/// stand-in when it names none).
#[must_use]
pub fn as_stored(mut stored: Value) -> Value {
    if resource_version(stored.get("metadata")).is_none()
        && let Some(meta) = stored.get_mut("metadata")
    {
        set_resource_version(meta, STAND_IN_RESOURCE_VERSION);
    }
    stored
}

/// The update of `old` to `new` as `kubectl apply` makes it reach the
/// server: the manifest is patched onto the stored object, so when it
/// names no `metadata.resourceVersion` it carries the stored one. When the
/// old manifest names none either, both get the stand-in, which is left
/// out of the admitted object.
#[must_use]
pub fn update_as_applied(admission: &Admission, mut new: Value, mut old: Value) -> Admitted {
    if resource_version(new.get("metadata")).is_some() {
        return admission.update(new, old);
    }
    let stand_in = resource_version(old.get("metadata")).is_none();
    let stored = stored_resource_version(&old).to_string();
    if let Some(meta) = new.get_mut("metadata") {
        set_resource_version(meta, &stored);
    }
    if stand_in && let Some(meta) = old.get_mut("metadata") {
        set_resource_version(meta, &stored);
    }
    let mut admitted = admission.update(new, old);
    if stand_in
        && let Some(meta) = admitted
            .object
            .get_mut("metadata")
            .and_then(Value::as_object_mut)
    {
        meta.shift_remove("resourceVersion");
    }
    admitted
}
