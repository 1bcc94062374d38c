//! The Kubernetes lists library (`library/lists.go`): `isSorted`, `sum`,
//! `max`, `min`, `indexOf` and `lastIndexOf` on a list, and (version 1)
//! `includes`.

use std::cmp::Ordering;

use super::arithmetic::arith;
use super::entry::{Estimate, Function, Overload, RuntimeCost, member_with};
use super::operands::{arg, bool_of};
use crate::cel::error::EvalError;
use crate::cel::types::Type;
use crate::cel::value::{EvalResult, Val, compare, equals};

/// The library's functions (version 0).
pub(crate) const FUNCTIONS: &[Function] = &[
    Function {
        name: "isSorted",
        overloads: &[
            Overload {
                id: "list_int_is_sorted_bool",
                member: true,
                signature: || (vec![Type::list(Type::Int)], Type::Bool),
            },
            Overload {
                id: "list_uint_is_sorted_bool",
                member: true,
                signature: || (vec![Type::list(Type::Uint)], Type::Bool),
            },
            Overload {
                id: "list_double_is_sorted_bool",
                member: true,
                signature: || (vec![Type::list(Type::Double)], Type::Bool),
            },
            Overload {
                id: "list_bool_is_sorted_bool",
                member: true,
                signature: || (vec![Type::list(Type::Bool)], Type::Bool),
            },
            Overload {
                id: "list_duration_is_sorted_bool",
                member: true,
                signature: || (vec![Type::list(Type::Duration)], Type::Bool),
            },
            Overload {
                id: "list_timestamp_is_sorted_bool",
                member: true,
                signature: || (vec![Type::list(Type::Timestamp)], Type::Bool),
            },
            Overload {
                id: "list_string_is_sorted_bool",
                member: true,
                signature: || (vec![Type::list(Type::String)], Type::Bool),
            },
            Overload {
                id: "list_bytes_is_sorted_bool",
                member: true,
                signature: || (vec![Type::list(Type::Bytes)], Type::Bool),
            },
        ],
        applies: is_aggregate,
        call: |args| with_items(args, is_sorted),
        runtime_cost: RuntimeCost::FirstArgumentElementsTraversal,
        estimate: Estimate::ListElementsTraversal { any_target: false },
    },
    Function {
        name: "sum",
        overloads: &[
            Overload {
                id: "list_int_sum_int",
                member: true,
                signature: || (vec![Type::list(Type::Int)], Type::Int),
            },
            Overload {
                id: "list_uint_sum_uint",
                member: true,
                signature: || (vec![Type::list(Type::Uint)], Type::Uint),
            },
            Overload {
                id: "list_double_sum_double",
                member: true,
                signature: || (vec![Type::list(Type::Double)], Type::Double),
            },
            Overload {
                id: "list_duration_sum_duration",
                member: true,
                signature: || (vec![Type::list(Type::Duration)], Type::Duration),
            },
        ],
        applies: is_aggregate,
        call: |args| with_items(args, sum),
        runtime_cost: RuntimeCost::FirstArgumentElementsTraversal,
        estimate: Estimate::ListElementsTraversal { any_target: false },
    },
    Function {
        name: "max",
        overloads: &[
            Overload {
                id: "list_int_max_int",
                member: true,
                signature: || (vec![Type::list(Type::Int)], Type::Int),
            },
            Overload {
                id: "list_uint_max_uint",
                member: true,
                signature: || (vec![Type::list(Type::Uint)], Type::Uint),
            },
            Overload {
                id: "list_double_max_double",
                member: true,
                signature: || (vec![Type::list(Type::Double)], Type::Double),
            },
            Overload {
                id: "list_bool_max_bool",
                member: true,
                signature: || (vec![Type::list(Type::Bool)], Type::Bool),
            },
            Overload {
                id: "list_duration_max_duration",
                member: true,
                signature: || (vec![Type::list(Type::Duration)], Type::Duration),
            },
            Overload {
                id: "list_timestamp_max_timestamp",
                member: true,
                signature: || (vec![Type::list(Type::Timestamp)], Type::Timestamp),
            },
            Overload {
                id: "list_string_max_string",
                member: true,
                signature: || (vec![Type::list(Type::String)], Type::String),
            },
            Overload {
                id: "list_bytes_max_bytes",
                member: true,
                signature: || (vec![Type::list(Type::Bytes)], Type::Bytes),
            },
        ],
        applies: is_aggregate,
        call: |args| {
            with_items(args, |items| {
                extreme(items, Ordering::Greater, "max called on empty list")
            })
        },
        runtime_cost: RuntimeCost::FirstArgumentElementsTraversal,
        estimate: Estimate::ListElementsTraversal { any_target: false },
    },
    Function {
        name: "min",
        overloads: &[
            Overload {
                id: "list_int_min_int",
                member: true,
                signature: || (vec![Type::list(Type::Int)], Type::Int),
            },
            Overload {
                id: "list_uint_min_uint",
                member: true,
                signature: || (vec![Type::list(Type::Uint)], Type::Uint),
            },
            Overload {
                id: "list_double_min_double",
                member: true,
                signature: || (vec![Type::list(Type::Double)], Type::Double),
            },
            Overload {
                id: "list_bool_min_bool",
                member: true,
                signature: || (vec![Type::list(Type::Bool)], Type::Bool),
            },
            Overload {
                id: "list_duration_min_duration",
                member: true,
                signature: || (vec![Type::list(Type::Duration)], Type::Duration),
            },
            Overload {
                id: "list_timestamp_min_timestamp",
                member: true,
                signature: || (vec![Type::list(Type::Timestamp)], Type::Timestamp),
            },
            Overload {
                id: "list_string_min_string",
                member: true,
                signature: || (vec![Type::list(Type::String)], Type::String),
            },
            Overload {
                id: "list_bytes_min_bytes",
                member: true,
                signature: || (vec![Type::list(Type::Bytes)], Type::Bytes),
            },
        ],
        applies: is_aggregate,
        call: |args| {
            with_items(args, |items| {
                extreme(items, Ordering::Less, "min called on empty list")
            })
        },
        runtime_cost: RuntimeCost::FirstArgumentElementsTraversal,
        estimate: Estimate::ListElementsTraversal { any_target: false },
    },
    Function {
        name: "indexOf",
        overloads: &[Overload {
            id: "list_a_index_of_int",
            member: true,
            signature: || {
                (
                    vec![Type::list(Type::param("A")), Type::param("A")],
                    Type::Int,
                )
            },
        }],
        applies: is_search,
        call: |args| index_of(args, false),
        runtime_cost: RuntimeCost::FirstArgumentElementsTraversal,
        estimate: Estimate::ListElementsTraversal { any_target: false },
    },
    Function {
        name: "lastIndexOf",
        overloads: &[Overload {
            id: "list_a_last_index_of_int",
            member: true,
            signature: || {
                (
                    vec![Type::list(Type::param("A")), Type::param("A")],
                    Type::Int,
                )
            },
        }],
        applies: is_search,
        call: |args| index_of(args, true),
        runtime_cost: RuntimeCost::FirstArgumentElementsTraversal,
        estimate: Estimate::ListElementsTraversal { any_target: false },
    },
];

/// The functions of version 1 of the library.
pub(crate) const VERSION_1_FUNCTIONS: &[Function] = &[Function {
    name: "includes",
    overloads: &[Overload {
        id: "list_includes_dyn_dyn",
        member: true,
        signature: || (vec![Type::Dyn, Type::Dyn], Type::Bool),
    }],
    applies: |receiver, args| member_with(receiver, args, &[2]),
    call: includes,
    runtime_cost: RuntimeCost::FirstArgumentElementsTraversal,
    estimate: Estimate::ListElementsTraversal { any_target: true },
}];

/// `isSorted`, `sum`, `max` and `min`: a receiver alone.
fn is_aggregate(receiver: bool, args: &[Val<'_>]) -> bool {
    member_with(receiver, args, &[1])
}

/// `indexOf` and `lastIndexOf` on a list (the strings extension has
/// functions of the same names on a string).
fn is_search(receiver: bool, args: &[Val<'_>]) -> bool {
    member_with(receiver, args, &[2]) && matches!(args.first(), Some(Val::List(_)))
}

/// `f` of the receiver's elements.
fn with_items<'a>(
    args: &[Val<'a>],
    f: impl FnOnce(Vec<Val<'a>>) -> EvalResult<'a>,
) -> EvalResult<'a> {
    let Val::List(l) = arg(args, 0)? else {
        return Err(EvalError::no_overload());
    };
    f(l.to_vec()?)
}

fn is_sorted<'a>(items: Vec<Val<'a>>) -> EvalResult<'a> {
    for w in items.windows(2) {
        if let [a, b] = w {
            match compare(a, b) {
                Some(Ordering::Greater) => return bool_of(false),
                Some(_) => {}
                None => return Err(EvalError::no_overload()),
            }
        }
    }
    bool_of(true)
}

fn sum<'a>(items: Vec<Val<'a>>) -> EvalResult<'a> {
    let mut acc: Option<Val<'a>> = None;
    for e in items {
        acc = Some(match acc {
            None => e,
            Some(a) => arith("_+_", &a, &e)?,
        });
    }
    // The sum of an empty list is the zero of its element type; the type
    // is not known at runtime: int.
    Ok(acc.unwrap_or(Val::Int(0)))
}

/// The element every other compares `toward` (`Greater`: the largest).
fn extreme<'a>(items: Vec<Val<'a>>, toward: Ordering, empty: &str) -> EvalResult<'a> {
    let mut best: Option<Val<'a>> = None;
    for e in items {
        best = Some(match best {
            None => e,
            Some(b) => {
                let o = compare(&e, &b).ok_or_else(EvalError::no_overload)?;
                if o == toward { e } else { b }
            }
        });
    }
    best.ok_or_else(|| EvalError::new(empty))
}

/// The index of the first (or `last`) element equal to the argument, or
/// -1.
fn index_of<'a>(args: &[Val<'a>], last: bool) -> EvalResult<'a> {
    let Val::List(l) = arg(args, 0)? else {
        return Err(EvalError::no_overload());
    };
    let target = arg(args, 1)?;
    let items = l.to_vec()?;
    let mut found = -1i64;
    for (i, e) in items.iter().enumerate() {
        if equals(e, target, 0)? {
            found = i as i64;
            if !last {
                break;
            }
        }
    }
    Ok(Val::Int(found))
}

/// A list includes an element equal to the argument; any other value
/// equals it.
fn includes<'a>(args: &[Val<'a>]) -> EvalResult<'a> {
    let target = arg(args, 0)?;
    let v = arg(args, 1)?;
    if let Val::List(l) = target {
        for e in l.to_vec()? {
            if equals(&e, v, 0)? {
                return bool_of(true);
            }
        }
        return bool_of(false);
    }
    bool_of(equals(target, v, 0)?)
}
