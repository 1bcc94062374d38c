//! Tests of the checker and the cost estimator against what upstream's
//! tests assert (apiextensions `compilation_test.go` `TestCostEstimation`,
//! cel-go checker messages).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{Value, json};

use crate::cel::compile::{RuleEnv, compile_rule};
use crate::cel::decl::schema_decl_type;
use crate::cel::functions::CompatibilityVersion;
use crate::model::field::Path;
use crate::model::structural::Structural;
use crate::model::wire::JsonSchemaProps;
use crate::model::wire::codec::{DecodeCx, Wire};

fn structural(v: &Value) -> Structural {
    let p = JsonSchemaProps::decode(v, &Path::root(), &mut DecodeCx::default()).unwrap();
    Structural::from_props(&p).unwrap()
}

fn compile(schema: &Value, version: CompatibilityVersion) -> crate::cel::compile::RuleCompilation {
    let s = structural(schema);
    let decl = schema_decl_type(&s, false).expect("declared type");
    let env = RuleEnv::new(&decl, version);
    compile_rule(&s.x_validations[0], &env)
}

fn cost(schema: &Value) -> u64 {
    let r = compile(schema, CompatibilityVersion::CURRENT);
    assert!(r.error.is_none(), "{schema}: {:?}", r.error);
    r.max_cost
}

fn with(mut v: Value, key: &str, max: Option<i64>) -> Value {
    if let Some(m) = max {
        v[key] = json!(m);
    }
    v
}

fn rule_type(t: &str) -> Value {
    match t {
        "duration" | "date" | "date-time" => json!({"type": "string", "format": t}),
        "int-or-string" => json!({"x-kubernetes-int-or-string": true}),
        _ => json!({"type": t}),
    }
}

fn rules(rule: &str) -> Value {
    json!([{"rule": rule}])
}

fn array(t: &str, rule: &str, max: Option<i64>) -> Value {
    let v =
        json!({"type": "array", "items": rule_type(t), "x-kubernetes-validations": rules(rule)});
    with(v, "maxItems", max)
}

fn array_of_arrays(t: &str, rule: &str, max: Option<i64>) -> Value {
    let v = json!({"type": "array", "items": {"type": "array", "items": {"type": t}},
        "x-kubernetes-validations": rules(rule)});
    with(v, "maxItems", max)
}

fn object_for_map() -> Value {
    json!({"type": "object", "required": ["required"], "properties": {
        "required": {"type": "string"}, "optional": {"type": "string"}}})
}

fn object_array(rule: &str, max: Option<i64>) -> Value {
    let v = json!({"type": "array", "items": object_for_map(), "x-kubernetes-validations": rules(rule)});
    with(v, "maxItems", max)
}

fn map_array(t: &str, rule: &str, max: Option<i64>) -> Value {
    let v = json!({"type": "array", "items": {"type": "object", "additionalProperties": {"type": t}},
        "x-kubernetes-validations": rules(rule)});
    with(v, "maxItems", max)
}

fn map_with(item: Value, rule: &str, max: Option<i64>) -> Value {
    let v = json!({"type": "object", "additionalProperties": item, "x-kubernetes-validations": rules(rule)});
    with(v, "maxProperties", max)
}

fn map(t: &str, rule: &str, max: Option<i64>) -> Value {
    map_with(rule_type(t), rule, max)
}

fn string(rule: &str, max: Option<i64>) -> Value {
    with(
        json!({"type": "string", "x-kubernetes-validations": rules(rule)}),
        "maxLength",
        max,
    )
}

fn bytes(rule: &str, max: Option<i64>) -> Value {
    with(
        json!({"type": "string", "format": "byte", "x-kubernetes-validations": rules(rule)}),
        "maxLength",
        max,
    )
}

fn nested_spec(rule: &str, max: Option<i64>) -> Value {
    let item = with(json!({"type": "string"}), "maxLength", max);
    map_with(item, rule, max)
}

fn nested_root(rule: &str, max: Option<i64>, all: bool) -> Value {
    let mut inner = object_for_map();
    if all {
        inner = with(inner, "maxProperties", max);
    }
    let items = with(
        json!({"type": "object", "additionalProperties": inner}),
        "maxProperties",
        max,
    );
    let v = json!({"type": "array", "items": items, "x-kubernetes-validations": rules(rule)});
    if all { with(v, "maxItems", max) } else { v }
}

type Gen = Box<dyn Fn(Option<i64>) -> Value>;
/// name, schema generator, cost without limits, the limit, cost with it.
type CostCase = (&'static str, Gen, Option<u64>, i64, Option<u64>);

#[test]
fn cost_estimation_matches_upstream() {
    let cases: Vec<CostCase> = vec![
        (
            "number array all",
            Box::new(|m| array("number", "self.all(x, true)", m)),
            Some(4718591),
            10,
            Some(32),
        ),
        (
            "string array all",
            Box::new(|m| array("string", "self.all(x, true)", m)),
            Some(3145727),
            20,
            Some(62),
        ),
        (
            "boolean array all",
            Box::new(|m| array("boolean", "self.all(x, true)", m)),
            Some(1887437),
            5,
            Some(17),
        ),
        (
            "array of arrays all",
            Box::new(|m| array_of_arrays("number", "self.all(x, true)", m)),
            Some(3145727),
            100,
            Some(302),
        ),
        (
            "array of objects all",
            Box::new(|m| object_array("self.all(x, true)", m)),
            Some(555128),
            50,
            Some(152),
        ),
        (
            "map of numbers all",
            Box::new(|m| map("number", "self.all(x, true)", m)),
            Some(1348169),
            10,
            Some(32),
        ),
        (
            "map of numbers has",
            Box::new(|m| map("number", "has(self.x)", m)),
            Some(0),
            100,
            Some(0),
        ),
        (
            "has costs the operand only",
            Box::new(|m| map("number", "has(self.x)", m)),
            Some(1),
            100,
            Some(1),
        ),
        (
            "map of strings all",
            Box::new(|m| map("string", "self.all(x, true)", m)),
            Some(1179647),
            3,
            Some(11),
        ),
        (
            "map of booleans all",
            Box::new(|m| map("boolean", "self.all(x, true)", m)),
            Some(943718),
            100,
            Some(302),
        ),
        (
            "string contains",
            Box::new(|m| string("self.contains('test')", m)),
            Some(314574),
            10,
            Some(5),
        ),
        (
            "string startsWith",
            Box::new(|m| string("self.startsWith('test')", m)),
            Some(2),
            15,
            Some(2),
        ),
        (
            "string endsWith",
            Box::new(|m| string("self.endsWith('test')", m)),
            Some(2),
            30,
            Some(2),
        ),
        (
            "concat string",
            Box::new(|m| string(r#"size(self + "hello") > size("hello")"#, m)),
            Some(314578),
            4,
            Some(7),
        ),
        (
            "index numbers",
            Box::new(|m| array("number", "self[1] == 0.0", m)),
            Some(2),
            5000,
            Some(2),
        ),
        (
            "index strings",
            Box::new(|m| array("string", "self[1] == self[1]", m)),
            Some(314577),
            8,
            Some(314577),
        ),
        (
            "O(n^2)",
            Box::new(|m| array("number", "self.all(x, self.all(y, true))", m)),
            None,
            10,
            Some(352),
        ),
        (
            "O(n^3)",
            Box::new(|m| array("number", "self.all(x, self.all(y, self.all(z, true)))", m)),
            None,
            10,
            Some(3552),
        ),
        (
            "regex matches",
            Box::new(|m| string(r#"self.matches("x")"#, m)),
            Some(314574),
            50,
            Some(22),
        ),
        (
            "regex matches empty string",
            Box::new(|m| string(r#""".matches("(((((((((())))))))))[0-9]")"#, m)),
            Some(7),
            10,
            Some(7),
        ),
        (
            "regex matches empty regex",
            Box::new(|m| string(r#"self.matches("")"#, m)),
            Some(1),
            100,
            Some(1),
        ),
        (
            "map of strings value length",
            Box::new(|m| nested_spec("self.all(x, x.contains(self[x]))", m)),
            Some(2752507),
            10,
            Some(72),
        ),
        (
            "array maxItems zero",
            Box::new(|m| array("number", "self[3] == 0.0", m)),
            Some(2),
            0,
            Some(2),
        ),
        (
            "map maxProperties zero",
            Box::new(|m| map("number", r#"self["x"] == 0.0"#, m)),
            Some(2),
            0,
            Some(2),
        ),
        (
            "string maxLength zero",
            Box::new(|m| string(r#"self == "x""#, m)),
            Some(2),
            0,
            Some(1),
        ),
        (
            "bytes maxLength zero",
            Box::new(|m| bytes(r#"self == b"x""#, m)),
            Some(2),
            0,
            Some(1),
        ),
        (
            "maxItems above estimate",
            Box::new(|m| array("number", "self.all(x, x == 0.0)", m)),
            Some(6291454),
            3 * 1024 * 2048,
            Some(25165826),
        ),
        (
            "nested root all max",
            Box::new(|m| nested_root(r#"self.all(x, x["y"].required == "z")"#, m, true)),
            Some(7340027),
            10,
            Some(72),
        ),
        (
            "nested root one max",
            Box::new(|m| nested_root(r#"self.all(x, x["y"].required == "z")"#, m, false)),
            Some(7340027),
            10,
            Some(7340027),
        ),
        (
            "int-or-string array all",
            Box::new(|m| array("int-or-string", "self.all(x, true)", m)),
            Some(4718591),
            10,
            Some(32),
        ),
        (
            "index int-or-string",
            Box::new(|m| array("int-or-string", "self[0] == 5", m)),
            Some(3),
            10,
            Some(3),
        ),
        (
            "index booleans",
            Box::new(|m| array("boolean", "self[0] == false", m)),
            Some(2),
            25,
            Some(2),
        ),
        (
            "index objects",
            Box::new(|m| object_array("self[0] == null", m)),
            Some(2),
            422,
            Some(2),
        ),
        (
            "index array of arrays",
            Box::new(|m| array_of_arrays("number", "self[0][0] == -1.0", m)),
            Some(3),
            51,
            Some(3),
        ),
        (
            "array of number maps all",
            Box::new(|m| map_array("number", "self.all(x, x.y == 25.2)", m)),
            Some(6291452),
            12,
            Some(74),
        ),
        (
            "index number maps",
            Box::new(|m| map_array("number", "self[0].x > 2.0", m)),
            Some(4),
            3000,
            Some(4),
        ),
        (
            "duration array all",
            Box::new(|m| array("duration", "self.all(x, true)", m)),
            Some(2359295),
            5,
            Some(17),
        ),
        (
            "index duration",
            Box::new(|m| array("duration", "self[0].getHours() == 2", m)),
            Some(4),
            525,
            Some(4),
        ),
        (
            "date array all",
            Box::new(|m| array("date", "self.all(x, true)", m)),
            Some(725936),
            15,
            Some(47),
        ),
        (
            "index date",
            Box::new(|m| array("date", "self[2].getDayOfMonth() == 13", m)),
            Some(4),
            42,
            Some(4),
        ),
        (
            "date-time array all",
            Box::new(|m| array("date-time", "self.all(x, true)", m)),
            Some(428963),
            25,
            Some(77),
        ),
        (
            "index date-time",
            Box::new(|m| array("date-time", "self[2].getMinutes() == 45", m)),
            Some(4),
            99,
            Some(4),
        ),
        (
            "map int-or-string all",
            Box::new(|m| map("int-or-string", "self.all(x, true)", m)),
            Some(1348169),
            15,
            Some(47),
        ),
        (
            "map of objects all",
            Box::new(|m| map_with(object_for_map(), "self.all(x, true)", m)),
            Some(428963),
            20,
            Some(62),
        ),
        (
            "map of number maps all",
            Box::new(|m| {
                map_with(
                    json!({"type": "object", "additionalProperties": {"type": "number"}}),
                    "self.all(x, true)",
                    m,
                )
            }),
            Some(1179647),
            10,
            Some(32),
        ),
        (
            "map of number arrays all",
            Box::new(|m| {
                map_with(
                    json!({"type": "array", "items": {"type": "number"}}),
                    "self.all(x, true)",
                    m,
                )
            }),
            Some(1179647),
            25,
            Some(77),
        ),
        (
            "map of durations all",
            Box::new(|m| map("duration", "self.all(x, true)", m)),
            Some(1048577),
            5,
            Some(17),
        ),
        (
            "map of dates all",
            Box::new(|m| map("date", "self.all(x, true)", m)),
            Some(524288),
            10,
            Some(32),
        ),
        (
            "map of date-times all",
            Box::new(|m| map("date-time", "self.all(x, true)", m)),
            Some(349526),
            25,
            Some(77),
        ),
        (
            "regex find",
            Box::new(|m| string("self.find('[0-9]+') == ''", m)),
            Some(629147),
            10,
            Some(11),
        ),
        (
            "join",
            Box::new(|m| {
                let v = json!({"type": "array", "x-kubernetes-list-type": "atomic",
                "items": with(json!({"type": "string"}), "maxLength", m),
                "x-kubernetes-validations": rules("self.join(' ') == 'aa bb'")});
                with(v, "maxItems", m)
            }),
            Some(329853068905),
            10,
            Some(43),
        ),
        (
            "isSorted",
            Box::new(|m| {
                let v = json!({"type": "array", "x-kubernetes-list-type": "atomic",
                "items": with(json!({"type": "string"}), "maxLength", m),
                "x-kubernetes-validations": rules("self.isSorted() == true")});
                with(v, "maxItems", m)
            }),
            Some(329854432052),
            10,
            Some(52),
        ),
        (
            "replace",
            Box::new(|m| {
                json!({"type": "object", "properties": {
            "str": with(json!({"type": "string"}), "maxLength", m),
            "before": {"type": "string", "maxLength": 2},
            "after": {"type": "string", "maxLength": 4}},
            "x-kubernetes-validations": rules("self.str.replace(self.before, self.after) == 'does not matter'")})
            }),
            Some(629154),
            4,
            Some(12),
        ),
        (
            "split",
            Box::new(|m| {
                json!({"type": "object", "properties": {
            "str": with(json!({"type": "string"}), "maxLength", m),
            "separator": with(json!({"type": "string"}), "maxLength", m)},
            "x-kubernetes-validations": rules("self.str.split(self.separator) == []")})
            }),
            Some(629160),
            10,
            Some(22),
        ),
        (
            "lowerAscii",
            Box::new(|m| string("self.lowerAscii() == 'lower!'", m)),
            Some(314575),
            10,
            Some(6),
        ),
        (
            "size call",
            Box::new(|m| map("integer", "oldSelf.size() == self.size()", m)),
            Some(5),
            10,
            Some(5),
        ),
        (
            "timestamp comparison",
            Box::new(|m| map("date-time", r#"self["a"] == self["b"]"#, m)),
            Some(8),
            7,
            Some(8),
        ),
        (
            "duration comparison",
            Box::new(|m| map("duration", r#"self["c"] == self["d"]"#, m)),
            Some(8),
            42,
            Some(8),
        ),
        (
            "enum bound",
            Box::new(|m| {
                with(
                    json!({"type": "string", "enum": ["A", "B", "C", "LongValue"],
            "x-kubernetes-validations": rules("self.contains('A')")}),
                    "maxLength",
                    m,
                )
            }),
            Some(2),
            1000,
            Some(401),
        ),
    ];
    let mut failures = Vec::new();
    for (name, gen_schema, calc, set_max, set) in cases {
        let c = cost(&gen_schema(None));
        match calc {
            // like upstream, an expectation of 0 is not checked
            Some(want) if want > 0 && c != want => {
                failures.push(format!("{name} (calc): want {want} got {c}"))
            }
            None if c < 10_000_000 => {
                failures.push(format!("{name} (calc): want over limit, got {c}"))
            }
            _ => {}
        }
        let s = cost(&gen_schema(Some(set_max)));
        if let Some(want) = set {
            if want > 0 && s != want {
                failures.push(format!("{name} (set): want {want} got {s}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

fn error_of(schema: &Value, version: CompatibilityVersion) -> Option<String> {
    compile(schema, version).error
}

#[test]
fn type_errors_in_cel_go_words() {
    let obj = |rule: &str| {
        json!({"type": "object", "properties": {"x": {"type": "integer"}, "s": {"type": "string"}},
            "x-kubernetes-validations": rules(rule)})
    };
    let v = CompatibilityVersion::CURRENT;
    assert_eq!(
        error_of(&obj("self.unknownProp > 0"), v).unwrap(),
        "compilation failed: ERROR: <input>:1:5: undefined field 'unknownProp'\n | self.unknownProp > 0\n | ....^"
    );
    assert_eq!(
        error_of(&obj("self.x + 'a' == 1"), v).unwrap(),
        "compilation failed: ERROR: <input>:1:8: found no matching overload for '_+_' applied to '(int, string)'\n | self.x + 'a' == 1\n | .......^"
    );
    assert_eq!(
        error_of(&obj("self.x"), v).unwrap(),
        "cel expression must evaluate to a bool"
    );
    assert_eq!(
        error_of(&obj("1 && true"), v).unwrap(),
        "compilation failed: ERROR: <input>:1:1: expected type 'bool' but found 'int'\n | 1 && true\n | ^"
    );
    assert!(
        error_of(&obj("nope == 1"), v)
            .unwrap()
            .contains("undeclared reference to 'nope' (in container '')")
    );
    assert!(
        error_of(&obj("self.s.foo()"), v)
            .unwrap()
            .contains("undeclared reference to 'foo' (in container '')")
    );
    assert!(
        error_of(&obj("self.s.startsWith(1)"), v)
            .unwrap()
            .contains("found no matching overload for 'startsWith' applied to 'string.(int)'")
    );
    assert!(error_of(&obj("self.x.all(e, true)"), v)
        .unwrap()
        .contains("expression of type 'int' cannot be range of a comprehension (must be list, map, or dynamic)"));
    assert!(
        error_of(&obj("[1, 'a'].size() == 2"), v)
            .unwrap()
            .contains("expected type 'int' but found 'string'")
    );
    assert!(
        error_of(&obj("duration('1x') > duration('1s')"), v)
            .unwrap()
            .contains("invalid duration argument")
    );
    assert!(
        error_of(&obj("self.s.matches('[')"), v)
            .unwrap()
            .contains("invalid matches argument")
    );
    assert!(
        error_of(
            &obj("type(self.x) == int && ['a'].exists(e, e == self.s)"),
            v
        )
        .is_none()
    );
}

#[test]
fn string_format_calls_are_checked_statically() {
    let obj = |rule: &str| {
        json!({"type": "object", "properties": {"x": {"type": "integer"}, "s": {"type": "string"},
            "m": {"type": "object", "additionalProperties": {"type": "string"}}},
            "x-kubernetes-validations": rules(rule)})
    };
    let v = CompatibilityVersion::CURRENT;
    let err = |rule: &str| error_of(&obj(rule), v);
    assert_eq!(
        err("'%d'.format(['a']) == ''").unwrap(),
        "compilation failed: ERROR: <input>:1:14: error during formatting: decimal clause can only be used on integers, was given string\n | '%d'.format(['a']) == ''\n | .............^"
    );
    assert_eq!(
        err("'%s %s'.format(['abc', 'def', 'ghi']) == ''").unwrap(),
        "compilation failed: ERROR: <input>:1:15: too many arguments supplied to string.format (expected 2, got 3)\n | '%s %s'.format(['abc', 'def', 'ghi']) == ''\n | ..............^"
    );
    assert!(
        err("'%s %s'.format(['abc']) == ''")
            .unwrap()
            .contains(": index 1 out of range\n")
    );
    assert!(
        err("'filler %'.format([]) == ''")
            .unwrap()
            .contains(": unexpected end of string\n")
    );
    assert!(
        err("'%j'.format([1]) == ''").unwrap().contains(
            ": could not parse formatting clause: unrecognized formatting clause \"j\"\n"
        )
    );
    assert!(err("'%.3'.format([1.0]) == ''").unwrap().contains(
        ": could not parse formatting clause: error while parsing precision: could not find end of precision specifier\n"
    ));
    assert!(err("'%.f'.format([1.0]) == ''").unwrap().contains(
        "error while converting precision to integer: strconv.Atoi: parsing \"\": invalid syntax\n"
    ));
    // %s recurses into list and map literals.
    assert!(
        err("'%s'.format([[1, self.m]]) == ''").is_none(),
        "maps and lists format with %s"
    );
    assert!(
        err("'%s'.format([[optional.of(1)]]) == ''")
            .unwrap()
            .contains("was given optional_type")
    );
    // Each clause's types; dyn passes; the receiver must be a literal.
    for ok in [
        "'%d %x %X %o %b'.format([self.x, self.s, self.x, 1u, true]) == ''",
        "'%.2f %e %f'.format([1.5, 2.0, 'NaN']) == ''",
        "'%%d %s'.format([null]) == ''",
        "'%d'.format([dyn('a')]) == ''",
        "self.s.format(['a', 'b']) == ''",
        "'%d'.format(['a'].map(e, e)) == ''",
    ] {
        assert_eq!(err(ok), None, "{ok}");
    }
    for (bad, msg) in [
        (
            "'%f'.format([1]) == ''",
            "fixed-point clause can only be used on doubles, was given int",
        ),
        (
            "'%e'.format([true]) == ''",
            "scientific clause can only be used on doubles, was given bool",
        ),
        (
            "'%b'.format([1.0]) == ''",
            "only integers and bools can be formatted as binary, was given double",
        ),
        (
            "'%x'.format([1.0]) == ''",
            "only integers, byte buffers, and strings can be formatted as hex, was given double",
        ),
        (
            "'%o'.format(['a']) == ''",
            "octal clause can only be used on integers, was given string",
        ),
    ] {
        assert!(err(bad).unwrap_or_default().contains(msg), "{bad}");
    }
    // Before 1.29 there is no string.format at all.
    assert!(
        error_of(
            &obj("'%d'.format(['a']) == ''"),
            CompatibilityVersion::parse("1.28").unwrap()
        )
        .unwrap()
        .contains("undeclared reference to 'format'")
    );
}

#[test]
fn libraries_follow_the_compatibility_version() {
    let s = |rule: &str| json!({"type": "string", "x-kubernetes-validations": rules(rule)});
    let v = |minor| CompatibilityVersion::new(1, minor);
    for (rule, introduced) in [
        ("isIP(self)", 30),
        ("format.dns1123Label().validate(self).hasValue()", 31),
        ("[1].all(i, v, v > i)", 32),
        ("isSemver(self)", 33),
        ("[3, 1].sort() == [1, 3]", 34),
        ("sets.contains([self], [self])", 29),
        (
            "optional.of(self).hasValue() && quantity(self).isInteger()",
            28,
        ),
    ] {
        assert!(
            error_of(&s(rule), v(introduced)).is_none(),
            "{rule} at 1.{introduced}: {:?}",
            error_of(&s(rule), v(introduced))
        );
        assert!(
            error_of(&s(rule), v(introduced - 1)).is_some(),
            "{rule} before 1.{introduced}"
        );
    }
    // quantity is a struct type: no field selection, and sign is global
    assert!(error_of(&s("sign(quantity(self)) == 1"), v(34)).is_none());
    assert!(error_of(&s("quantity(self).sign() == 1"), v(34)).is_some());
}

#[test]
fn optionals_and_old_self() {
    let s = json!({"type": "object", "properties": {"a": {"type": "string"}},
        "x-kubernetes-validations": [{"rule": "self.?a.orValue('') == oldSelf.?a.orValue('')"}]});
    let r = compile(&s, CompatibilityVersion::CURRENT);
    assert!(r.error.is_none(), "{:?}", r.error);
    assert!(r.uses_old_self);
    let s = json!({"type": "string",
        "x-kubernetes-validations": [{"rule": "oldSelf.optMap(o, o == self).orValue(true)", "optionalOldSelf": true}]});
    let r = compile(&s, CompatibilityVersion::CURRENT);
    assert!(r.error.is_none(), "{:?}", r.error);
    assert!(r.uses_old_self);
}

#[test]
fn deep_expressions_are_bounded() {
    let s = |rule: String| json!({"type": "integer", "x-kubernetes-validations": [{"rule": rule}]});
    let deep = format!("{}self{} > 0", "(".repeat(200), ")".repeat(200));
    assert!(error_of(&s(deep), CompatibilityVersion::CURRENT).is_none());
    let chain = format!("{} > 0", vec!["self"; 200].join(" + "));
    assert!(error_of(&s(chain), CompatibilityVersion::CURRENT).is_none());
    let too_deep = format!("{}self{} > 0", "(".repeat(300), ")".repeat(300));
    assert_eq!(
        error_of(&s(too_deep), CompatibilityVersion::CURRENT).unwrap(),
        "compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250"
    );
}

#[test]
fn parse_errors_render_as_cel_go() {
    use crate::cel::compile::{display_issues, parse_versioned};
    let v = CompatibilityVersion::CURRENT;
    let e = display_issues("1 +", &parse_versioned("1 +", v).err().unwrap());
    assert!(e.starts_with("ERROR: <input>:1:4: Syntax error:"), "{e}");
    assert!(parse_versioned("self.all(x, x > 1)", v).is_ok());
    assert!(parse_versioned("self.?a.orValue(1)", v).is_ok());
    let src = "a +\n)";
    let e = display_issues(src, &parse_versioned(src, v).err().unwrap());
    assert!(e.starts_with("ERROR: <input>:2:1: Syntax error:"), "{e}");
    assert!(e.contains("\n | )\n | ^"), "{e}");
    let chain = format!("a{}", ".b".repeat(300));
    assert_eq!(
        display_issues(&chain, &parse_versioned(&chain, v).err().unwrap()),
        "ERROR: <input>:-1:0: max recursion depth exceeded"
    );
    let nested = format!("{}1{}", "(".repeat(300), ")".repeat(300));
    assert_eq!(
        display_issues(&nested, &parse_versioned(&nested, v).err().unwrap()),
        "ERROR: <input>:-1:0: expression recursion limit exceeded: 250"
    );
    // wide characters are marked with wide dots
    let src = "'é' + 1 == 2";
    let s = json!({"type": "integer", "x-kubernetes-validations": rules(src)});
    let err = error_of(&s, v).unwrap();
    assert!(
        err.ends_with(" | '\u{e9}' + 1 == 2\n | .\u{ff0e}..^"),
        "{err}"
    );
}
