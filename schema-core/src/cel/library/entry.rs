//! What one function of a library is: its declared overloads, when a call
//! is routed to it, its implementation, its runtime cost and its static
//! cost estimate, in one value. Each library file lists its functions as a
//! `FUNCTIONS` slice of these; `registry.rs` finds them by name.

use crate::cel::types::Type;
use crate::cel::value::{EvalResult, Val};

/// One declared overload of a function.
pub(crate) struct Overload {
    /// The overload id (cel-go's or the Kubernetes library's).
    pub(crate) id: &'static str,
    /// Whether it is called on a receiver (`x.f()`), the receiver being the
    /// first argument type.
    pub(crate) member: bool,
    /// The argument types (receiver first for a member overload) and the
    /// result type.
    pub(crate) signature: fn() -> (Vec<Type>, Type),
}

/// What a call costs at runtime (the Kubernetes `CallCost`, by name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RuntimeCost {
    /// One unit.
    Constant,
    /// The first argument (the receiver of a member call) traversed as a
    /// string.
    FirstArgumentTraversal,
    /// The first argument traversed twice as a string.
    FirstArgumentTraversalTwice,
    /// cel-go's `trackSetsCost`: the call and the m·n comparisons of the
    /// two lists' elements, `passes` times.
    SetComparison {
        /// How many times the elements are compared (2 for equivalence).
        passes: u64,
    },
    /// The first argument's elements traversed (the Kubernetes
    /// `traversalCost`; nothing without an argument).
    FirstArgumentElementsTraversal,
    /// A regex search: the receiver traversed once more than its length,
    /// for each unit of the pattern's (the argument's) cost.
    RegexSearch,
    /// One unit on a CIDR, else the first argument traversed as a string.
    ConstantOnCidrElseFirstArgumentTraversal,
    /// A CIDR's containment test: the receiver's address traversed twice
    /// (and once more for a CIDR argument, `of_cidr`, plus one), and a
    /// string argument traversed.
    CidrContainment {
        /// Whether the argument is a CIDR (`containsCIDR`).
        of_cidr: bool,
    },
}

/// What the static estimator charges for a call (the Kubernetes
/// `EstimateCallCost`, by name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Estimate {
    /// One unit.
    Constant,
    /// The first argument (not the receiver) traversed as a string; a call
    /// without arguments is estimated as any other function.
    FirstArgumentTraversal,
    /// cel-go's sets estimator: one unit and the product of the two
    /// arguments' sizes, `passes` times; a call with another number of
    /// arguments is estimated as any other function.
    SetComparison {
        /// How many times the elements are compared (2 for equivalence).
        passes: u32,
    },
    /// The receiver's elements compared, each one unit plus a string
    /// element's traversal; a receiver of no known element type (unless
    /// `any_target`, where it may be a list: one unit per element) is
    /// traversed as a string; a call without a receiver is estimated as
    /// any other function.
    ListElementsTraversal {
        /// Whether the receiver may be any value (`includes`).
        any_target: bool,
    },
    /// A regex search on the receiver, as `RuntimeCost::RegexSearch`, the
    /// result at most as long; a call without a receiver or an argument
    /// is estimated as any other function.
    RegexSearch,
    /// The first argument traversed twice as a string, as above.
    FirstArgumentTraversalTwice,
    /// One unit for the overload `constant_overload`, else as
    /// `FirstArgumentTraversal`.
    FirstArgumentTraversalExcept {
        /// The overload id of constant cost.
        constant_overload: &'static str,
    },
    /// A CIDR's containment test: an address of 4 to 16 bytes traversed
    /// twice (and once more plus one for a CIDR argument, `of_cidr`), and
    /// for the overload `string_overload` the argument traversed; a call
    /// without arguments is estimated as any other function.
    CidrContainment {
        /// Whether the argument is a CIDR (`containsCIDR`).
        of_cidr: bool,
        /// The overload id taking a string argument.
        string_overload: &'static str,
    },
    /// The only argument traversed as a string, the result as large; a
    /// call with another number of arguments is estimated as any other
    /// function.
    OnlyArgumentTraversalSized,
}

/// A function of a library: a name with its overloads, implementation and
/// costs.
pub(crate) struct Function {
    /// The function name (`quantity`, `isGreaterThan`).
    pub(crate) name: &'static str,
    /// The overloads, in declaration order.
    pub(crate) overloads: &'static [Overload],
    /// Whether a call (a receiver or not, its arguments with the receiver
    /// first) is this function's: several libraries may implement
    /// functions of one name.
    pub(crate) applies: fn(bool, &[Val<'_>]) -> bool,
    /// The implementation; the receiver, if any, is the first argument.
    pub(crate) call: for<'a> fn(&[Val<'a>]) -> EvalResult<'a>,
    /// The runtime cost.
    pub(crate) runtime_cost: RuntimeCost,
    /// The static cost estimate.
    pub(crate) estimate: Estimate,
}

/// A global call with `n` arguments.
pub(crate) fn global_with(receiver: bool, args: &[Val<'_>], n: &[usize]) -> bool {
    !receiver && n.contains(&args.len())
}

/// A member call with `n` arguments, the receiver counted.
pub(crate) fn member_with(receiver: bool, args: &[Val<'_>], n: &[usize]) -> bool {
    receiver && n.contains(&args.len())
}
