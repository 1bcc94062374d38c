//! The static and runtime costs of the Kubernetes CEL libraries against
//! the numbers apiserver's `pkg/cel/library/cost_test.go` asserts.
//!
//! Those tests compile bare expressions (no `self`, any result type) in an
//! environment of every library, without the homogeneous aggregate
//! literal check, estimate them with a size estimator that sizes every
//! string and bytes value it is asked about 0 to 12 long, and evaluate
//! them in a program planned without `OptOptimize`. `measure` does the
//! same here.
//!
//! Not here: the authz library (`TestAuthzLibrary`: the CRD environment
//! declares no `authorizer` variable), `jsonpatch.escapeKey` (the
//! JSONPatch library is not in the CRD environment) and `includes`
//! (`TestIncludesCost`: version 1 of the Kubernetes lists library, from
//! compatibility version 1.37).

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use crate::cel::compile::{display_issues, parse_versioned};
use crate::cel::cost::{SizeSource, estimate_with};
use crate::cel::error::EvalError;
use crate::cel::eval::{Activation, PER_CALL_LIMIT, evaluate_planned};
use crate::cel::functions::{CompatibilityVersion, Features, library, type_identifiers};
use crate::cel::type_check::{CheckEnv, check};
use crate::model::kube_version::KubeVersion;

/// One expression and the costs upstream asserts for it.
struct Case {
    expr: String,
    min: u64,
    max: u64,
    runtime: u64,
}

fn case(expr: impl Into<String>, min: u64, max: u64, runtime: u64) -> Case {
    Case {
        expr: expr.into(),
        min,
        max,
        runtime,
    }
}

/// The estimated cost (min, max) and the runtime cost of `expr`.
fn measure(expr: &str) -> Result<(u64, u64, u64), String> {
    // Every library of the newest release, as upstream's test environment.
    let version = CompatibilityVersion::stored_expressions(KubeVersion::NEWEST);
    let parsed = parse_versioned(expr, version).map_err(|i| display_issues(expr, &i))?;
    let env = CheckEnv {
        library: library(version),
        features: Features::at(version),
        variables: type_identifiers(version)
            .into_iter()
            .map(|(n, t)| (n.to_string(), t))
            .collect(),
        object_types: HashMap::new(),
    };
    let (checked, issues) = check(&parsed.expr, &env);
    if !issues.is_empty() {
        return Err(format!("check: {issues:?}"));
    }
    let estimate = estimate_with(&parsed.expr, &checked, SizeSource::LibraryTests);
    let act = Activation {
        self_: Err(EvalError::new("no self")),
        old_self: None,
    };
    let out = evaluate_planned(&parsed.expr, Some(&checked), &act, PER_CALL_LIMIT, false);
    if let Err(e) = out.result {
        return Err(format!("evaluation: {}", e.msg));
    }
    Ok((estimate.min, estimate.max, out.cost))
}

/// Measures every case and fails with all the differences.
fn assert_costs(cases: &[Case]) {
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for c in cases {
        match measure(&c.expr) {
            Ok((min, max, runtime)) => {
                if (min, max, runtime) != (c.min, c.max, c.runtime) {
                    failures.push(format!(
                        "{}: expected estimate {}..{} runtime {}, got {min}..{max} runtime {runtime}",
                        c.expr, c.min, c.max, c.runtime
                    ));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", c.expr)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

const INT_LIST: &str = "[1, 2, 3, 4, 5]";
const UINT_LIST: &str = "[uint(1), uint(2), uint(3), uint(4), uint(5)]";
const DOUBLE_LIST: &str = "[1.0, 2.0, 3.0, 4.0, 5.0]";
const BOOL_LIST: &str = "[false, true, false, true, false]";
const STRING_LIST: &str =
    "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']";
const BYTES_LIST: &str = "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), \
     bytes('012345678901'), bytes('012345678901')]";
const DURATION_LIST: &str =
    "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]";
const TIMESTAMP_LIST: &str = "[timestamp('2011-01-01T00:00:00.000+01:00'), \
     timestamp('2011-01-02T00:00:00.000+01:00'), timestamp('2011-01-03T00:00:00.000+01:00'), \
     timestamp('2011-01-04T00:00:00.000+01:00'), timestamp('2011-01-05T00:00:00.000+01:00')]";
const LONG_STRING: &str = "'01234567890123456789012345678901234567890123456789'";

/// `TestListsCost`.
#[test]
fn lists() {
    let mut cases = Vec::new();
    for (list, min, max, runtime) in [
        (INT_LIST, 15, 15, 15),
        (UINT_LIST, 20, 20, 20),
        (DOUBLE_LIST, 15, 15, 15),
        (DURATION_LIST, 20, 20, 20),
    ] {
        cases.push(case(format!("{list}.sum()"), min, max, runtime));
    }
    for op in [".isSorted()", ".max()", ".min()"] {
        for (list, min, max, runtime) in [
            (INT_LIST, 15, 15, 15),
            (UINT_LIST, 20, 20, 20),
            (DOUBLE_LIST, 15, 15, 15),
            (BOOL_LIST, 15, 15, 15),
            (STRING_LIST, 15, 25, 15),
            (BYTES_LIST, 25, 35, 25),
            (DURATION_LIST, 20, 20, 20),
            (TIMESTAMP_LIST, 20, 20, 20),
        ] {
            cases.push(case(format!("{list}{op}"), min, max, runtime));
        }
    }
    assert_eq!(cases.len(), 28);
    assert_costs(&cases);
}

/// The lists of `TestIndexOfCost` and `TestIncludesCost`, each with the
/// element looked for and the costs (min, max, runtime) of the search.
const LISTS_WITH_ELEMENT: [(&str, &str, u64, u64, u64); 8] = [
    (INT_LIST, "3", 15, 15, 15),
    (UINT_LIST, "uint(3)", 21, 21, 21),
    (DOUBLE_LIST, "3.0", 15, 15, 15),
    (BOOL_LIST, "true", 15, 15, 15),
    (STRING_LIST, "'x'", 15, 25, 15),
    (BYTES_LIST, "bytes('x')", 26, 36, 26),
    (DURATION_LIST, "duration('3s')", 21, 21, 21),
    (
        TIMESTAMP_LIST,
        "timestamp('2011-01-03T00:00:00.000+01:00')",
        21,
        21,
        21,
    ),
];

/// `TestIndexOfCost`.
#[test]
fn lists_index_of() {
    let mut cases = Vec::new();
    for op in ["indexOf", "lastIndexOf"] {
        // The strings extension's indexOf.
        let long_string = [(LONG_STRING, "'123'", 5, 5, 5)];
        for (list, param, min, max, runtime) in LISTS_WITH_ELEMENT.into_iter().chain(long_string) {
            cases.push(case(format!("{list}.{op}({param})"), min, max, runtime));
        }
    }
    assert_eq!(cases.len(), 18);
    assert_costs(&cases);
}

/// `TestIncludesCost`.
#[test]
fn lists_includes() {
    let mut cases = Vec::new();
    // Not a list: compared as a whole.
    let long_string = [(LONG_STRING, "'123'", 50, 50, 5)];
    for (list, param, min, max, runtime) in LISTS_WITH_ELEMENT.into_iter().chain(long_string) {
        cases.push(case(format!("{list}.includes({param})"), min, max, runtime));
    }
    assert_eq!(cases.len(), 9);
    assert_costs(&cases);
}

/// `TestURLsCost`.
#[test]
fn urls() {
    let url = "url('https:://kubernetes.io/')";
    let mut cases = Vec::new();
    for op in [
        ".getScheme()",
        ".getHostname()",
        ".getHost()",
        ".getPort()",
        ".getEscapedPath()",
        ".getQuery()",
    ] {
        cases.push(case(format!("{url}{op}"), 4, 4, 4));
    }
    cases.push(case(
        format!("{url} == url('https:://kubernetes.io/')"),
        7,
        9,
        7,
    ));
    cases.push(case(format!("{url} == url('http://x.b')"), 5, 5, 5));
    assert_eq!(cases.len(), 8);
    assert_costs(&cases);
}

/// `TestIPCost`.
#[test]
fn ip() {
    let mut cases = Vec::new();
    // The IP and the cost of parsing it.
    for (ip, base) in [
        ("ip('192.168.0.1')", 2),
        ("ip('2001:db8:3333:4444:5555:6666:7777:8888')", 4),
    ] {
        cases.push(case(ip, base, base, base));
        for op in [
            ".family()",
            ".isUnspecified()",
            ".isLoopback()",
            ".isLinkLocalMulticast()",
            ".isLinkLocalUnicast()",
            ".isGlobalUnicast()",
        ] {
            cases.push(case(format!("{ip}{op}"), base + 1, base + 1, base + 1));
        }
        // Parsing the other IP (2) and the equality (1).
        let eq = base + 2 + 1;
        cases.push(case(format!("{ip} == ip('192.168.0.1')"), eq, eq, eq));
    }
    assert_eq!(cases.len(), 16);
    assert_costs(&cases);
}

/// `TestIPIsCanonicalCost`.
#[test]
fn ip_is_canonical() {
    let cases = [
        case("ip.isCanonical('192.168.0.1')", 3, 3, 3),
        case(
            "ip.isCanonical('2001:db8:3333:4444:5555:6666:7777:8888')",
            8,
            8,
            8,
        ),
        case("ip.isCanonical('2001:db8::abcd')", 3, 3, 3),
    ];
    assert_costs(&cases);
}

/// `TestCIDRCost`: the cost of the operation over the base cost of the
/// CIDR (2 for both), as (operation, min, max, runtime) increments.
#[test]
fn cidr() {
    let common: [(&str, u64, u64, u64); 5] = [
        ("", 0, 0, 0),
        (".ip()", 1, 1, 1),
        (".prefixLength()", 1, 1, 1),
        (".masked()", 1, 1, 1),
        // Parsing the other CIDR (2) and the equality (1).
        (" == cidr('2001:db8::/32')", 3, 3, 3),
    ];
    let ipv4: [(&str, u64, u64, u64); 9] = [
        (".containsCIDR(cidr('192.0.0.0/30'))", 5, 9, 5),
        (".containsCIDR(cidr('192.168.0.0/16'))", 5, 9, 5),
        (".containsCIDR('192.0.0.0/30')", 5, 9, 5),
        (".containsCIDR('192.168.0.0/16')", 5, 9, 5),
        (".containsIP(ip('192.0.0.1'))", 2, 5, 2),
        (".containsIP(ip('192.169.0.1'))", 3, 6, 3),
        (".containsIP(ip('192.169.169.250'))", 3, 6, 3),
        (".containsIP('192.0.0.1')", 2, 5, 2),
        (".containsIP('192.169.0.1')", 3, 6, 3),
    ];
    let ipv6: [(&str, u64, u64, u64); 8] = [
        (".containsCIDR(cidr('2001:db8::/126'))", 5, 9, 5),
        (".containsCIDR(cidr('2001:db8::/32'))", 5, 9, 5),
        (".containsCIDR('2001:db8::/126')", 5, 9, 5),
        (".containsCIDR('2001:db8::/32')", 5, 9, 5),
        (
            ".containsIP(ip('2001:db8:3333:4444:5555:6666:7777:8888'))",
            5,
            8,
            5,
        ),
        (".containsIP(ip('2001:db8::1'))", 3, 6, 3),
        (
            ".containsIP('2001:db8:3333:4444:5555:6666:7777:8888')",
            5,
            8,
            5,
        ),
        (".containsIP('2001:db8::1')", 3, 6, 3),
    ];
    let base = 2;
    let mut cases = Vec::new();
    for (cidr, ops) in [
        ("cidr('192.168.0.0/16')", common.iter().chain(&ipv4)),
        ("cidr('2001:db8::/32')", common.iter().chain(&ipv6)),
    ] {
        for (op, min, max, runtime) in ops {
            cases.push(case(
                format!("{cidr}{op}"),
                base + min,
                base + max,
                base + runtime,
            ));
        }
    }
    assert_eq!(cases.len(), 27);
    assert_costs(&cases);
}

/// `TestStringLibrary` (less `jsonpatch.escapeKey`).
#[test]
fn strings() {
    let cases = [
        case("'ABCDEFGHIJ abcdefghij'.lowerAscii()", 3, 3, 3),
        case(
            "'ABCDEFGHIJ abcdefghij'.lowerAscii() == 'abcdefghij ABCDEFGHIJ'.lowerAscii()",
            7,
            9,
            9,
        ),
        case("'ABCDEFGHIJ abcdefghij'.upperAscii()", 3, 3, 3),
        case(
            "'ABCDEFGHIJ abcdefghij'.upperAscii() == 'abcdefghij ABCDEFGHIJ'.upperAscii()",
            7,
            9,
            9,
        ),
        case("strings.quote('ABCDEFGHIJ abcdefghij')", 3, 3, 3),
        case(
            "strings.quote('ABCDEFGHIJ abcdefghij') == strings.quote('ABCDEFGHIJ abcdefghij')",
            7,
            11,
            9,
        ),
        case("'abc 123 def 123'.replace('123', '456')", 3, 3, 3),
        case("'abc 123 def 123'.replace('', 'x')", 3, 3, 3),
        case("'abc 123 def 123'.replace('123', '')", 3, 3, 3),
        case("'abc 123 def 123'.replace('123', '456', 1)", 3, 3, 3),
        case("'abc 123 def 123'.split(' ')", 3, 3, 3),
        case("'abc 123 def 123'.split(' ', 1)", 3, 3, 3),
        case("'abc 123 def 123'.substring(5)", 2, 2, 2),
        case("'abc 123 def 123'.substring(5, 8)", 2, 2, 2),
        case("'  abc 123 def 123  '.trim()", 2, 2, 2),
        case(
            "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')",
            11,
            23,
            15,
        ),
        case(
            "['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join()",
            10,
            22,
            13,
        ),
        case("'abc 123 def 123'.find('123')", 2, 2, 2),
        case("'abc 123 def 123'.findAll('123')", 2, 2, 2),
        case("'abc 123 def 123'.findAll('123', 1)", 2, 2, 2),
    ];
    assert_costs(&cases);
}

/// `TestQuantityCost`.
#[test]
fn quantity() {
    let cases = [
        case(r#"quantity("12Mi")"#, 1, 1, 1),
        case(r#"isQuantity("20")"#, 1, 1, 1),
        case(r#"isQuantity("20M")"#, 1, 1, 1),
        case(r#"quantity("200M") == quantity("200M")"#, 3, 3, 3),
        case(
            r#"quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")"#,
            3,
            6,
            6,
        ),
        case(
            r#"quantity("2M") == quantity("0.002G") && quantity("2000k") == quantity("2M") && quantity("0.002G") == quantity("2000k")"#,
            3,
            9,
            9,
        ),
        case(r#"quantity("50M").isLessThan(quantity("50Mi"))"#, 3, 3, 3),
        case(
            r#"quantity("50Mi").isGreaterThan(quantity("50M"))"#,
            3,
            3,
            3,
        ),
        case(
            r#"quantity("200M").compareTo(quantity("0.2G")) > 0"#,
            4,
            4,
            4,
        ),
        case(
            r#"quantity("50k").add(quantity("20")) == quantity("50.02k")"#,
            5,
            5,
            5,
        ),
        case(
            r#"quantity("50k").sub(quantity("20")) == quantity("49.98k")"#,
            5,
            5,
            5,
        ),
        case(r#"quantity("50k").sub(20) == quantity("49980")"#, 4, 4, 4),
        case(
            r#"quantity("50k").add(20).sub(quantity("100k")).asInteger() > 0"#,
            6,
            6,
            6,
        ),
        case(
            r#"quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() > 0"#,
            7,
            7,
            7,
        ),
        case(r#"quantity("50k").asInteger() > 0"#, 3, 3, 3),
        case(r#"quantity("50").isInteger()"#, 2, 2, 2),
        case(r#"quantity("50.703k").asApproximateFloat() > 0.0"#, 3, 3, 3),
    ];
    assert_costs(&cases);
}

/// `TestNameFormatCost`.
#[test]
fn name_format() {
    let cases = [
        case(r#"format.named("dns1123subdomain")"#, 1, 1, 1),
        // The estimate assumes the longest pattern of a named format.
        case(
            r#"format.named("dns1123Subdomain").value().validate("my-name")"#,
            34,
            34,
            17,
        ),
        case(
            r#"format.named("dns1123Label").value().validate("my-name")"#,
            34,
            34,
            10,
        ),
        case(
            r#"format.named("dns1123Label").value() == format.named("dns1123Label").value()"#,
            5,
            11,
            5,
        ),
    ];
    assert_costs(&cases);
}

/// `TestSetsCost`.
#[test]
fn sets() {
    let cases = [
        case("sets.contains([], [])", 21, 21, 21),
        case("sets.contains([1], [])", 21, 21, 21),
        case("sets.contains([1], [1])", 22, 22, 22),
        case("sets.contains([1], [1, 1])", 23, 23, 23),
        case("sets.contains([1, 1], [1])", 23, 23, 23),
        case("sets.contains([2, 1], [1])", 23, 23, 23),
        case("sets.contains([1, 2, 3, 4], [2, 3])", 29, 29, 29),
        case("sets.contains([1], [1.0, 1])", 23, 23, 23),
        case("sets.contains([1, 2], [2u, 2.0])", 25, 25, 25),
        case("sets.contains([1, 2u], [2, 2.0])", 25, 25, 25),
        case("sets.contains([1, 2.0, 3u], [1.0, 2u, 3])", 30, 30, 30),
        case("sets.contains([[1], [2, 3]], [[2, 3.0]])", 53, 53, 53),
        case("!sets.contains([1], [2])", 23, 23, 23),
        case("!sets.contains([1], [1, 2])", 24, 24, 24),
        case(r#"!sets.contains([1], ["1", 1])"#, 24, 24, 24),
        case("!sets.contains([1], [1.1, 1u])", 24, 24, 24),
        // Equivalence is containment both ways.
        case("sets.equivalent([], [])", 21, 21, 21),
        case("sets.equivalent([1], [1])", 23, 23, 23),
        case("sets.equivalent([1], [1, 1])", 25, 25, 25),
        case("sets.equivalent([1, 1], [1])", 25, 25, 25),
        case("sets.equivalent([1], [1u, 1.0])", 25, 25, 25),
        case("sets.equivalent([1, 2, 3], [3u, 2.0, 1])", 39, 39, 39),
        case(
            "sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])",
            69,
            69,
            69,
        ),
        case("!sets.equivalent([2, 1], [1])", 26, 26, 26),
        case("!sets.equivalent([1], [1, 2])", 26, 26, 26),
        case("!sets.equivalent([1, 2], [2u, 2, 2.0])", 34, 34, 34),
        case("!sets.equivalent([1, 2], [1u, 2, 2.3])", 34, 34, 34),
        case("sets.intersects([1], [1])", 22, 22, 22),
        case("sets.intersects([1], [1, 1])", 23, 23, 23),
        case("sets.intersects([1, 1], [1])", 23, 23, 23),
        case("sets.intersects([2, 1], [1])", 23, 23, 23),
        case("sets.intersects([1], [1, 2])", 23, 23, 23),
        case("sets.intersects([1], [1.0, 2])", 23, 23, 23),
        case("sets.intersects([1, 2], [2u, 2, 2.0])", 27, 27, 27),
        case("sets.intersects([1, 2], [1u, 2, 2.3])", 27, 27, 27),
        case(
            "sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])",
            65,
            65,
            65,
        ),
        case("!sets.intersects([], [])", 22, 22, 22),
        case("!sets.intersects([1], [])", 22, 22, 22),
        case("!sets.intersects([1], [2])", 23, 23, 23),
        case(r#"!sets.intersects([1], ["1", 2])"#, 24, 24, 24),
        case("!sets.intersects([1], [1.1, 2u])", 24, 24, 24),
    ];
    assert_costs(&cases);
}

/// `TestSemverCost`.
#[test]
fn semver() {
    let cases = [
        case(r#"semver("1.0.0")"#, 1, 1, 1),
        case(r#"semver("1234.56789012345.67890123456789")"#, 4, 4, 4),
        case(r#"isSemver("1.0.0")"#, 1, 1, 1),
        case(r#"isSemver("1234.56789012345.67890123456789")"#, 4, 4, 4),
        case(r#"semver("1.2.3").major()"#, 2, 2, 2),
        case(r#"semver("1.2.3").minor()"#, 2, 2, 2),
        case(r#"semver("1.2.3").patch()"#, 2, 2, 2),
        case(r#"semver("1.0.0").isLessThan(semver("1.1.0"))"#, 3, 3, 3),
        case(r#"semver("1.1.0").isGreaterThan(semver("1.0.0"))"#, 3, 3, 3),
        case(r#"semver("1.0.0").compareTo(semver("1.2.3"))"#, 3, 3, 3),
    ];
    assert_costs(&cases);
}

/// `TestTwoVariableComprehensionCost`.
#[test]
fn two_variable_comprehensions() {
    let cases = [
        case("{'a': 1, 'b': 2}.all(k, v, v > 0)", 37, 41, 41),
        case("{'a': 1, 'b': 2}.exists(k, v, v > 0)", 39, 43, 40),
        case("{'a': 1, 'b': 2}.existsOne(k, v, v > 0)", 38, 40, 40),
        case("{'a': 1, 'b': 2}.transformMap(k, v, v + 1)", 71, 71, 71),
        case(
            "{'a': 1, 'b': 2}.transformMap(k, v, v < 5, v + 1)",
            67,
            75,
            75,
        ),
        case(
            "{'a': 1, 'b': 2}.transformMapEntry(k, v, {k: v + 1})",
            131,
            131,
            131,
        ),
        case(
            "{'a': 1, 'b': 2}.transformMapEntry(k, v, v < 5, {k: v + 1})",
            67,
            135,
            135,
        ),
        case("[1, 2].all(i, v, v > 0)", 17, 21, 21),
        case("[1, 2].exists(i, v, v > 0)", 19, 23, 20),
        case("[1, 2].existsOne(i, v, v > 0)", 18, 20, 20),
        case("[1, 2].transformList(i, v, v + 1)", 49, 49, 49),
        case("[1, 2].transformList(i, v, v < 5, v + 1)", 27, 53, 53),
    ];
    assert_costs(&cases);
}

/// `TestSize`: the result size the estimator gives `replace`.
#[test]
fn replace_size() {
    use crate::cel::cost::{SizeEstimate, replace_result_size};
    let size = |min, max| SizeEstimate { min, max };
    let exact = |n| size(n, n);
    let cases = [
        // Replacing "" with "_" in "abc": "_a_b_c_".
        (
            "replace empty with char",
            exact(3),
            exact(0),
            exact(1),
            exact(7),
        ),
        (
            "maybe replace char with empty",
            exact(3),
            exact(1),
            exact(0),
            size(0, 3),
        ),
        (
            "maybe replace repeated",
            exact(4),
            exact(2),
            exact(4),
            size(4, 8),
        ),
        // "__a__a__a__a__".
        (
            "maybe replace empty",
            exact(4),
            size(0, 1),
            size(0, 2),
            size(0, 14),
        ),
        (
            "replace non-empty size range, maybe larger",
            exact(4),
            size(1, 1),
            size(1, 2),
            size(4, 8),
        ),
        (
            "replace non-empty size range, maybe smaller",
            exact(4),
            size(1, 2),
            size(1, 1),
            size(2, 4),
        ),
    ];
    for (name, target, to_replace, replace_with, expected) in cases {
        assert_eq!(
            replace_result_size(target, to_replace, replace_with),
            expected,
            "{name}"
        );
    }
}
