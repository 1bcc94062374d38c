//! Hostile objects and rules against `x-kubernetes-validations`: deep
//! nesting, a rule at the per-call cost limit, a budget run out by many
//! items, and exploding comprehensions all end with the server's result or
//! cost error, in bounded time and memory.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::{admission, deep_object};
use schema_core::object::admission::MAX_VALUE_NESTING;
use serde_json::{Value, json};

fn errors(a: &schema_core::object::admission::Admitted) -> Vec<String> {
    a.errors.iter().map(ToString::to_string).collect()
}

/// Runs `f` with the stack the command line gives admission.
fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(s, f)
            .unwrap()
            .join()
            .unwrap()
    })
}

#[test]
fn deep_preserved_values_compare_without_recursion() {
    let a = admission(&json!({
        "type": "object",
        "properties": {
            "keep": {
                "type": "object",
                "x-kubernetes-preserve-unknown-fields": true,
                "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable"}]
            }
        },
        "x-kubernetes-validations": [{"rule": "has(self.keep)"}]
    }));
    let depth = MAX_VALUE_NESTING - 3;
    on_big_stack(|| {
        let obj = json!({"keep": deep_object(depth)});
        let out = a.update(obj.clone(), obj.clone());
        assert_eq!(errors(&out), [] as [&str; 0]);
        let mut changed = json!({"keep": deep_object(depth)});
        *changed
            .pointer_mut(&("/keep".to_string() + &"/a".repeat(depth)))
            .unwrap() = json!(2);
        let out = a.update(changed, obj);
        assert_eq!(errors(&out), ["keep: Invalid value: immutable"]);
    });
}

fn list_rule_schema(rule: &str) -> Value {
    json!({
        "type": "object",
        "properties": {"l": {"type": "array", "items": {"type": "integer"}}},
        "x-kubernetes-validations": [{"rule": rule}]
    })
}

#[test]
fn a_rule_at_the_per_call_limit() {
    // `self.l.all(x, x >= 0)` costs 3 + 5n: `self.l` 2, per element the
    // loop condition 2 (`@result`, `@not_strictly_false`) and the step 3
    // (`@result`, `x`, `>=`), and the result 1.
    let rule = "self.l.all(x, x >= 0)";
    let a = admission(&list_rule_schema(rule));
    let at_limit: Vec<i64> = vec![0; 199_999];
    let out = a.create(json!({"l": at_limit}));
    assert_eq!(errors(&out), [] as [&str; 0]);
    let over: Vec<i64> = vec![0; 200_000];
    let out = a.create(json!({"l": over}));
    assert_eq!(
        errors(&out),
        [format!(
            "<nil>: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: {rule}"
        )]
    );
}

#[test]
fn many_costly_items_run_out_of_budget() {
    // Each item's rule costs 3 + n(3n + 6) = 482,403 for n = 400: the
    // budget of 10,000,000 covers 20 items; the 21st ends validation.
    let a = admission(&json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"l": {"type": "array", "items": {"type": "integer"}}},
            "x-kubernetes-validations": [{"rule": "self.l.all(x, self.l.all(y, true))"}]
        }
    }));
    let l: Vec<i64> = (0..400).collect();
    let items: Vec<Value> = (0..25).map(|_| json!({"l": l})).collect();
    let out = a.create(Value::Array(items));
    assert_eq!(
        errors(&out),
        [
            "[20]: Invalid value: \"object\": validation failed due to running out of cost budget, no further validation rules will be run"
        ]
    );
}

#[test]
fn exploding_comprehensions_stop_at_the_limit() {
    let a = admission(&list_rule_schema(
        "self.l.map(a, self.l.map(b, self.l.map(c, self.l.map(d, [a, b, c, d])))).size() > 0",
    ));
    let l: Vec<i64> = (0..100).collect();
    let out = a.create(json!({"l": l}));
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].contains("'operation cancelled: actual cost limit exceeded'"),
        "{errs:?}"
    );
    // Huge strings cost by their size: `contains` costs
    // ceil(1 MiB × 0.1) × ceil(100 × 0.1) = 1,048,580, past the limit.
    let a = admission(&json!({
        "type": "object",
        "properties": {"s": {"type": "string"}},
        "x-kubernetes-validations": [
            {"rule": "self.s.split('/').size() > 0 && self.s.contains(self.s.substring(0, 100))"},
            {"rule": "self.s.matches('^(a|b)*c$')"}
        ]
    }));
    let out = a.create(json!({"s": "a".repeat(1 << 20)}));
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with(
            "<nil>: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded'"
        ),
        "{errs:?}"
    );
}

#[test]
fn uncharged_work_on_long_strings_is_bounded() {
    // `charAt` costs 1 whatever the string's length: a loop over it would
    // scan a 3 MiB string per element. The evaluation's work bound cancels
    // it as the cost limit does.
    let a = admission(&json!({
        "type": "object",
        "properties": {
            "s": {"type": "string"},
            "l": {"type": "array", "items": {"type": "integer"}}
        },
        "x-kubernetes-validations": [{"rule": "self.l.all(i, self.s.charAt(0) == 'a')"}]
    }));
    let l: Vec<i64> = vec![0; 100_000];
    let out = a.create(json!({"s": "a".repeat(3 << 20), "l": l}));
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].contains("'operation cancelled: actual cost limit exceeded'"),
        "{errs:?}"
    );
}

#[test]
fn large_accumulations_stay_linear() {
    // Maps, filters and transformMap accumulate in place; set and map list
    // equality hash their elements.
    let a = admission(&json!({
        "type": "object",
        "properties": {
            "l": {"type": "array", "items": {"type": "integer"}},
            "s": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer"}}
        },
        "x-kubernetes-validations": [
            {"rule": "self.l.transformMap(i, v, v).size() == self.l.size()"},
            {"rule": "self.l.filter(x, x >= 0).map(x, x + 1).size() == self.l.size()"},
            {"rule": "self.s == self.s"},
            {"rule": "(self.l + self.l + self.l).size() == 3 * self.l.size()"}
        ]
    }));
    let l: Vec<i64> = (0..20_000).collect();
    let out = a.create(json!({"l": l, "s": l}));
    assert_eq!(errors(&out), [] as [&str; 0]);
}

/// The errors `check` gives a bare schema with one rule, `rule`, on an
/// object with a string `s` and an unbounded list of strings `l`.
fn compile_errors(rule: &str) -> Vec<String> {
    let schema = json!({
        "type": "object",
        "properties": {
            "s": {"type": "string"},
            "l": {"type": "array", "items": {"type": "string"}}
        },
        "x-kubernetes-validations": [{"rule": rule}]
    });
    let (input, _) = schema_core::read_input(&schema).unwrap();
    let report = schema_core::check(&input, &schema_core::Options::default());
    report.errors.iter().map(|e| e.detail.clone()).collect()
}

#[test]
fn hostile_rules_fail_to_compile_with_the_servers_messages() {
    // Nesting: cel-go's parser stops at 250 levels.
    let deep = format!("{}true{}", "(".repeat(300), ")".repeat(300));
    assert_eq!(
        compile_errors(&deep),
        ["compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250"]
    );
    let nested = format!("{}true{}", "(".repeat(248), ")".repeat(248));
    assert_eq!(compile_errors(&nested), [] as [&str; 0]);
    // Size: at most 100,000 code points (not bytes).
    let long = |n: usize| format!("self.s == '{}'", "é".repeat(n));
    assert_eq!(compile_errors(&long(99_988)), [] as [&str; 0]);
    assert_eq!(
        compile_errors(&long(99_989)),
        [
            "compilation failed: ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100001, limit 100000"
        ]
    );
    // A huge list literal compiles, as upstream, in bounded time.
    let list = format!("size([{}]) > 0", vec!["1"; 30_000].join(","));
    assert_eq!(compile_errors(&list), [] as [&str; 0]);
    // Regexes: RE2's repetition limit and syntax errors are found when the
    // program is built.
    for re in ["((a{100}){100}){100}", "("] {
        let rule = format!("self.s.matches('{re}')");
        assert_eq!(
            compile_errors(&rule),
            [format!(
                "compilation failed: ERROR: <input>:1:16: invalid matches argument\n | {rule}\n | ...............^"
            )]
        );
    }
    // A cost bomb is refused by its estimate, before it ever runs.
    let bomb = "self.l.all(a, self.l.all(b, self.l.all(c, a + b + c != 'x')))";
    let errs = compile_errors(bomb);
    assert_eq!(
        errs,
        [
            "estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
            "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
            "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
        ]
    );
}
