//! cel-go's optional types library: `optional.of`,
//! `optional.ofNonZeroValue`, `optional.none` and the methods of an
//! optional (the evaluator plans `or` and `orValue` itself where it can,
//! to skip the alternative; the optional index operators are the
//! evaluator's).

use std::rc::Rc;

use super::entry::{Estimate, Function, Overload, RuntimeCost, global_with, member_with};
use super::operands::{arg, bool_of};
use crate::cel::error::EvalError;
use crate::cel::types::Type;
use crate::cel::value::{Val, is_zero};

fn t() -> Type {
    Type::param("T")
}

fn opt_t() -> Type {
    Type::optional(t())
}

/// The library's functions.
pub(crate) const FUNCTIONS: &[Function] = &[
    Function {
        name: "optional.of",
        overloads: &[Overload {
            id: "optional_of",
            member: false,
            signature: || (vec![t()], opt_t()),
        }],
        applies: |receiver, args| global_with(receiver, args, &[1]),
        call: |args| Ok(Val::Optional(Some(Rc::new(arg(args, 0)?.clone())))),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "optional.ofNonZeroValue",
        overloads: &[Overload {
            id: "optional_ofNonZeroValue",
            member: false,
            signature: || (vec![t()], opt_t()),
        }],
        applies: |receiver, args| global_with(receiver, args, &[1]),
        call: |args| {
            let v = arg(args, 0)?;
            Ok(Val::Optional((!is_zero(v)).then(|| Rc::new(v.clone()))))
        },
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "optional.none",
        overloads: &[Overload {
            id: "optional_none",
            member: false,
            signature: || (vec![], opt_t()),
        }],
        applies: |receiver, args| global_with(receiver, args, &[0]),
        call: |_| Ok(Val::Optional(None)),
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "value",
        overloads: &[Overload {
            id: "optional_value",
            member: true,
            signature: || (vec![opt_t()], t()),
        }],
        applies: |receiver, args| member_with(receiver, args, &[1]),
        call: |args| match arg(args, 0)? {
            Val::Optional(Some(v)) => Ok((**v).clone()),
            Val::Optional(None) => Err(EvalError::new("optional.none() dereference")),
            _ => Err(EvalError::no_overload()),
        },
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "hasValue",
        overloads: &[Overload {
            id: "optional_hasValue",
            member: true,
            signature: || (vec![opt_t()], Type::Bool),
        }],
        applies: |receiver, args| member_with(receiver, args, &[1]),
        call: |args| match arg(args, 0)? {
            Val::Optional(o) => bool_of(o.is_some()),
            _ => Err(EvalError::no_overload()),
        },
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "or",
        overloads: &[Overload {
            id: "optional_or_optional",
            member: true,
            signature: || (vec![opt_t(), opt_t()], opt_t()),
        }],
        applies: |receiver, args| member_with(receiver, args, &[2]),
        call: |args| match (arg(args, 0)?, arg(args, 1)?) {
            (Val::Optional(Some(v)), Val::Optional(_)) => Ok(Val::Optional(Some(v.clone()))),
            (Val::Optional(None), o @ Val::Optional(_)) => Ok(o.clone()),
            _ => Err(EvalError::no_overload()),
        },
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
    Function {
        name: "orValue",
        overloads: &[Overload {
            id: "optional_orValue_value",
            member: true,
            signature: || (vec![opt_t(), t()], t()),
        }],
        applies: |receiver, args| member_with(receiver, args, &[2]),
        call: |args| match arg(args, 0)? {
            Val::Optional(Some(v)) => Ok((**v).clone()),
            Val::Optional(None) => Ok(arg(args, 1)?.clone()),
            _ => Err(EvalError::no_overload()),
        },
        runtime_cost: RuntimeCost::Constant,
        estimate: Estimate::Constant,
    },
];
