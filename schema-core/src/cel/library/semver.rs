//! The Kubernetes semver library (`library/semverlib.go`): `semver`,
//! `isSemver` (optionally normalizing), the `major`, `minor` and `patch`
//! accessors and the comparisons.

use std::cmp::Ordering;
use std::rc::Rc;

use super::comparisons::functions_with_comparisons;
use super::entry::{Estimate, Function, Overload, RuntimeCost, global_with, member_with};
use super::operands::str_arg;
use crate::cel::error::EvalError;
use crate::cel::types::{Type, k8s};
use crate::cel::value::semver::Semver;
use crate::cel::value::{EvalResult, Ext, Val};

/// The library's functions.
pub(crate) const FUNCTIONS: &[Function] = functions_with_comparisons! {
    comparisons: "semver", k8s::semver, applies is_comparison, compare compare;
    functions: [
        Function {
            name: "semver",
            overloads: &[
                Overload {
                    id: "string_to_semver",
                    member: false,
                    signature: || (vec![Type::String], k8s::semver()),
                },
                Overload {
                    id: "string_bool_to_semver",
                    member: false,
                    signature: || (vec![Type::String, Type::Bool], k8s::semver()),
                },
            ],
            applies: |receiver, args| global_with(receiver, args, &[1, 2]),
            call: |args| {
                parse(args).and_then(|p| {
                    p.map(|v| Val::Ext(Rc::new(Ext::Semver(v))))
                        .map_err(EvalError::new)
                })
            },
            runtime_cost: RuntimeCost::FirstArgumentTraversal,
            estimate: Estimate::FirstArgumentTraversal,
        },
        Function {
            name: "isSemver",
            overloads: &[
                Overload {
                    id: "is_semver_string",
                    member: false,
                    signature: || (vec![Type::String], Type::Bool),
                },
                Overload {
                    id: "is_semver_string_bool",
                    member: false,
                    signature: || (vec![Type::String, Type::Bool], Type::Bool),
                },
            ],
            applies: |receiver, args| global_with(receiver, args, &[1, 2]),
            call: |args| parse(args).map(|p| Val::Bool(p.is_ok())),
            runtime_cost: RuntimeCost::FirstArgumentTraversal,
            estimate: Estimate::FirstArgumentTraversal,
        },
        Function {
            name: "major",
            overloads: &[Overload {
                id: "semver_major",
                member: true,
                signature: || (vec![k8s::semver()], Type::Int),
            }],
            applies: is_accessor,
            call: |args| receiver(args).map(|v| component(v.major)),
            runtime_cost: RuntimeCost::Constant,
            estimate: Estimate::Constant,
        },
        Function {
            name: "minor",
            overloads: &[Overload {
                id: "semver_minor",
                member: true,
                signature: || (vec![k8s::semver()], Type::Int),
            }],
            applies: is_accessor,
            call: |args| receiver(args).map(|v| component(v.minor)),
            runtime_cost: RuntimeCost::Constant,
            estimate: Estimate::Constant,
        },
        Function {
            name: "patch",
            overloads: &[Overload {
                id: "semver_patch",
                member: true,
                signature: || (vec![k8s::semver()], Type::Int),
            }],
            applies: is_accessor,
            call: |args| receiver(args).map(|v| component(v.patch)),
            runtime_cost: RuntimeCost::Constant,
            estimate: Estimate::Constant,
        },
    ],
};

fn semver_of<'v>(v: Option<&'v Val<'_>>) -> Option<&'v Semver> {
    match v {
        Some(Val::Ext(e)) => match &**e {
            Ext::Semver(s) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// A comparison on a semver receiver (the quantity library has
/// comparisons of the same names).
fn is_comparison(receiver: bool, args: &[Val<'_>]) -> bool {
    member_with(receiver, args, &[2]) && semver_of(args.first()).is_some()
}

fn is_accessor(receiver: bool, args: &[Val<'_>]) -> bool {
    member_with(receiver, args, &[1])
}

/// The string argument parsed, normalized if the optional second
/// argument is `true`.
fn parse(args: &[Val<'_>]) -> Result<Result<Semver, String>, EvalError> {
    let s = str_arg(args, 0)?;
    let normalize = match args.get(1) {
        None => false,
        Some(Val::Bool(b)) => *b,
        Some(_) => return Err(EvalError::no_overload()),
    };
    Ok(if normalize {
        Semver::parse_normalized(s)
    } else {
        Semver::parse(s)
    })
}

fn receiver<'v>(args: &'v [Val<'_>]) -> Result<&'v Semver, EvalError> {
    semver_of(args.first()).ok_or_else(EvalError::no_overload)
}

/// Go's int64 of the uint64 number.
fn component<'a>(n: u64) -> Val<'a> {
    Val::Int(n as i64)
}

fn compare<'a>(args: &[Val<'a>], result: fn(Ordering) -> Val<'a>) -> EvalResult<'a> {
    let v = receiver(args)?;
    let o = semver_of(args.get(1)).ok_or_else(EvalError::no_overload)?;
    Ok(result(v.compare(o)))
}
