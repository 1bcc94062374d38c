//! Every library function described as one [`Function`] entry, found by
//! name: the evaluator's dispatch, the runtime costs and the static
//! estimator read the entries here.

use std::sync::OnceLock;

use super::entry::Function;
use super::{ip, lists, optional, quantity, regex, semver, sets, time, url};
use crate::cel::value::Val;

/// The libraries whose functions are registry entries; where two
/// libraries implement a function of one name, the earlier one is tried
/// first.
const LIBRARIES: [&[Function]; 10] = [
    url::FUNCTIONS,
    regex::FUNCTIONS,
    lists::FUNCTIONS,
    lists::VERSION_1_FUNCTIONS,
    semver::FUNCTIONS,
    quantity::FUNCTIONS,
    ip::FUNCTIONS,
    sets::FUNCTIONS,
    time::FUNCTIONS,
    optional::FUNCTIONS,
];

/// Every entry, sorted by name (stably: library order within a name).
fn by_name() -> &'static [&'static Function] {
    static TABLE: OnceLock<Vec<&'static Function>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut all: Vec<&'static Function> = LIBRARIES.iter().flat_map(|l| l.iter()).collect();
        all.sort_by_key(|f| f.name);
        all
    })
}

/// The entries named `name`, in library order.
pub(crate) fn named(name: &str) -> &'static [&'static Function] {
    let table = by_name();
    let start = table.partition_point(|f| f.name < name);
    let rest = table.get(start..).unwrap_or_default();
    let len = rest.partition_point(|f| f.name == name);
    rest.get(..len).unwrap_or_default()
}

/// The entry a call is routed to, if any.
pub(crate) fn resolve(name: &str, receiver: bool, args: &[Val<'_>]) -> Option<&'static Function> {
    named(name)
        .iter()
        .copied()
        .find(|f| (f.applies)(receiver, args))
}

/// The entries of every registry library, in library order.
#[cfg(test)]
pub(crate) fn all() -> impl Iterator<Item = &'static Function> {
    LIBRARIES.iter().flat_map(|l| l.iter())
}
