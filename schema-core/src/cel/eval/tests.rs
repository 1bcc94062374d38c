#![allow(clippy::unwrap_used, clippy::panic, clippy::expect_used)]

use serde_json::{Value, json};

use crate::cel::compile::parse_versioned;
use crate::cel::eval::{Activation, PER_CALL_LIMIT, evaluate};
use crate::cel::functions::CompatibilityVersion;
use crate::cel::validator::{CelOptions, CelValidator, RUNTIME_CEL_COST_BUDGET};
use crate::cel::value::{SchemaRef, Val, from_json};
use crate::model::field::Path;
use crate::model::structural::Structural;
use crate::model::wire::JsonSchemaProps;
use crate::model::wire::codec::{DecodeCx, Wire};

fn structural(v: &Value) -> Structural {
    let mut cx = DecodeCx::default();
    let s = JsonSchemaProps::decode(v, &Path::root(), &mut cx).unwrap();
    assert!(cx.errors.is_empty(), "{:?}", cx.errors);
    Structural::from_props(&s).unwrap()
}

/// Renders a value for assertions.
fn show(v: &Val<'_>) -> String {
    match v {
        Val::Null => "null".into(),
        Val::Bool(b) => b.to_string(),
        Val::Int(i) => i.to_string(),
        Val::Uint(u) => format!("{u}u"),
        Val::Double(d) => format!("{d:?}"),
        Val::Str(s) => format!("'{}'", s.as_str()),
        Val::Bytes(b) => format!("b{b:?}"),
        Val::Duration(d) => format!("duration({})", crate::cel::value::format_duration(*d)),
        Val::Timestamp(s, n, off) => {
            format!(
                "timestamp({})",
                crate::go::time::format_rfc3339_nano_in(*s, *n, *off)
            )
        }
        Val::List(l) => format!(
            "[{}]",
            l.to_vec()
                .unwrap()
                .iter()
                .map(show)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Val::Map(m) => format!(
            "{{{}}}",
            m.keys()
                .iter()
                .map(|k| format!("{}: {}", show(k), show(&m.find(k).unwrap().unwrap())))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Val::Type(t) => format!("type({t})"),
        Val::Optional(None) => "optional.none()".into(),
        Val::Optional(Some(v)) => format!("optional.of({})", show(v)),
        Val::Preserved(p) => format!("preserved({p})"),
        Val::Ext(e) => format!("{e:?}"),
    }
}

/// Parses `rule` as the compiler does (macros expanded).
fn parse(rule: &str) -> cel::IdedExpr {
    parse_versioned(rule, CompatibilityVersion::CURRENT)
        .unwrap_or_else(|e| panic!("{rule}: {e:?}"))
        .expr
}

/// Evaluates `rule` with `self` = `obj` under `schema`: the rendered value
/// or the error, and the cost.
fn run_with(
    rule: &str,
    schema: &Value,
    obj: &Value,
    old: Option<&Value>,
) -> (Result<String, String>, u64) {
    let s = structural(schema);
    let expr = parse(rule);
    let self_ = Ok(from_json(obj, SchemaRef::of(&s)).unwrap());
    let old_self = old.map(|o| Ok(from_json(o, SchemaRef::of(&s)).unwrap()));
    let act = Activation { self_, old_self };
    let out = evaluate(&expr, None, &act, PER_CALL_LIMIT);
    (out.result.map(|v| show(&v)).map_err(|e| e.msg), out.cost)
}

fn run(rule: &str, schema: &Value, obj: &Value) -> Result<String, String> {
    run_with(rule, schema, obj, None).0
}

/// Evaluates an expression that does not use `self`.
fn e(rule: &str) -> Result<String, String> {
    run(
        rule,
        &json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
        &json!({}),
    )
}

fn ok(rule: &str) -> String {
    e(rule).unwrap_or_else(|err| panic!("{rule}: {err}"))
}

fn err(rule: &str) -> String {
    match e(rule) {
        Err(m) => m,
        Ok(v) => panic!("{rule}: expected an error, got {v}"),
    }
}

fn cost(rule: &str, schema: &Value, obj: &Value) -> u64 {
    run_with(rule, schema, obj, None).1
}

#[test]
fn arithmetic_and_overflow() {
    assert_eq!(ok("1 + 2 * 3 - 4 / 2 % 3"), "5");
    assert_eq!(ok("7u / 2u"), "3u");
    assert_eq!(ok("2.5 * 2.0"), "5.0");
    assert_eq!(err("9223372036854775807 + 1"), "integer overflow");
    assert_eq!(err("-9223372036854775808 / -1"), "integer overflow");
    assert_eq!(err("1 / 0"), "division by zero");
    assert_eq!(err("1 % 0"), "modulus by zero");
    assert_eq!(err("0u - 1u"), "unsigned integer overflow");
    assert_eq!(err("1 + 1.0"), "no such overload");
    assert_eq!(ok("'ab' + 'cd'"), "'abcd'");
    assert_eq!(ok("[1] + [2, 3]"), "[1, 2, 3]");
    assert_eq!(ok("-(5)"), "-5");
}

#[test]
fn comparisons_and_heterogeneous_equality() {
    assert_eq!(ok("1 == 1.0"), "true");
    assert_eq!(ok("1u == 1"), "true");
    assert_eq!(ok("1 < 1.5"), "true");
    assert_eq!(ok("2u > 1"), "true");
    assert_eq!(ok("'a' < 'b'"), "true");
    assert_eq!(ok("1 == 'a'"), "false");
    assert_eq!(ok("[1, 2] == [1, 2.0]"), "true");
    assert_eq!(ok("{'a': 1} == {'a': 1u}"), "true");
    assert_eq!(ok("null == null"), "true");
    assert_eq!(err("1 < 'a'"), "no such overload");
    assert_eq!(ok("true != false"), "true");
}

#[test]
fn logic_absorbs_errors() {
    assert_eq!(ok("false && 1 / 0 == 1"), "false");
    assert_eq!(ok("1 / 0 == 1 && false"), "false");
    assert_eq!(err("true && 1 / 0 == 1"), "division by zero");
    assert_eq!(ok("1 / 0 == 1 || true"), "true");
    assert_eq!(err("1 / 0 == 1 || 2 / 0 == 1"), "division by zero");
    assert_eq!(err("1 && true"), "no such overload");
    assert_eq!(ok("!true"), "false");
    assert_eq!(ok("true ? 1 : 1 / 0"), "1");
    assert_eq!(err("1 ? 1 : 2"), "no such overload");
}

#[test]
fn macros() {
    assert_eq!(ok("[1, 2, 3].all(x, x > 0)"), "true");
    assert_eq!(ok("[1, 2, 3].exists(x, x == 2)"), "true");
    assert_eq!(ok("[1, 2, 3].exists_one(x, x > 1)"), "false");
    assert_eq!(ok("[1, 2, 3].map(x, x * 2)"), "[2, 4, 6]");
    assert_eq!(ok("[1, 2, 3].map(x, x > 1, x * 10)"), "[20, 30]");
    assert_eq!(ok("[1, 2, 3].filter(x, x != 2)"), "[1, 3]");
    assert_eq!(ok("{'a': 1, 'b': 2}.all(k, k in ['a', 'b'])"), "true");
    // Errors in predicates are absorbed when another element decides.
    assert_eq!(ok("[0, 1].exists(x, 1 / x == 1)"), "true");
    assert_eq!(ok("[0, 1].all(x, 1 / x == 5)"), "false");
    assert_eq!(err("[0].all(x, 1 / x == 5)"), "division by zero");
    assert_eq!(ok("[[1, 2], [3]].map(l, l.map(x, x + 1))"), "[[2, 3], [4]]");
}

#[test]
fn fields_presence_and_optionals() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "n": {"type": "object", "properties": {"b": {"type": "integer"}}},
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
            "nul": {"type": "string", "nullable": true},
            "x-y": {"type": "string"}
        }
    });
    let obj = json!({"a": "v", "n": {"b": 2}, "m": {"k": "v"}, "nul": null, "x-y": "z"});
    let r = |rule: &str| run(rule, &schema, &obj);
    assert_eq!(r("self.a"), Ok("'v'".into()));
    assert_eq!(r("has(self.a)"), Ok("true".into()));
    assert_eq!(r("has(self.nul)"), Ok("false".into()));
    assert_eq!(r("self.n.b + 1"), Ok("3".into()));
    assert_eq!(r("self.missing"), Err("no such key: missing".into()));
    assert_eq!(r("self.m['k']"), Ok("'v'".into()));
    assert_eq!(r("self.m['z']"), Err("no such key: z".into()));
    assert_eq!(r("'k' in self.m"), Ok("true".into()));
    assert_eq!(r("self.x__dash__y"), Ok("'z'".into()));
    assert_eq!(r("self.?a.orValue('d')"), Ok("'v'".into()));
    assert_eq!(r("self.?missing.orValue('d')"), Ok("'d'".into()));
    assert_eq!(r("self.?n.?b"), Ok("optional.of(2)".into()));
    assert_eq!(r("self.?zz.b.hasValue()"), Ok("false".into()));
    assert_eq!(r("self.m[?'k']"), Ok("optional.of('v')".into()));
    assert_eq!(
        r("self.m[?'z'].or(optional.of('w')).value()"),
        Ok("'w'".into())
    );
    assert_eq!(ok("optional.none().hasValue()"), "false");
    assert_eq!(
        err("optional.none().value()"),
        "optional.none() dereference"
    );
    assert_eq!(ok("optional.ofNonZeroValue(0)"), "optional.none()");
    assert_eq!(ok("[?optional.none(), 1, ?optional.of(2)]"), "[1, 2]");
    assert_eq!(ok("{?'a': optional.none(), 'b': 1}"), "{'b': 1}");
    assert_eq!(ok("[1, 2][?5]"), "optional.none()");
    assert_eq!(err("[1, 2][5]"), "index out of bounds: 5");
}

#[test]
fn strings_extension() {
    assert_eq!(ok("'hello'.charAt(1)"), "'e'");
    assert_eq!(ok("'hello'.charAt(5)"), "''");
    assert_eq!(err("'hello'.charAt(6)"), "index out of range: 6");
    assert_eq!(ok("'hello'.indexOf('l')"), "2");
    assert_eq!(ok("'hello'.indexOf('l', 3)"), "3");
    assert_eq!(ok("'hello'.lastIndexOf('l')"), "3");
    assert_eq!(ok("'hello'.lastIndexOf('l', 2)"), "2");
    assert_eq!(ok("'héllo'.indexOf('l')"), "2");
    assert_eq!(ok("'Hello'.lowerAscii()"), "'hello'");
    assert_eq!(ok("'Hello'.upperAscii()"), "'HELLO'");
    assert_eq!(ok("'a.b.c'.replace('.', '/')"), "'a/b/c'");
    assert_eq!(ok("'a.b.c'.replace('.', '/', 1)"), "'a/b.c'");
    assert_eq!(ok("'a/b/c'.split('/')"), "['a', 'b', 'c']");
    assert_eq!(ok("'a/b/c'.split('/', 2)"), "['a', 'b/c']");
    assert_eq!(ok("'hello'.substring(1, 3)"), "'el'");
    assert_eq!(ok("'hello'.substring(2)"), "'llo'");
    assert_eq!(
        err("'hello'.substring(3, 1)"),
        "invalid substring range. start: 3, end: 1"
    );
    assert_eq!(err("'hello'.substring(9)"), "index out of range: 9");
    assert_eq!(ok("'  x \\n'.trim()"), "'x'");
    assert_eq!(ok("['a', 'b'].join('-')"), "'a-b'");
    assert_eq!(ok("['a', 'b'].join()"), "'ab'");
    assert_eq!(ok("'%s is %d'.format(['x', 3])"), "'x is 3'");
    assert_eq!(ok("'%.2f'.format([1.5])"), "'1.50'");
    assert_eq!(ok("strings.quote('a\"b')"), "'\"a\\\"b\"'");
    assert_eq!(ok("'abc'.contains('b')"), "true");
    assert_eq!(ok("'abc'.startsWith('ab')"), "true");
    assert_eq!(ok("'abc'.endsWith('bc')"), "true");
    assert_eq!(ok("'héllo'.size()"), "5");
    assert_eq!(ok("size('ab')"), "2");
}

#[test]
fn regex_library() {
    assert_eq!(ok("'abc123'.matches('^[a-z]+[0-9]+$')"), "true");
    assert_eq!(ok("matches('abc', 'b')"), "true");
    assert_eq!(ok("'abc123xyz456'.find('[0-9]+')"), "'123'");
    assert_eq!(ok("'abc'.find('[0-9]+')"), "''");
    assert_eq!(ok("'a1b22c333'.findAll('[0-9]+')"), "['1', '22', '333']");
    assert_eq!(ok("'a1b22c333'.findAll('[0-9]+', 2)"), "['1', '22']");
    assert!(err("'a'.matches('(')").starts_with("error parsing regexp"));
}

#[test]
fn lists_and_sets_libraries() {
    assert_eq!(ok("[1, 2, 3].isSorted()"), "true");
    assert_eq!(ok("['b', 'a'].isSorted()"), "false");
    assert_eq!(ok("[1, 2, 3].sum()"), "6");
    assert_eq!(ok("[1.5, 2.5].sum()"), "4.0");
    assert_eq!(ok("[3, 1, 2].min()"), "1");
    assert_eq!(ok("[3, 1, 2].max()"), "3");
    assert_eq!(err("[].max()"), "max called on empty list");
    assert_eq!(ok("[1, 2, 1].indexOf(1)"), "0");
    assert_eq!(ok("[1, 2, 1].lastIndexOf(1)"), "2");
    assert_eq!(ok("[1, 2].indexOf(9)"), "-1");
    assert_eq!(ok("sets.contains([1, 2, 3], [2, 3])"), "true");
    assert_eq!(ok("sets.equivalent([1, 2], [2, 1, 1])"), "true");
    assert_eq!(ok("sets.intersects([1, 2], [3, 2])"), "true");
    assert_eq!(ok("sets.intersects([1], [3])"), "false");
}

#[test]
fn url_quantity_ip_cidr_format() {
    assert_eq!(
        ok("url('https://example.com:8080/p?x=1&x=2').getScheme()"),
        "'https'"
    );
    assert_eq!(
        ok("url('https://example.com:8080/p').getHost()"),
        "'example.com:8080'"
    );
    assert_eq!(
        ok("url('https://example.com:8080/p').getHostname()"),
        "'example.com'"
    );
    assert_eq!(ok("url('https://example.com:8080/p').getPort()"), "'8080'");
    assert_eq!(ok("url('https://[::1]:80/p').getHostname()"), "'::1'");
    assert_eq!(
        ok("url('https://example.com/a/b').getEscapedPath()"),
        "'/a/b'"
    );
    assert_eq!(
        ok("url('https://e.com/?x=1&x=2&y=a+b').getQuery()"),
        "{'x': ['1', '2'], 'y': ['a b']}"
    );
    assert_eq!(ok("isURL('not a url')"), "false");
    assert_eq!(
        err("url('x y')"),
        "URL parse error during conversion from string: parse \"x y\": invalid URI for request"
    );
    assert_eq!(ok("quantity('1Gi').isGreaterThan(quantity('1G'))"), "true");
    assert_eq!(ok("quantity('1000m').compareTo(quantity('1'))"), "0");
    assert_eq!(ok("quantity('1.5').isInteger()"), "false");
    assert_eq!(ok("quantity('2k').asInteger()"), "2000");
    assert_eq!(ok("quantity('1Ki').add(quantity('1')).asInteger()"), "1025");
    assert_eq!(ok("quantity('1').sub(2).sign()"), "-1");
    assert_eq!(ok("quantity('500m').asApproximateFloat()"), "0.5");
    assert_eq!(ok("isQuantity('1.2.3')"), "false");
    assert_eq!(ok("ip('192.168.0.1').family()"), "4");
    assert_eq!(ok("ip('::1').isLoopback()"), "true");
    assert_eq!(ok("ip('fe80::1').isLinkLocalUnicast()"), "true");
    assert_eq!(ok("ip('8.8.8.8').isGlobalUnicast()"), "true");
    assert_eq!(ok("isIP('1.2.3')"), "false");
    assert_eq!(ok("isIP('::ffff:1.2.3.4')"), "false");
    assert_eq!(ok("ip.isCanonical('2001:db8::1')"), "true");
    assert_eq!(ok("ip.isCanonical('2001:DB8::1')"), "false");
    assert_eq!(ok("string(ip('2001:db8:0:0::1'))"), "'2001:db8::1'");
    assert_eq!(ok("cidr('10.0.0.0/8').containsIP('10.1.2.3')"), "true");
    assert_eq!(ok("cidr('10.0.0.0/8').containsIP(ip('11.1.2.3'))"), "false");
    assert_eq!(ok("cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')"), "true");
    assert_eq!(
        ok("cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8')"),
        "false"
    );
    assert_eq!(ok("string(cidr('10.1.2.3/8').masked())"), "'10.0.0.0/8'");
    assert_eq!(ok("cidr('10.0.0.0/8').prefixLength()"), "8");
    assert_eq!(ok("string(cidr('10.0.0.0/8').ip())"), "'10.0.0.0'");
    assert_eq!(ok("isCIDR('10.0.0.0/33')"), "false");
    assert_eq!(
        ok("format.dns1123Label().validate('abc')"),
        "optional.none()"
    );
    assert!(
        ok("format.dns1123Label().validate('ABC')")
            .starts_with("optional.of(['a lowercase RFC 1123 label")
    );
    assert_eq!(ok("format.named('labelValue').hasValue()"), "true");
    assert_eq!(ok("format.named('nope').hasValue()"), "false");
}

#[test]
fn conversions_and_time() {
    assert_eq!(ok("int('12')"), "12");
    assert_eq!(
        err("int('x')"),
        "type conversion error from 'string' to 'int'"
    );
    assert_eq!(ok("int(2.9)"), "2");
    assert_eq!(ok("uint(3)"), "3u");
    assert_eq!(ok("double(2)"), "2.0");
    assert_eq!(ok("string(1.5)"), "'1.5'");
    assert_eq!(ok("string(true)"), "'true'");
    assert_eq!(ok("bool('true')"), "true");
    assert_eq!(ok("duration('1h30m') == duration('90m')"), "true");
    assert_eq!(ok("string(duration('1500ms'))"), "'1.5s'");
    assert_eq!(ok("duration('1ms') < duration('1s')"), "true");
    assert_eq!(
        ok("timestamp('2024-02-29T12:30:00Z').getFullYear()"),
        "2024"
    );
    assert_eq!(ok("timestamp('2024-02-29T12:30:00Z').getMonth()"), "1");
    assert_eq!(
        ok("timestamp('2024-02-29T12:30:00Z').getDayOfMonth()"),
        "28"
    );
    assert_eq!(
        ok("timestamp('2024-02-29T12:30:00Z').getHours('+02:00')"),
        "14"
    );
    assert_eq!(
        ok("timestamp('2024-01-01T00:00:00Z') + duration('24h')"),
        "timestamp(2024-01-02T00:00:00Z)"
    );
    assert_eq!(
        ok("timestamp('2024-01-02T00:00:00Z') - timestamp('2024-01-01T00:00:00Z')"),
        "duration(86400s)"
    );
    assert_eq!(ok("type(1) == int"), "true");
    assert_eq!(ok("type('a') == string"), "true");
    assert_eq!(ok("dyn(1) == 1"), "true");
}

#[test]
fn object_values_from_schema() {
    let schema = json!({
        "type": "object",
        "properties": {
            "ios": {"x-kubernetes-int-or-string": true},
            "num": {"type": "number"},
            "d": {"type": "string", "format": "duration"},
            "t": {"type": "string", "format": "date-time"},
            "day": {"type": "string", "format": "date"},
            "b": {"type": "string", "format": "byte"},
            "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "ml": {
                "type": "array",
                "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["k"],
                "items": {"type": "object", "properties": {"k": {"type": "string"}, "v": {"type": "integer"}}}
            },
            "emb": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
            "any": {"x-kubernetes-preserve-unknown-fields": true}
        }
    });
    let obj = json!({
        "ios": "50%", "num": 1, "d": "1h", "t": "2024-01-01T00:00:00Z", "day": "2024-01-02",
        "b": "aGk=", "set": ["a", "b"],
        "ml": [{"k": "a", "v": 1}, {"k": "b", "v": 2}],
        "emb": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {}},
        "any": {"x": [1]}
    });
    let r = |rule: &str| run(rule, &schema, &obj);
    assert_eq!(r("self.ios"), Ok("'50%'".into()));
    assert_eq!(r("self.num"), Ok("1.0".into()));
    assert_eq!(r("self.d == duration('60m')"), Ok("true".into()));
    assert_eq!(r("self.t.getFullYear()"), Ok("2024".into()));
    assert_eq!(r("self.day.getDate()"), Ok("2".into()));
    assert_eq!(r("self.b == b'hi'"), Ok("true".into()));
    assert_eq!(r("self.set == ['b', 'a']"), Ok("true".into()));
    assert_eq!(r("self.set == ['b', 'c']"), Ok("false".into()));
    // Map lists compare element by element through their raw keys; a
    // literal list's maps have none (the checker rejects the comparison).
    assert_eq!(r("self.ml == self.ml"), Ok("true".into()));
    assert_eq!(
        r("self.ml == [{'k': 'b', 'v': 2}, {'k': 'a', 'v': 1}]"),
        Ok("false".into())
    );
    assert_eq!(
        r("(self.ml + [{'k': 'a', 'v': 9}]).map(e, e.v)"),
        Ok("[9, 2]".into())
    );
    assert_eq!(r("(self.set + ['c', 'a']).size()"), Ok("3".into()));
    assert_eq!(r("self.emb.metadata.name"), Ok("'p'".into()));
    assert_eq!(r("self.emb.kind"), Ok("'Pod'".into()));
    assert_eq!(r("has(self.emb.spec)"), Ok("false".into()));
    assert_eq!(r("self.any == self.any"), Ok("true".into()));
    let bad = json!({"d": "nope"});
    assert!(
        run("self.d", &schema, &bad)
            .unwrap_err()
            .starts_with("Invalid duration nope")
    );
}

#[test]
fn runtime_costs_follow_cel_go() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}, "l": {"type": "array", "items": {"type": "integer"}}}});
    let obj = json!({"a": "abc", "l": [1, 2, 3]});
    // Identifier 1 + select 1.
    assert_eq!(cost("self.a", &schema, &obj), 2);
    // Literals and constant lists are free (OptOptimize).
    assert_eq!(cost("[1, 2, 3]", &schema, &obj), 0);
    assert_eq!(cost("[self.a]", &schema, &obj), 12);
    // `==` on strings: ceil(min(3, 1) * 0.1) = 1.
    assert_eq!(cost("self.a == 'x'", &schema, &obj), 3);
    // Set membership in a constant list of strings costs nothing itself.
    assert_eq!(cost("self.a in ['x', 'y']", &schema, &obj), 2);
    // has() is free; its operand is not.
    assert_eq!(cost("has(self.a)", &schema, &obj), 1);
    // size(): 1; a receiver call after selects.
    assert_eq!(cost("self.l.size()", &schema, &obj), 3);
    // all(): range 2, init 0, per element: condition (ident 1 + call 1),
    // step (ident 1, x 1, const 0, `>` 1), result 1.
    assert_eq!(cost("self.l.all(x, x > 0)", &schema, &obj), 2 + 3 * 5 + 1);
    // Conversions of constants are folded.
    assert_eq!(cost("duration('1s')", &schema, &obj), 0);
}

#[test]
fn comprehension_accumulators_initialize_on_first_read() {
    let schema = json!({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}});
    let obj = json!({"m": {"k": "v"}});
    // `t.optMap(v, e)` is `t.hasValue() ? optional.of(<v = t.value()> e)
    // : optional.none()`: the target is evaluated twice, the second time
    // only when `e` reads `v`.
    // hasValue (target 3, call 1), value (target 3, call 1), `v` 1, `==`
    // 1, optional.of 1, hasValue 1.
    assert_eq!(
        cost("self.m[?'k'].optMap(v, v == 'v').hasValue()", &schema, &obj),
        12
    );
    // `v` unread: no `value()`.
    assert_eq!(
        cost("optional.of(1).optMap(v, true).hasValue()", &schema, &obj),
        4
    );
    assert_eq!(
        cost("optional.none().optMap(v, true).hasValue()", &schema, &obj),
        4
    );
}

#[test]
fn per_call_cost_limit_stops_blowups() {
    // Six nested maps over ten elements would build 10^6 lists: the
    // per-call limit stops the evaluation after a fraction of them.
    let l = "[0,1,2,3,4,5,6,7,8,9]";
    let rule =
        format!("{l}.map(a, {l}.map(b, {l}.map(c, {l}.map(d, {l}.map(e, {l}.map(f, [a, f]))))))");
    let (r, c) = run_with(
        &rule,
        &json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
        &json!({}),
        None,
    );
    let shown: Result<String, String> = r.map(|v| v.chars().take(100).collect());
    assert_eq!(
        shown,
        Err("operation cancelled: actual cost limit exceeded".into())
    );
    assert!(c > PER_CALL_LIMIT);
    // Deep nesting of the expression is refused, not recursed into: the
    // parser limits bracket nesting, the evaluator the rest.
    let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
    assert!(parse_versioned(&deep, CompatibilityVersion::CURRENT).is_err());
    // A long chain nests when the parse tree is visited (cel-go's
    // `max recursion depth exceeded`), not while parsing.
    let deep = format!("1{}", " + 1".repeat(5000));
    assert!(
        parse_versioned(&deep, CompatibilityVersion::CURRENT)
            .err()
            .unwrap()[0]
            .message
            .contains("max recursion depth exceeded")
    );
    // The evaluator bounds its own recursion too.
    let deep = format!("1{}", " + 1".repeat(245));
    let shown = std::thread::scope(|sc| {
        std::thread::Builder::new()
            .stack_size(crate::cel::validator::EVAL_STACK_SIZE)
            .spawn_scoped(sc, || {
                let expr = parse(&deep);
                let act = Activation {
                    self_: Ok(Val::Null),
                    old_self: None,
                };
                show(&evaluate(&expr, None, &act, PER_CALL_LIMIT).result.unwrap())
            })
            .unwrap()
            .join()
            .unwrap()
    });
    assert_eq!(shown, "246");
    // Every tree the parser limits allow evaluates: selections of map
    // literals nest twice as deep as the limit.
    let deep = format!("{}1{}", "{'a': ".repeat(247), "}.a".repeat(247));
    let shown = std::thread::scope(|sc| {
        std::thread::Builder::new()
            .stack_size(crate::cel::validator::EVAL_STACK_SIZE)
            .spawn_scoped(sc, || {
                let expr = parse(&deep);
                let act = Activation {
                    self_: Ok(Val::Null),
                    old_self: None,
                };
                show(&evaluate(&expr, None, &act, PER_CALL_LIMIT).result.unwrap())
            })
            .unwrap()
            .join()
            .unwrap()
    });
    assert_eq!(shown, "1");
}

fn validate(schema: &Value, obj: &Value, old: Option<&Value>) -> Vec<String> {
    let s = structural(schema);
    let v = CelValidator::new(&s, false);
    v.validate(
        &Path::root(),
        obj,
        old,
        CelOptions::default(),
        RUNTIME_CEL_COST_BUDGET,
    )
    .errors
    .iter()
    .map(ToString::to_string)
    .collect()
}

#[test]
fn validator_messages_reasons_and_paths() {
    let schema = json!({
        "type": "object",
        "x-kubernetes-validations": [
            {"rule": "self.a == 'x'"},
            {"rule": "self.a == 'y'", "message": "  a must be y  "},
            {"rule": "self.a == 'z'", "messageExpression": "'a is ' + self.a"},
            {"rule": "self.a == 'w'", "reason": "FieldValueForbidden", "fieldPath": ".a"},
            {"rule": "self.a == 'v'", "reason": "FieldValueRequired", "message": "need v"},
            {"rule": "self.a == 'u'", "reason": "FieldValueDuplicate", "fieldPath": "['a']"},
            {"rule": "self.a == 't'", "messageExpression": "1"},
            {"rule": "self.nope == 1"},
            {"rule": "self.i + 'a' == 1"},
            {"rule": "self.m['nope'] == 1"},
            {"rule": "self.i + 1 == 2"}
        ],
        "properties": {
            "a": {"type": "string", "x-kubernetes-validations": [{"rule": "self.size() > 3"}]},
            "i": {"x-kubernetes-int-or-string": true},
            "m": {"type": "object", "additionalProperties": {"type": "integer"}}
        }
    });
    let errs = validate(&schema, &json!({"a": "b", "i": "s", "m": {}}), None);
    assert_eq!(
        errs,
        vec![
            "<nil>: Invalid value: failed rule: self.a == 'x'",
            "<nil>: Invalid value: a must be y",
            "<nil>: Invalid value: a is b",
            "a: Forbidden: failed rule: self.a == 'w'",
            "<nil>: Required value: need v",
            "a: Duplicate value",
            "<nil>: Invalid value: failed rule: self.a == 't'",
            // Rules that do not compile: the checker's errors.
            "<nil>: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope == 1\n | ....^",
            "<nil>: Invalid value: \"object\": rule compile error: compilation failed: ERROR: <input>:1:14: found no matching overload for '_==_' applied to '(string, int)'\n | self.i + 'a' == 1\n | .............^",
            // Runtime errors.
            "<nil>: Invalid value: \"object\": no such key: nope evaluating rule: self.m['nope'] == 1",
            "<nil>: Invalid value: \"object\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self.i + 1 == 2",
            "a: Invalid value: \"b\": failed rule: self.size() > 3",
        ]
    );
}

#[test]
fn transition_rules_and_optional_old_self() {
    let schema = json!({
        "type": "object",
        "properties": {
            "f": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "immutable"}]},
            "g": {"type": "string", "x-kubernetes-validations": [{
                "rule": "!oldSelf.hasValue() || oldSelf.value() <= self",
                "optionalOldSelf": true
            }]},
            "ml": {
                "type": "array",
                "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["k"],
                "items": {"type": "object", "properties": {
                    "k": {"type": "string"},
                    "v": {"type": "integer", "x-kubernetes-validations": [{"rule": "self >= oldSelf"}]}
                }}
            }
        }
    });
    // Create: transition rules are skipped; optionalOldSelf rules run.
    assert!(validate(&schema, &json!({"f": "a", "g": "b"}), None).is_empty());
    let errs = validate(
        &schema,
        &json!({"f": "b", "g": "a", "ml": [{"k": "x", "v": 1}, {"k": "y", "v": 5}]}),
        Some(&json!({"f": "a", "g": "b", "ml": [{"k": "y", "v": 4}, {"k": "x", "v": 2}]})),
    );
    assert_eq!(
        errs,
        vec![
            "f: Invalid value: \"b\": immutable",
            "g: Invalid value: \"a\": failed rule: !oldSelf.hasValue() || oldSelf.value() <= self",
            "ml[0].v: Invalid value: 1: failed rule: self >= oldSelf",
        ]
    );
}

#[test]
fn ratcheting_turns_unchanged_failures_into_warnings() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "string", "x-kubernetes-validations": [{"rule": "self.size() > 3"}]},
            "b": {"type": "string", "x-kubernetes-validations": [{"rule": "self.size() > 3"}]}
        }
    });
    let s = structural(&schema);
    let v = CelValidator::new(&s, false);
    let out = v.validate(
        &Path::root(),
        &json!({"a": "x", "b": "y"}),
        Some(&json!({"a": "x", "b": "z"})),
        CelOptions::default(),
        RUNTIME_CEL_COST_BUDGET,
    );
    let errs: Vec<String> = out.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        errs,
        vec!["b: Invalid value: \"y\": failed rule: self.size() > 3"]
    );
    let ratcheted: Vec<String> = out.ratcheted.iter().map(ToString::to_string).collect();
    assert_eq!(
        ratcheted,
        vec!["a: Invalid value: \"x\": failed rule: self.size() > 3"]
    );
}

#[test]
fn budget_exhaustion_stops_validation() {
    // Each item's rule costs 83,205 with 200-element lists: `self.l` 2,
    // 200 outer steps of 416 (`@result` 1, the inner expression 404, the
    // list literal 10, `+` 1), result 1, size 1, `>` 1; the inner map is
    // 2 + 200 × 2 (its `[1]` is a folded constant) + 2. The budget of
    // 10,000,000 covers 120 items.
    let schema = json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"l": {"type": "array", "items": {"type": "integer"}}},
            "x-kubernetes-validations": [{"rule": "self.l.map(x, self.l.map(y, 1).size()).size() > 0"}]
        }
    });
    let l: Vec<i64> = (0..200).collect();
    let items: Vec<Value> = (0..200).map(|_| json!({"l": l})).collect();
    let errs = validate(&schema, &Value::Array(items), None);
    assert_eq!(
        errs,
        vec![
            "[120]: Invalid value: \"object\": validation failed due to running out of cost budget, no further validation rules will be run"
        ]
    );
}

#[test]
fn per_call_limit_error_names_the_rule() {
    let schema = json!({
        "type": "object",
        "properties": {"l": {"type": "array", "items": {"type": "integer"}}},
        "x-kubernetes-validations": [
            {"rule": "self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))"},
            {"rule": "false"}
        ]
    });
    let l: Vec<i64> = (0..200).collect();
    let errs = validate(&schema, &json!({"l": l}), None);
    assert_eq!(
        errs,
        vec![
            "<nil>: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))"
        ]
    );
}

#[test]
fn two_variable_comprehensions() {
    assert_eq!(ok("[10, 20].all(i, v, v == (i + 1) * 10)"), "true");
    assert_eq!(
        ok("{'a': 1, 'b': 2}.exists(k, v, k == 'b' && v == 2)"),
        "true"
    );
    assert_eq!(ok("[1, 2, 3].existsOne(i, v, v > 2)"), "true");
    assert_eq!(ok("[1, 2, 3].transformList(i, v, i * v)"), "[0, 2, 6]");
    assert_eq!(ok("[1, 2, 3].transformList(i, v, v > 1, v)"), "[2, 3]");
    assert_eq!(ok("{'a': 1}.transformMap(k, v, v + 1)"), "{'a': 2}");
    assert_eq!(ok("['x', 'y'].transformMap(i, v, v)"), "{0: 'x', 1: 'y'}");
    assert_eq!(
        ok("{'a': 1}.transformMapEntry(k, v, {k + '!': v})"),
        "{'a!': 1}"
    );
    assert_eq!(
        err("[1, 2].transformMapEntry(i, v, {'k': v})"),
        "insert failed: key k already exists"
    );
}
