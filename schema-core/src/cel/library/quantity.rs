//! The Kubernetes quantity library's functions (`library/quantity.go`):
//! `quantity`, `isQuantity` and the methods of a quantity.

use std::rc::Rc;

use super::operands::{comparison, str_arg};
use crate::cel::error::EvalError;
use crate::cel::value::quantity::Quantity;
use crate::cel::value::{EvalResult, Ext, Val};

fn q_of<'v>(v: Option<&'v Val<'_>>) -> Option<&'v Quantity> {
    match v {
        Some(Val::Ext(e)) => match &**e {
            Ext::Quantity(q) => Some(q),
            _ => None,
        },
        _ => None,
    }
}

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

/// Dispatches the quantity functions.
pub(crate) fn call<'a>(name: &str, args: &[Val<'a>]) -> EvalResult<'a> {
    match name {
        "quantity" => {
            let s = str_arg(args, 0)?;
            Quantity::parse(s)
                .map(|q| Val::Ext(Rc::new(Ext::Quantity(q))))
                .map_err(EvalError::new)
        }
        "isQuantity" => Ok(Val::Bool(Quantity::parse(str_arg(args, 0)?).is_ok())),
        _ => {
            let q = *q_of(args.first()).ok_or_else(EvalError::no_overload)?;
            match name {
                "sign" => Ok(Val::Int(q.mantissa.signum() as i64)),
                "isInteger" => Ok(Val::Bool(q.as_i64().is_some())),
                "asInteger" => q
                    .as_i64()
                    .map(Val::Int)
                    .ok_or_else(|| EvalError::new("cannot convert value to integer")),
                "asApproximateFloat" => Ok(Val::Double(q.as_f64())),
                "add" | "sub" => {
                    let mut o = operand(args.get(1))?;
                    if name == "sub" {
                        o.mantissa = -o.mantissa;
                    }
                    Ok(Val::Ext(Rc::new(Ext::Quantity(q.add(o)?))))
                }
                "compareTo" | "isGreaterThan" | "isLessThan" => {
                    let o = operand(args.get(1))?;
                    Ok(comparison(name, q.compare(&o)))
                }
                _ => Err(EvalError::no_overload()),
            }
        }
    }
}
