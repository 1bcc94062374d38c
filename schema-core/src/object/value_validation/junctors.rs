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
        let mut best: Option<(u64, Vec<Raw<'a>>)> = None;
        let mut first_success: Option<u64> = None;
        for b in &n.any_of {
            let (bmc, errs) = branch(b, v, path);
            keep_important(&errs, &mut keep_any);
            if errs.is_empty() {
                best = None;
                first_success.get_or_insert(bmc);
                keep_any.clear();
                break;
            }
            if best.as_ref().is_none_or(|(m, _)| bmc > *m) {
                best = Some((bmc, errs));
            }
        }
        if first_success.is_none() {
            out.push(Raw::plain(format!(
                "{} must validate at least one schema (anyOf)",
                go_quote(&path.render())
            )));
        }
        if let Some((bmc, errs)) = best {
            mc += bmc;
            out.extend(errs);
        } else if let Some(s) = first_success {
            mc += s;
        }
    }

    if !n.one_of.is_empty() {
        let mut best: Option<(u64, Vec<Raw<'a>>)> = None;
        let mut first_success: Option<u64> = None;
        let mut validated = 0usize;
        for b in &n.one_of {
            let (bmc, errs) = branch(b, v, path);
            keep_important(&errs, &mut keep_one);
            if errs.is_empty() {
                validated += 1;
                best = None;
                first_success.get_or_insert(bmc);
                keep_one.clear();
                continue;
            }
            if validated == 0 && best.as_ref().is_none_or(|(m, _)| bmc > *m) {
                best = Some((bmc, errs));
            }
        }
        if validated != 1 {
            let additional = if validated == 0 {
                "Found none valid".to_string()
            } else {
                format!("Found {validated} valid alternatives")
            };
            out.push(Raw::plain(format!(
                "{} must validate one and only one schema (oneOf). {additional}",
                go_quote(&path.render())
            )));
            if let Some((bmc, errs)) = best {
                mc += bmc;
                out.extend(errs);
            }
        } else if let Some(s) = first_success {
            mc += s;
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
