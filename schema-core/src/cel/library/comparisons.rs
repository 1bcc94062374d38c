//! The comparison methods of a type with an order (quantities, semantic
//! versions): `isGreaterThan`, `isLessThan` and `compareTo`, one family of
//! registry entries built the same way for each type.

/// A library's functions: the entries listed, followed by the comparison
/// methods of one ordered type.
///
/// `comparisons` names the overload ids' prefix (`quantity` gives
/// `quantity_is_greater_than`, `quantity_is_less_than` and
/// `quantity_compare_to`), the type's constructor in `k8s`, which calls
/// the methods take (`applies`) and how the receiver and the argument are
/// compared (`compare`, given how the result is made from their
/// ordering). Every comparison costs one unit.
macro_rules! functions_with_comparisons {
    (
        comparisons: $prefix:literal, $ty:path, applies $applies:expr, compare $compare:path;
        functions: [$($function:expr),* $(,)?] $(,)?
    ) => {
        &[
            $($function,)*
            $crate::cel::library::comparisons::comparison!(
                "isGreaterThan", concat!($prefix, "_is_greater_than"), $ty, Bool, $applies,
                |args| $compare(args, |c| $crate::cel::value::Val::Bool(c.is_gt()))
            ),
            $crate::cel::library::comparisons::comparison!(
                "isLessThan", concat!($prefix, "_is_less_than"), $ty, Bool, $applies,
                |args| $compare(args, |c| $crate::cel::value::Val::Bool(c.is_lt()))
            ),
            $crate::cel::library::comparisons::comparison!(
                "compareTo", concat!($prefix, "_compare_to"), $ty, Int, $applies,
                |args| $compare(args, $crate::cel::library::operands::compare_to)
            ),
        ]
    };
}

/// One comparison method: its name, overload id, the compared type's
/// constructor, the result type (a `Type` variant), when it applies and
/// its implementation.
macro_rules! comparison {
    ($name:literal, $id:expr, $ty:path, $result:ident, $applies:expr, $call:expr) => {
        $crate::cel::library::entry::Function {
            name: $name,
            overloads: &[$crate::cel::library::entry::Overload {
                id: $id,
                member: true,
                signature: || (vec![$ty(), $ty()], $crate::cel::types::Type::$result),
            }],
            applies: $applies,
            call: $call,
            runtime_cost: $crate::cel::library::entry::RuntimeCost::Constant,
            estimate: $crate::cel::library::entry::Estimate::Constant,
        }
    };
}

pub(crate) use {comparison, functions_with_comparisons};
