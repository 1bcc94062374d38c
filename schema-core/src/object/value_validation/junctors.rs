//! The junctors (kube-openapi's `schemaPropsValidator`): `anyOf` and
//! `oneOf` (whose best failing branch gives its errors), `allOf`, `not`
//! and `dependencies`, and `keepRelevantErrors` (`IMPORTANT!` messages).

use serde_json::Value;

use super::chain::validate_node;
use super::error::{Raw, run_claimed};
use super::node::{Dep, Node};
use crate::go::fmt::go_quote;
use crate::model::field::DottedPath;

/// Errors of one junctor branch, validated on its own.
fn branch<'a>(n: &'a Node, v: &'a Value, path: &DottedPath<'_>) -> (u64, Vec<Raw<'a>>) {
    let mut errs = Vec::new();
    let mc = validate_node(n, v, path, &mut errs);
    (mc, errs)
}

/// What trying the branches of an `anyOf` or a `oneOf` found.
struct Tried<'a> {
    /// How many branches validated.
    validated: usize,
    /// The match count of the first branch that validated.
    first_success: Option<u64>,
    /// The failing branch of the highest match count (the first of equal
    /// ones) while none validated, with its errors.
    best: Option<(u64, Vec<Raw<'a>>)>,
}

impl<'a> Tried<'a> {
    /// The match count of the branch the junctor takes, the best failing
    /// one or else the first that validated, its errors pushed to `out`.
    fn merge(self, out: &mut Vec<Raw<'a>>) -> u64 {
        match (self.best, self.first_success) {
            (Some((mc, errs)), _) => {
                out.extend(errs);
                mc
            }
            (None, Some(mc)) => mc,
            (None, None) => 0,
        }
    }
}

/// The branches validated in order, their `IMPORTANT!` errors kept in
/// `keep` (cleared when one validates); `anyOf` stops at the first branch
/// that validates (`stop_at_first_success`), `oneOf` counts them all.
fn try_branches<'a>(
    branches: &'a [Node],
    v: &'a Value,
    path: &DottedPath<'_>,
    keep: &mut Vec<Raw<'a>>,
    stop_at_first_success: bool,
) -> Tried<'a> {
    let mut tried = Tried {
        validated: 0,
        first_success: None,
        best: None,
    };
    for b in branches {
        let (bmc, errs) = branch(b, v, path);
        keep_important(&errs, keep);
        if errs.is_empty() {
            tried.validated += 1;
            tried.best = None;
            tried.first_success.get_or_insert(bmc);
            keep.clear();
            if stop_at_first_success {
                break;
            }
            continue;
        }
        if tried.validated == 0 && tried.best.as_ref().is_none_or(|(m, _)| bmc > *m) {
            tried.best = Some((bmc, errs));
        }
    }
    tried
}

/// `schemaPropsValidator.Validate`; returns its match count.
pub(super) fn check_junctors<'a>(
    n: &'a Node,
    v: &'a Value,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) -> u64 {
    // The branches' validators do not ratchet: everything they report is
    // the junctor's node's.
    run_claimed(out, path, true, |out| run_junctors(n, v, path, out))
}

/// The junctors' checks (see [`check_junctors`]).
fn run_junctors<'a>(
    n: &'a Node,
    v: &'a Value,
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) -> u64 {
    let mut mc = 0;
    let mut keep_any: Vec<Raw<'a>> = Vec::new();
    let mut keep_one: Vec<Raw<'a>> = Vec::new();
    let mut keep_all: Vec<Raw<'a>> = Vec::new();

    if !n.any_of.is_empty() {
        let tried = try_branches(&n.any_of, v, path, &mut keep_any, true);
        if tried.first_success.is_none() {
            out.push(Raw::plain(format!(
                "{} must validate at least one schema (anyOf)",
                go_quote(&path.render())
            )));
        }
        mc += tried.merge(out);
    }

    if !n.one_of.is_empty() {
        let tried = try_branches(&n.one_of, v, path, &mut keep_one, false);
        if tried.validated != 1 {
            let additional = if tried.validated == 0 {
                "Found none valid".to_string()
            } else {
                format!("Found {} valid alternatives", tried.validated)
            };
            out.push(Raw::plain(format!(
                "{} must validate one and only one schema (oneOf). {additional}",
                go_quote(&path.render())
            )));
        }
        // Of several valid alternatives, none is taken.
        if tried.validated <= 1 {
            mc += tried.merge(out);
        }
    }

    if !n.all_of.is_empty() {
        let mut validated = 0usize;
        for b in &n.all_of {
            let start = out.len();
            mc += validate_node(b, v, path, out);
            let added = out.get(start..).unwrap_or_default();
            keep_important(added, &mut keep_all);
            if added.is_empty() {
                validated += 1;
            }
        }
        if validated != n.all_of.len() {
            let additional = if validated == 0 {
                ". None validated"
            } else {
                ""
            };
            out.push(Raw::plain(format!(
                "{} must validate all the schemas (allOf){additional}",
                go_quote(&path.render())
            )));
        }
    }

    if let Some(not) = &n.not {
        let (_, errs) = branch(not, v, path);
        if errs.is_empty() {
            out.push(Raw::plain(format!(
                "{} must not validate the schema (not)",
                go_quote(&path.render())
            )));
        }
    }

    if !n.dependencies.is_empty() {
        if let Value::Object(map) = v {
            for key in map.keys() {
                let Some((_, dep)) = n.dependencies.iter().find(|(k, _)| k == key) else {
                    continue;
                };
                match dep {
                    Dep::Schema(s) => {
                        mc += validate_node(s, v, &DottedPath::Dot(path, key), out);
                    }
                    Dep::Property(props) => {
                        for p in props {
                            if !map.contains_key(p) {
                                out.push(Raw::plain(format!(
                                    "{} has a dependency on {p}",
                                    go_quote(&path.render())
                                )));
                            }
                        }
                    }
                }
            }
        }
    }

    mc += 1;
    out.extend(keep_all);
    out.extend(keep_one);
    out.extend(keep_any);
    mc
}

/// `keepRelevantErrors`: the `IMPORTANT!` errors of a branch, kept
/// whatever the match counts say.
fn keep_important<'a>(errs: &[Raw<'a>], keep: &mut Vec<Raw<'a>>) {
    keep.extend(errs.iter().filter_map(Raw::important));
}
