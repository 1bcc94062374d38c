//! The sets extension of cel-go (`ext/sets.go`): `sets.contains`,
//! `sets.equivalent` and `sets.intersects` on two lists.

use super::entry::{Estimate, Function, Overload, RuntimeCost, global_with};
use super::operands::{arg, bool_of};
use crate::cel::error::EvalError;
use crate::cel::types::Type;
use crate::cel::value::{EvalResult, Val, equals};

/// A function of two lists: its name, overload id, how many times it
/// compares the lists' elements (for the costs) and its test of the
/// elements.
macro_rules! set_function {
    ($name:literal, $id:literal, passes $passes:literal, $test:expr) => {
        Function {
            name: $name,
            overloads: &[Overload {
                id: $id,
                member: false,
                signature: two_lists,
            }],
            applies: is_set_call,
            call: |args| with_lists(args, $test),
            runtime_cost: RuntimeCost::SetComparison { passes: $passes },
            estimate: Estimate::SetComparison { passes: $passes },
        }
    };
}

/// The extension's functions.
pub(crate) const FUNCTIONS: &[Function] = &[
    set_function!(
        "sets.contains",
        "list_sets_contains_list",
        passes 1,
        contains
    ),
    set_function!(
        "sets.equivalent",
        "list_sets_equivalent_list",
        passes 2,
        |a, b| Ok(contains(a, b)? && contains(b, a)?)
    ),
    set_function!(
        "sets.intersects",
        "list_sets_intersects_list",
        passes 1,
        intersects
    ),
];

fn two_lists() -> (Vec<Type>, Type) {
    let l = || Type::list(Type::param("T"));
    (vec![l(), l()], Type::Bool)
}

fn is_set_call(receiver: bool, args: &[Val<'_>]) -> bool {
    global_with(receiver, args, &[2])
}

/// `f` of the elements of the two list arguments.
fn with_lists<'a>(
    args: &[Val<'a>],
    f: impl FnOnce(&[Val<'a>], &[Val<'a>]) -> Result<bool, EvalError>,
) -> EvalResult<'a> {
    let (Val::List(a), Val::List(b)) = (arg(args, 0)?, arg(args, 1)?) else {
        return Err(EvalError::no_overload());
    };
    let (av, bv) = (a.to_vec()?, b.to_vec()?);
    bool_of(f(&av, &bv)?)
}

/// Whether every element of `y` equals one of `x`.
fn contains(x: &[Val<'_>], y: &[Val<'_>]) -> Result<bool, EvalError> {
    for e in y {
        let mut found = false;
        for f in x {
            if equals(f, e, 0)? {
                found = true;
                break;
            }
        }
        if !found {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether an element of `b` equals one of `a`.
fn intersects(a: &[Val<'_>], b: &[Val<'_>]) -> Result<bool, EvalError> {
    for e in b {
        for f in a {
            if equals(f, e, 0)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}
