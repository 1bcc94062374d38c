//! Object shapes, told apart by a 128-bit hash: two object nodes have the
//! same shape when their `properties` (names, order and whole subtrees,
//! descriptions included) and `required` are equal. The reference
//! documents describe a shape's fields once and link its later occurrences
//! to the first.
//!
//! Hashes of containers are memoized by address over one schema tree, so
//! hashing every object of a schema is linear; the walk is iterative, so
//! any nesting is fine.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::marker::PhantomData;

use serde_json::Value;

/// Shape hashes of the object nodes of one schema tree (`'v`: the tree,
/// whose node addresses key the memo).
pub(crate) struct Shapes<'v> {
    memo: HashMap<usize, u128>,
    tree: PhantomData<&'v Value>,
}

fn addr(v: &Value) -> usize {
    std::ptr::from_ref(v) as usize
}

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Object(_))
}

/// Two differently seeded hashers: together a 128-bit hash.
fn hashers() -> (DefaultHasher, DefaultHasher) {
    let a = DefaultHasher::new();
    let mut b = DefaultHasher::new();
    0x9e37_79b9_7f4a_7c15_u64.hash(&mut b);
    (a, b)
}

fn finish(a: &DefaultHasher, b: &DefaultHasher) -> u128 {
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

fn scalar_hash(v: &Value) -> u128 {
    let (mut a, mut b) = hashers();
    let mut feed = |x: &dyn Fn(&mut DefaultHasher)| {
        x(&mut a);
        x(&mut b);
    };
    match v {
        Value::Null => feed(&|h| 0u8.hash(h)),
        Value::Bool(x) => feed(&|h| (1u8, *x).hash(h)),
        Value::Number(n) => {
            let s = n.to_string();
            feed(&|h| (2u8, &s).hash(h));
        }
        Value::String(s) => feed(&|h| (3u8, s).hash(h)),
        Value::Array(_) | Value::Object(_) => {}
    }
    finish(&a, &b)
}

impl<'v> Shapes<'v> {
    /// An empty memo.
    pub(crate) fn new() -> Self {
        Shapes {
            memo: HashMap::new(),
            tree: PhantomData,
        }
    }

    /// The shape of an object node: its `properties` and `required`.
    pub(crate) fn shape(&mut self, node: &'v Value) -> u128 {
        let null = &Value::Null;
        let p = self.hash(node.get("properties").unwrap_or(null));
        let r = self.hash(node.get("required").unwrap_or(null));
        let (mut a, mut b) = hashers();
        for h in [&mut a, &mut b] {
            (p, r).hash(h);
        }
        finish(&a, &b)
    }

    fn child_hash(&self, v: &Value) -> u128 {
        if is_container(v) {
            self.memo.get(&addr(v)).copied().unwrap_or(0)
        } else {
            scalar_hash(v)
        }
    }

    /// The hash of a value, key order included.
    fn hash(&mut self, root: &'v Value) -> u128 {
        if !is_container(root) {
            return scalar_hash(root);
        }
        let mut stack = vec![(root, false)];
        while let Some((v, children_done)) = stack.pop() {
            if self.memo.contains_key(&addr(v)) {
                continue;
            }
            if !children_done {
                stack.push((v, true));
                let pending = |c: &&Value| is_container(c) && !self.memo.contains_key(&addr(c));
                match v {
                    Value::Array(items) => {
                        stack.extend(items.iter().filter(pending).map(|c| (c, false)));
                    }
                    Value::Object(m) => {
                        stack.extend(m.values().filter(pending).map(|c| (c, false)));
                    }
                    _ => {}
                }
                continue;
            }
            let (mut a, mut b) = hashers();
            match v {
                Value::Array(items) => {
                    for h in [&mut a, &mut b] {
                        (4u8, items.len()).hash(h);
                    }
                    for c in items {
                        let ch = self.child_hash(c);
                        ch.hash(&mut a);
                        ch.hash(&mut b);
                    }
                }
                Value::Object(m) => {
                    for h in [&mut a, &mut b] {
                        (5u8, m.len()).hash(h);
                    }
                    for (k, c) in m {
                        let ch = self.child_hash(c);
                        (k, ch).hash(&mut a);
                        (k, ch).hash(&mut b);
                    }
                }
                _ => {}
            }
            self.memo.insert(addr(v), finish(&a, &b));
        }
        self.child_hash(root)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_shapes_hash_equal_and_others_differ() {
        let tree = json!({
            "a": {"type": "object", "description": "one", "properties": {"x": {"type": "string"}, "y": {"type": "integer"}}, "required": ["x"]},
            "b": {"type": "object", "description": "two", "properties": {"x": {"type": "string"}, "y": {"type": "integer"}}, "required": ["x"]},
            "c": {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "integer"}}},
            "d": {"type": "object", "properties": {"y": {"type": "integer"}, "x": {"type": "string"}}, "required": ["x"]},
            "e": {"type": "object", "properties": {"x": {"type": "string", "description": "x"}, "y": {"type": "integer"}}, "required": ["x"]},
        });
        let mut shapes = Shapes::new();
        let h: Vec<u128> = ["a", "b", "c", "d", "e"]
            .iter()
            .map(|k| shapes.shape(&tree[*k]))
            .collect();
        assert_eq!(h[0], h[1]);
        for i in 1..h.len() {
            for j in i + 1..h.len() {
                assert_ne!(h[i], h[j], "{i} {j}");
            }
        }
    }

    #[test]
    fn deep_values_hash_without_recursion() {
        let mut v = json!({"type": "string"});
        for _ in 0..100_000 {
            let mut m = serde_json::Map::new();
            m.insert("properties".into(), json!({}));
            m["properties"]
                .as_object_mut()
                .map(|p| p.insert("a".into(), v));
            v = Value::Object(m);
        }
        let mut shapes = Shapes::new();
        let _ = shapes.shape(&v);
        crate::model::depth::drop_deep(v);
    }
}
