//! cel-go's lists extension (`ext.Lists`, version 3, enabled from
//! Kubernetes 1.34): `slice`, `flatten`, `sort`, `sortBy` (through
//! `@sortByAssociatedKeys`), `lists.range`, `reverse` and `distinct`, with
//! cel-go's errors and runtime costs.

use std::cmp::Ordering;

use super::operands::{arg, int_arg};
use crate::cel::cost::STRING_TRAVERSAL_COST_FACTOR;
use crate::cel::error::EvalError;
use crate::cel::value::{EvalResult, List, Val, compare, equals};

/// cel-go's default `ListsMaxRangeSize`.
const MAX_RANGE_SIZE: i64 = 10_000_000;

/// `common.ListCreateBaseCost`.
const LIST_CREATE_BASE_COST: u64 = 10;

/// Whether `name` with these arguments is a function of this library
/// (`args` starts with the receiver of a member call).
pub(crate) fn handles(name: &str, receiver: bool, args: &[Val<'_>]) -> bool {
    let on_list = matches!(args.first(), Some(Val::List(_)));
    match (name, receiver) {
        ("lists.range", false) => true,
        ("slice" | "flatten" | "sort" | "@sortByAssociatedKeys" | "reverse" | "distinct", true) => {
            on_list
        }
        _ => false,
    }
}

/// Calls the function (see [`handles`]).
pub(crate) fn call<'a>(name: &str, args: &[Val<'a>]) -> EvalResult<'a> {
    if name == "lists.range" {
        let n = int_arg(args, 0)?;
        if n < 0 {
            return Err(EvalError::new(format!(
                "lists.range: size must be non-negative, got {n}"
            )));
        }
        if n > MAX_RANGE_SIZE {
            return Err(EvalError::new(format!(
                "lists.range: size {n} exceeds maximum allowed ({MAX_RANGE_SIZE})"
            )));
        }
        return Ok(Val::list((0..n).map(Val::Int).collect()));
    }
    let Val::List(list) = arg(args, 0)? else {
        return Err(EvalError::no_overload());
    };
    let items = list.to_vec()?;
    match (name, args.len()) {
        ("slice", 3) => {
            let (start, end) = (int_arg(args, 1)?, int_arg(args, 2)?);
            if start < 0 || end < 0 {
                return Err(EvalError::new(format!(
                    "cannot slice({start}, {end}), negative indexes not supported"
                )));
            }
            if start > end {
                return Err(EvalError::new(format!(
                    "cannot slice({start}, {end}), start index must be less than or equal to end index"
                )));
            }
            if (items.len() as i64) < end {
                return Err(EvalError::new(format!(
                    "cannot slice({start}, {end}), list is length {}",
                    items.len()
                )));
            }
            let (s, e) = (start as usize, end as usize);
            Ok(Val::list(items.get(s..e).unwrap_or_default().to_vec()))
        }
        ("flatten", 1) => Ok(Val::list(flatten(items, 1)?)),
        ("flatten", 2) => Ok(Val::list(flatten(items, int_arg(args, 1)?)?)),
        ("sort", 1) => sort_by_keys(list, &items, &items),
        ("@sortByAssociatedKeys", 2) => {
            let Val::List(keys) = arg(args, 1)? else {
                return Err(EvalError::no_overload());
            };
            sort_by_keys(list, &items, &keys.to_vec()?)
        }
        ("reverse", 1) => Ok(Val::list(items.into_iter().rev().collect())),
        ("distinct", 1) => {
            if items.is_empty() {
                return Ok(Val::List(list.clone()));
            }
            let mut unique: Vec<Val<'a>> = Vec::with_capacity(items.len());
            for v in items {
                let mut seen = false;
                for u in &unique {
                    if equals(&v, u, 0)? {
                        seen = true;
                        break;
                    }
                }
                if !seen {
                    unique.push(v);
                }
            }
            Ok(Val::list(unique))
        }
        _ => Err(EvalError::no_overload()),
    }
}

/// `flatten(list, depth)`: nested lists spliced in, `depth` levels deep.
fn flatten<'a>(items: Vec<Val<'a>>, depth: i64) -> Result<Vec<Val<'a>>, EvalError> {
    if depth < 0 {
        return Err(EvalError::new("level must be non-negative"));
    }
    // (item, levels left) on an explicit stack, in order.
    let mut out = Vec::new();
    let mut stack: Vec<(Val<'a>, i64)> = items.into_iter().rev().map(|v| (v, depth)).collect();
    while let Some((v, d)) = stack.pop() {
        match v {
            Val::List(l) if d > 0 => {
                for inner in l.to_vec()?.into_iter().rev() {
                    stack.push((inner, d - 1));
                }
            }
            other => out.push(other),
        }
    }
    Ok(out)
}

/// `sortListByAssociatedKeys`: `items` in the order Go's `sort.Slice`
/// leaves their `keys` in.
fn sort_by_keys<'a>(list: &List<'a>, items: &[Val<'a>], keys: &[Val<'a>]) -> EvalResult<'a> {
    if items.len() != keys.len() {
        return Err(EvalError::new(format!(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got {} and {} elements respectively",
            items.len(),
            keys.len()
        )));
    }
    let Some(first) = keys.first() else {
        return Ok(Val::List(list.clone()));
    };
    if !matches!(
        first,
        Val::Int(_)
            | Val::Uint(_)
            | Val::Double(_)
            | Val::Bool(_)
            | Val::Str(_)
            | Val::Bytes(_)
            | Val::Duration(_)
            | Val::Timestamp(..)
    ) {
        return Err(EvalError::new("list elements must be comparable"));
    }
    let elem_type = first.type_name();
    let mut mixed = false;
    let perm = crate::go::sort::sort_slice(keys.len(), |i, j| {
        let (a, b) = (&keys[i], &keys[j]);
        if a.type_name() != elem_type || b.type_name() != elem_type {
            mixed = true;
            return false;
        }
        compare(a, b) == Some(Ordering::Less)
    });
    if mixed {
        return Err(EvalError::new("list elements must have the same type"));
    }
    Ok(Val::list(
        perm.into_iter().map(|i| items[i].clone()).collect(),
    ))
}

/// The runtime cost of a call (cel-go's trackers for the library).
pub(crate) fn cost(name: &str, args: &[Val<'_>], result: Option<&Val<'_>>) -> u64 {
    let size = |v: Option<&Val<'_>>| v.map_or(1, Val::actual_size);
    match name {
        "slice" | "lists.range" | "reverse" => allocating(1.0, size(result)),
        "flatten" => {
            let depth = match args.get(1) {
                Some(Val::Int(d)) => *d as f64,
                _ => 1.0,
            };
            allocating(depth, size(args.first()))
        }
        "distinct" | "sort" => self_compare(args.first()),
        "@sortByAssociatedKeys" => self_compare(args.get(1)),
        _ => 1,
    }
}

/// `trackListSelfCompare`: O(n²) over the list, more for strings.
fn self_compare(list: Option<&Val<'_>>) -> u64 {
    let Some(Val::List(l)) = list else {
        return allocating(2.0, 0);
    };
    let n = l.len() as u64;
    let mut factor = 2.0;
    if n == 0 {
        return allocating(factor, 0);
    }
    if matches!(l.get(0), Some(Ok(Val::Str(_) | Val::Bytes(_)))) {
        factor += STRING_TRAVERSAL_COST_FACTOR;
    }
    allocating(factor, n.saturating_mul(n))
}

/// `trackAllocatingListCall`: the result's size times the factor, the
/// call and the list allocation.
fn allocating(factor: f64, size: u64) -> u64 {
    let factor = if factor < 0.0 { 1.0 } else { factor };
    ((size as f64 * factor) as u64)
        .saturating_add(1)
        .saturating_add(LIST_CREATE_BASE_COST)
}
