//! The Kubernetes quantity library (`library/quantity.go`): `quantity`,
//! `isQuantity` and the methods of a quantity.

use std::cmp::Ordering;
use std::rc::Rc;

use super::comparisons::functions_with_comparisons;
use super::entry::{Estimate, Function, Overload, RuntimeCost, global_with, member_with};
use super::operands::str_arg;
use crate::cel::error::EvalError;
use crate::cel::types::{Type, k8s};
use crate::cel::value::quantity::Quantity;
use crate::cel::value::{EvalResult, Ext, Val};

/// The library's functions.
pub(crate) const FUNCTIONS: &[Function] = functions_with_comparisons! {
    comparisons: "quantity", k8s::quantity, applies is_method, compare compare;
    functions: [
        Function {
            name: "quantity",
            overloads: &[Overload {
                id: "string_to_quantity",
                member: false,
                signature: || (vec![Type::String], k8s::quantity()),
            }],
            applies: |receiver, args| global_with(receiver, args, &[1]),
            call: |args| {
                Quantity::parse(str_arg(args, 0)?)
                    .map(quantity_val)
                    .map_err(EvalError::new)
            },
            runtime_cost: RuntimeCost::FirstArgumentTraversal,
            estimate: Estimate::FirstArgumentTraversal,
        },
        Function {
            name: "isQuantity",
            overloads: &[Overload {
                id: "is_quantity_string",
                member: false,
                signature: || (vec![Type::String], Type::Bool),
            }],
            applies: |receiver, args| global_with(receiver, args, &[1]),
            call: |args| Ok(Val::Bool(Quantity::parse(str_arg(args, 0)?).is_ok())),
            runtime_cost: RuntimeCost::FirstArgumentTraversal,
            estimate: Estimate::FirstArgumentTraversal,
        },
        // Declared global, as the Kubernetes library declares it, but
        // implemented on a receiver only: a global call has no overload.
        Function {
            name: "sign",
            overloads: &[Overload {
                id: "quantity_sign",
                member: false,
                signature: || (vec![k8s::quantity()], Type::Int),
            }],
            applies: is_method,
            call: |args| receiver(args).map(|q| Val::Int(q.mantissa.signum() as i64)),
            runtime_cost: RuntimeCost::Constant,
            estimate: Estimate::Constant,
        },
        Function {
            name: "asApproximateFloat",
            overloads: &[Overload {
                id: "quantity_get_float",
                member: true,
                signature: || (vec![k8s::quantity()], Type::Double),
            }],
            applies: is_method,
            call: |args| receiver(args).map(|q| Val::Double(q.as_f64())),
            runtime_cost: RuntimeCost::Constant,
            estimate: Estimate::Constant,
        },
        Function {
            name: "asInteger",
            overloads: &[Overload {
                id: "quantity_get_int",
                member: true,
                signature: || (vec![k8s::quantity()], Type::Int),
            }],
            applies: is_method,
            call: |args| {
                receiver(args)?
                    .as_i64()
                    .map(Val::Int)
                    .ok_or_else(|| EvalError::new("cannot convert value to integer"))
            },
            runtime_cost: RuntimeCost::Constant,
            estimate: Estimate::Constant,
        },
        Function {
            name: "isInteger",
            overloads: &[Overload {
                id: "quantity_is_integer",
                member: true,
                signature: || (vec![k8s::quantity()], Type::Bool),
            }],
            applies: is_method,
            call: |args| receiver(args).map(|q| Val::Bool(q.as_i64().is_some())),
            runtime_cost: RuntimeCost::Constant,
            estimate: Estimate::Constant,
        },
        Function {
            name: "add",
            overloads: &[
                Overload {
                    id: "quantity_add",
                    member: true,
                    signature: || (vec![k8s::quantity(), k8s::quantity()], k8s::quantity()),
                },
                Overload {
                    id: "quantity_add_int",
                    member: true,
                    signature: || (vec![k8s::quantity(), Type::Int], k8s::quantity()),
                },
            ],
            applies: is_method,
            call: |args| {
                let q = *receiver(args)?;
                Ok(quantity_val(q.add(operand(args.get(1))?)?))
            },
            runtime_cost: RuntimeCost::Constant,
            estimate: Estimate::Constant,
        },
        Function {
            name: "sub",
            overloads: &[
                Overload {
                    id: "quantity_sub",
                    member: true,
                    signature: || (vec![k8s::quantity(), k8s::quantity()], k8s::quantity()),
                },
                Overload {
                    id: "quantity_sub_int",
                    member: true,
                    signature: || (vec![k8s::quantity(), Type::Int], k8s::quantity()),
                },
            ],
            applies: is_method,
            call: |args| {
                let q = *receiver(args)?;
                let mut o = operand(args.get(1))?;
                o.mantissa = -o.mantissa;
                Ok(quantity_val(q.add(o)?))
            },
            runtime_cost: RuntimeCost::Constant,
            estimate: Estimate::Constant,
        },
    ],
};

/// A method of a quantity: a receiver and at most one argument.
fn is_method(receiver: bool, args: &[Val<'_>]) -> bool {
    member_with(receiver, args, &[1, 2])
}

fn quantity_val<'a>(q: Quantity) -> Val<'a> {
    Val::Ext(Rc::new(Ext::Quantity(q)))
}

fn q_of<'v>(v: Option<&'v Val<'_>>) -> Option<&'v Quantity> {
    match v {
        Some(Val::Ext(e)) => match &**e {
            Ext::Quantity(q) => Some(q),
            _ => None,
        },
        _ => None,
    }
}

fn receiver<'v>(args: &'v [Val<'_>]) -> Result<&'v Quantity, EvalError> {
    q_of(args.first()).ok_or_else(EvalError::no_overload)
}

/// The argument of `add`, `sub` and the comparisons: a quantity or an
/// integer.
fn operand(v: Option<&Val<'_>>) -> Result<Quantity, EvalError> {
    match v {
        Some(Val::Int(i)) => Ok(Quantity {
            mantissa: i128::from(*i),
            exp: 0,
        }
        .normalized()),
        other => q_of(other).copied().ok_or_else(EvalError::no_overload),
    }
}

fn compare<'a>(args: &[Val<'a>], result: fn(Ordering) -> Val<'a>) -> EvalResult<'a> {
    let q = receiver(args)?;
    let o = operand(args.get(1))?;
    Ok(result(q.compare(&o)))
}
