//! The Kubernetes regex library (`library/regex.go`): `find` and
//! `findAll` on a string.

use super::entry::{Estimate, Function, Overload, RuntimeCost, member_with};
use super::operands::{compile_regex, illegal_regex, int_arg, str_arg};
use crate::cel::types::Type;
use crate::cel::value::{EvalResult, Val, owned_str};

/// The library's functions.
pub(crate) const FUNCTIONS: &[Function] = &[
    Function {
        name: "find",
        overloads: &[Overload {
            id: "string_find_string",
            member: true,
            signature: || (vec![Type::String, Type::String], Type::String),
        }],
        applies: |receiver, args| member_with(receiver, args, &[2]),
        call: find,
        runtime_cost: RuntimeCost::RegexSearch,
        estimate: Estimate::RegexSearch,
    },
    Function {
        name: "findAll",
        overloads: &[
            Overload {
                id: "string_find_all_string",
                member: true,
                signature: || (vec![Type::String, Type::String], Type::list(Type::String)),
            },
            Overload {
                id: "string_find_all_string_int",
                member: true,
                signature: || {
                    (
                        vec![Type::String, Type::String, Type::Int],
                        Type::list(Type::String),
                    )
                },
            },
        ],
        applies: |receiver, args| member_with(receiver, args, &[2, 3]),
        call: find_all,
        runtime_cost: RuntimeCost::RegexSearch,
        estimate: Estimate::RegexSearch,
    },
];

/// The first match, or the empty string.
fn find<'a>(args: &[Val<'a>]) -> EvalResult<'a> {
    let re = compile_regex(str_arg(args, 1)?).map_err(illegal_regex)?;
    let s = str_arg(args, 0)?;
    Ok(owned_str(
        re.find_all(s, 1).into_iter().next().unwrap_or_default(),
    ))
}

/// Every match, or at most as many as a non-negative limit.
fn find_all<'a>(args: &[Val<'a>]) -> EvalResult<'a> {
    let re = compile_regex(str_arg(args, 1)?).map_err(illegal_regex)?;
    let s = str_arg(args, 0)?;
    let limit = if args.len() == 3 {
        int_arg(args, 2)?
    } else {
        -1
    };
    if limit == 0 {
        return Ok(Val::list(Vec::new()));
    }
    let max = if limit < 0 {
        usize::MAX
    } else {
        limit as usize
    };
    Ok(Val::list(
        re.find_all(s, max).into_iter().map(owned_str).collect(),
    ))
}
