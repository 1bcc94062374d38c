//! Two CRDs compared node by node, as JSON: every node one side has and
//! the other has not, and every node whose values differ, with its JSON
//! pointer.

use std::fmt;

use serde_json::Value;

/// How the two sides differ at one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Only kube-derive's CRD has the node.
    KubeOnly,
    /// Only ours has the node.
    OursOnly,
    /// Both have it, with different values: scalars that differ, a
    /// different JSON type, or arrays of different lengths.
    Differs,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Change::KubeOnly => "kube-derive only",
            Change::OursOnly => "ours only",
            Change::Differs => "differs",
        })
    }
}

/// One node where the two CRDs differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// The node's JSON pointer (RFC 6901: `/` between segments, `~1` for a
    /// `/` inside a key).
    pub path: String,
    /// How it differs.
    pub change: Change,
    /// kube-derive's value at the node (`None` when absent).
    pub kube: Option<Value>,
    /// Ours (`None` when absent).
    pub ours: Option<Value>,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |v: &Option<Value>| v.as_ref().map_or("absent".to_string(), Value::to_string);
        write!(
            f,
            "{} ({}): kube-derive {}, ours {}",
            self.path,
            self.change,
            shown(&self.kube),
            shown(&self.ours)
        )
    }
}

/// Every node where `ours` differs from `kube`, in document order
/// (kube-derive's members first, then those only ours has). Numbers are
/// equal when their values are (`0` and `0.0` are one number to the API
/// server); arrays of one length are compared item by item.
pub fn differences(kube: &Value, ours: &Value) -> Vec<Difference> {
    let mut out = Vec::new();
    compare_at(&mut String::new(), kube, ours, &mut out);
    out
}

fn compare_at(path: &mut String, kube: &Value, ours: &Value, out: &mut Vec<Difference>) {
    match (kube, ours) {
        (Value::Object(k), Value::Object(o)) => {
            for (key, kv) in k {
                let len = push_segment(path, key);
                match o.get(key) {
                    Some(ov) => compare_at(path, kv, ov, out),
                    None => out.push(one_sided(path, Change::KubeOnly, kv)),
                }
                path.truncate(len);
            }
            for (key, ov) in o.iter().filter(|(key, _)| !k.contains_key(*key)) {
                let len = push_segment(path, key);
                out.push(one_sided(path, Change::OursOnly, ov));
                path.truncate(len);
            }
        }
        (Value::Array(k), Value::Array(o)) if k.len() == o.len() => {
            for (i, (kv, ov)) in k.iter().zip(o).enumerate() {
                let len = push_segment(path, &i.to_string());
                compare_at(path, kv, ov, out);
                path.truncate(len);
            }
        }
        (Value::Number(k), Value::Number(o)) if k.as_f64() == o.as_f64() => {}
        _ if kube == ours => {}
        _ => out.push(Difference {
            path: path.clone(),
            change: Change::Differs,
            kube: Some(kube.clone()),
            ours: Some(ours.clone()),
        }),
    }
}

fn one_sided(path: &str, change: Change, value: &Value) -> Difference {
    let (kube, ours) = match change {
        Change::KubeOnly => (Some(value.clone()), None),
        _ => (None, Some(value.clone())),
    };
    Difference {
        path: path.to_string(),
        change,
        kube,
        ours,
    }
}

/// Appends `/segment` (escaped) to `path`; returns the length to truncate
/// back to.
fn push_segment(path: &mut String, segment: &str) -> usize {
    let len = path.len();
    path.push('/');
    path.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    len
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Change, differences};

    #[test]
    fn every_node_one_side_lacks_or_holds_differently_is_reported_with_its_pointer() {
        let kube = json!({"a": {"b": 1, "c/d": "x", "e": [1, 2]}, "n": 0.0, "k": true});
        let ours = json!({"a": {"b": 2, "c/d": "x", "e": [1, 2, 3]}, "n": 0, "o": null});
        let found: Vec<(String, Change)> = differences(&kube, &ours)
            .into_iter()
            .map(|d| (d.path, d.change))
            .collect();
        assert_eq!(
            found,
            vec![
                ("/a/b".to_string(), Change::Differs),
                ("/a/e".to_string(), Change::Differs),
                ("/k".to_string(), Change::KubeOnly),
                ("/o".to_string(), Change::OursOnly),
            ]
        );
    }

    #[test]
    fn keys_with_slashes_and_tildes_are_escaped() {
        let found = differences(&json!({"a/b~c": 1}), &json!({}));
        assert_eq!(found[0].path, "/a~1b~0c");
    }
}
