//! Values of any depth: serde_json's own `Drop` recurses, so a value nested
//! deeply enough overflows the stack when it is dropped. The algorithms
//! drop the values they remove through `drop_deep`, and measure nesting
//! with `deeper_than` against the server's [`MAX_VALUE_NESTING`].

use serde_json::Value;

/// Drops `v` without recursion: containers are emptied onto an explicit
/// stack, so each value dropped is at most one level deep.
pub(crate) fn drop_deep(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Drops an optional removed value (see [`drop_deep`]).
pub(crate) fn drop_removed(v: Option<Value>) {
    if let Some(v) = v {
        drop_deep(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_a_million_levels_without_overflow() {
        let mut v = Value::Null;
        for _ in 0..1_000_000 {
            v = Value::Array(vec![v]);
        }
        drop_deep(v);
    }
}

/// The deepest nesting the API server's JSON decoder accepts (Go's
/// `encoding/json` scanner, which sigs.k8s.io/json shares, stops at 10,000
/// levels of arrays and objects).
pub const MAX_VALUE_NESTING: usize = 10_000;

/// Whether `v` nests arrays and objects more than `limit` levels deep,
/// found without recursion.
pub(crate) fn deeper_than(v: &Value, limit: usize) -> bool {
    let container = |v: &&Value| matches!(v, Value::Array(_) | Value::Object(_));
    if !container(&v) {
        return false;
    }
    // Only containers are stacked: scalars have no depth of their own.
    let mut stack = vec![(v, 1usize)];
    while let Some((v, d)) = stack.pop() {
        if d > limit {
            return true;
        }
        match v {
            Value::Array(items) => stack.extend(items.iter().filter(container).map(|c| (c, d + 1))),
            Value::Object(map) => stack.extend(map.values().filter(container).map(|c| (c, d + 1))),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod depth_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn depth_counts_containers() {
        assert!(!deeper_than(&json!(1), 0));
        assert!(!deeper_than(&json!([1]), 1));
        assert!(deeper_than(&json!([[1]]), 1));
        assert!(!deeper_than(&json!({"a": [1], "b": 2}), 2));
        assert!(deeper_than(&json!({"a": [{}], "b": 2}), 2));
    }
}
