//! Go's regexp syntax parser, a mirror of `regexp/syntax/parse.go` (see the crate
//! docs): it accepts and rejects exactly what Go does, with Go's error texts, and
//! builds Go's parse tree under Go's limits.
//!
//! Its layers, each using only those listed before it: [`tree`] (the parse tree),
//! [`parser`] (the parser's state and primitives), [`alternation`] and [`class`]
//! (stack reduction; escapes and classes), [`main_loop`] (the entry point,
//! [`parse_pattern`]).

mod alternation;
mod class;
mod main_loop;
mod parser;
mod tree;

pub(crate) use main_loop::parse_pattern;
pub(crate) use tree::{FOLD_CASE, NodeId, Op, Tree};

#[cfg(test)]
mod tests {
    use crate::test_support::{assert_go, go_result, re};
    use crate::{ErrorCode, GoRegexError, compile, compile_bytes};

    /// Expected strings as printed by Go's `regexp.Compile(p).Error()`.
    const GO_ERRORS: &[(&str, &str)] = &[
        // Parentheses (parse_test.go's invalidRegexps and more).
        ("(abc", "missing closing ): `(abc`"),
        ("(", "missing closing ): `(`"),
        (")", "unexpected ): `)`"),
        ("a)", "unexpected ): `a)`"),
        ("(a))", "unexpected ): `(a))`"),
        ("(a|b|", "missing closing ): `(a|b|`"),
        ("a|b|)", "unexpected ): `a|b|)`"),
        ("(a)(b", "missing closing ): `(a)(b`"),
        ("a(b)c)d", "unexpected ): `a(b)c)d`"),
        ("(?P<name>a", "missing closing ): `(?P<name>a`"),
        // Brackets.
        ("[a-z", "missing closing ]: `[a-z`"),
        ("([a-z)", "missing closing ]: `[a-z)`"),
        ("([a-z]))", "unexpected ): `([a-z]))`"),
        ("[a", "missing closing ]: `[a`"),
        ("[]", "missing closing ]: `[]`"),
        ("[^]", "missing closing ]: `[^]`"),
        ("[]a", "missing closing ]: `[]a`"),
        (r"[a\\", r"missing closing ]: `[a\\`"),
        ("[[:alpha:]", "missing closing ]: `[[:alpha:]`"),
        // Class ranges and names.
        ("[a-Z]", "invalid character class range: `a-Z`"),
        ("(?i)[a-Z]", "invalid character class range: `a-Z`"),
        ("[z-a]", "invalid character class range: `z-a`"),
        ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
        (r"\pX", r"invalid character class range: `\pX`"),
        (r"\p{Foo}", r"invalid character class range: `\p{Foo}`"),
        (r"[\p{Foo}]", r"invalid character class range: `\p{Foo}`"),
        (r"\p", r"invalid character class range: `\p`"),
        (r"\p{Greek", r"invalid character class range: `\p{Greek`"),
        (r"\p{}", r"invalid character class range: `\p{}`"),
        // Repeat counts.
        ("x{1001}", "invalid repeat count: `{1001}`"),
        ("x{9876543210}", "invalid repeat count: `{9876543210}`"),
        ("x{2,1}", "invalid repeat count: `{2,1}`"),
        ("x{1,9876543210}", "invalid repeat count: `{1,9876543210}`"),
        ("a{100000}", "invalid repeat count: `{100000}`"),
        ("a{100000,}", "invalid repeat count: `{100000,}`"),
        (
            "((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}){2})",
            "invalid repeat count: `{2}`",
        ),
        ("(?:[a-z]{4}){0,251}", "invalid repeat count: `{0,251}`"),
        ("(a{1000}){1000}", "invalid repeat count: `{1000}`"),
        ("(?:a{1000}){1000}", "invalid repeat count: `{1000}`"),
        // Nested repetition operators.
        (
            "x{1000}{1000}",
            "invalid nested repetition operator: `{1000}{1000}`",
        ),
        ("a**", "invalid nested repetition operator: `**`"),
        ("a*+", "invalid nested repetition operator: `*+`"),
        ("a+?*", "invalid nested repetition operator: `+?*`"),
        ("a??+", "invalid nested repetition operator: `??+`"),
        ("a{1}*", "invalid nested repetition operator: `{1}*`"),
        ("a{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
        // Missing repetition argument.
        ("**", "missing argument to repetition operator: `*`"),
        ("*", "missing argument to repetition operator: `*`"),
        ("+a", "missing argument to repetition operator: `+`"),
        ("(*)", "missing argument to repetition operator: `*`"),
        ("a|*", "missing argument to repetition operator: `*`"),
        ("(?:?)", "missing argument to repetition operator: `?`"),
        ("{1}", "missing argument to repetition operator: `{1}`"),
        (
            "a|{2,3}",
            "missing argument to repetition operator: `{2,3}`",
        ),
        (r"\Q\E*", "missing argument to repetition operator: `*`"),
        // Escapes.
        (r"\Z", r"invalid escape sequence: `\Z`"),
        (r"\C", r"invalid escape sequence: `\C`"),
        (r"\8", r"invalid escape sequence: `\8`"),
        (r"\1", r"invalid escape sequence: `\1`"),
        (r"\x", r"invalid escape sequence: `\x`"),
        (r"\xG1", r"invalid escape sequence: `\xG1`"),
        (r"\x{}", r"invalid escape sequence: `\x{}`"),
        (r"\x{110000}", r"invalid escape sequence: `\x{110000`"),
        (r"\x{41", r"invalid escape sequence: `\x{41`"),
        (r"\e", r"invalid escape sequence: `\e`"),
        (r"\é", r"invalid escape sequence: `\é`"),
        (r"\E", r"invalid escape sequence: `\E`"),
        ("\\", "trailing backslash at end of expression: ``"),
        ("a\\", "trailing backslash at end of expression: ``"),
        // Named captures (Go 1.22+ also accepts `(?<name>`).
        ("(?P<name", "invalid named capture: `(?P<name`"),
        ("(?P<x y>a)", "invalid named capture: `(?P<x y>`"),
        ("(?P<>a)", "invalid named capture: `(?P<>`"),
        ("(?<name", "invalid named capture: `(?<name`"),
        ("(?<x y>a)", "invalid named capture: `(?<x y>`"),
        ("(?<>a)", "invalid named capture: `(?<>`"),
        ("(?<=a)b", "invalid named capture: `(?<=a)b`"),
        ("(?<name>", "missing closing ): `(?<name>`"),
        // Perl syntax.
        ("(?<", "invalid or unsupported Perl syntax: `(?<`"),
        ("(?=a)", "invalid or unsupported Perl syntax: `(?=`"),
        ("(?!a)", "invalid or unsupported Perl syntax: `(?!`"),
        ("(?", "invalid or unsupported Perl syntax: `(?`"),
        ("(?i", "invalid or unsupported Perl syntax: `(?i`"),
        ("(?-)", "invalid or unsupported Perl syntax: `(?-)`"),
        ("(?i-)", "invalid or unsupported Perl syntax: `(?i-)`"),
        ("(?--i)", "invalid or unsupported Perl syntax: `(?--`"),
        ("(?x)", "invalid or unsupported Perl syntax: `(?x`"),
        ("(?P", "invalid or unsupported Perl syntax: `(?P`"),
        ("(?P=name)", "invalid or unsupported Perl syntax: `(?P`"),
        ("(?#c)", "invalid or unsupported Perl syntax: `(?#`"),
        (
            "(?i)(?P<n>x)(?Z)",
            "invalid or unsupported Perl syntax: `(?Z`",
        ),
    ];

    #[test]
    fn go_error_strings() {
        for (pattern, want) in GO_ERRORS {
            let want = format!("error parsing regexp: {want}");
            assert_eq!(go_result(pattern), want, "pattern {pattern:?}");
        }
        assert!(GO_ERRORS.len() >= 40);
    }

    #[test]
    fn accepted_like_go() {
        for pattern in [
            "",
            "|",
            "(|)",
            "a||b",
            "()",
            "[]a]",
            "[^]a]",
            "[a-]",
            "[-a]",
            "[a-b-c]",
            r"[a-\x{100}-a]",
            "x{2}{,3}",
            "x{,5}",
            "x{01}",
            "x{ 1}",
            "a{",
            "a{1,",
            "{",
            "}",
            "a{1,2}}",
            "x{0}",
            "x{1000}",
            "x{1000,}",
            "x{0,1000}",
            "(?:[a-z]{4}){0,250}",
            "((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}))",
            r"\Qabc\E",
            r"\Q*+?{[\E",
            r"\Q\\E",
            r"\Q",
            r"\Qab",
            "(?)",
            "(?i)(?-i)a",
            "(?i-i)",
            "(?imsU-imsU:a)",
            "(?P<name>a)",
            "(?<name>a)",
            "(?P<a>x)(?P<a>y)",
            "(?P<0abc>x)",
            r"\0",
            r"\08",
            r"\12",
            r"\123",
            r"\777",
            r"\x7f",
            r"\x{10FFFF}",
            r"\x{D800}",
            r"\_",
            r"\-",
            r"[\d\D]",
            r"[^\d\D]",
            "[:alpha:]",
            "[[:alpha:]]",
            "[[:^alpha:]]",
            "[[:word:]]",
            r"\pN",
            r"\p{Greek}",
            r"\P{^Greek}",
            r"\p{^Lu}",
            r"\p{Any}",
            r"\p{Han}{1000}",
            "^*",
            "$+",
            r"\b*",
            r"\z\A",
            "(?U)a*",
        ] {
            assert_eq!(go_result(pattern), "OK", "pattern {pattern:?}");
        }
    }

    #[test]
    fn nested_repeat_limits_fail_fast() {
        assert_eq!(
            go_result("(a{1000}){1000}"),
            "error parsing regexp: invalid repeat count: `{1000}`"
        );
        assert_eq!(
            go_result("((a{1000}){1000}){1000}"),
            "error parsing regexp: invalid repeat count: `{1000}`"
        );
    }

    #[test]
    fn deep_nesting_fails_without_overflow() {
        for pattern in [
            format!("{}{}", "(".repeat(10_000), ")".repeat(10_000)),
            format!("{}{}", "(?:".repeat(10_000), ")*".repeat(10_000)),
            format!("{}{}", "(".repeat(1000), ")".repeat(1000)),
            format!("{}{}", "(?:".repeat(1000), ")*".repeat(1000)),
        ] {
            assert_go(
                &pattern,
                &format!("error parsing regexp: expression nests too deeply: `{pattern}`"),
            );
        }
        // Just within Go's limit.
        for pattern in [
            format!("{}{}", "(".repeat(999), ")".repeat(999)),
            format!("{}{}", "(?:".repeat(999), ")*".repeat(999)),
            format!("({})", "|".repeat(12_345)),
        ] {
            assert_go(&pattern, "OK");
        }
        let deep = re(&format!("{}a{}", "(?:".repeat(999), ")*".repeat(999)));
        assert!(deep.is_match("aaa"));
        let alternations = format!("{}c{}", "(?:a(?:b|".repeat(499), "))".repeat(499));
        assert!(re(&alternations).is_match("xab"));
        assert!(re(&alternations).is_match(&format!("{}c", "a".repeat(499))));
        assert!(!re(&alternations).is_match("c"));
        let too_deep = format!("{}c{}", "(?:a(?:b|".repeat(800), "))".repeat(800));
        assert_go(
            &too_deep,
            &format!("error parsing regexp: expression nests too deeply: `{too_deep}`"),
        );
    }

    #[test]
    fn unmatched_paren_runs_are_fast() {
        // Open parens alone add no height: Go reports the missing ).
        for opens in [
            "(".repeat(10_000),
            format!("{}a", "(".repeat(100_000)),
            "(?:".repeat(5000),
        ] {
            assert_go(
                &opens,
                &format!("error parsing regexp: missing closing ): `{opens}`"),
            );
        }
        let closes = ")".repeat(10_000);
        assert_go(
            &closes,
            &format!("error parsing regexp: unexpected ): `{closes}`"),
        );
    }

    #[test]
    fn size_limits() {
        // Go's calcSize: (xx?){1000} is 5000; 671 of them fit into maxSize.
        let too_large = "(xx?){1000}".repeat(672);
        assert_go(
            &too_large,
            &format!("error parsing regexp: expression too large: `{too_large}`"),
        );
        let fits = "(xx?){1000}".repeat(671);
        assert!(matches!(
            compile(&fits),
            Ok(_) | Err(GoRegexError::Unsupported { .. })
        ));
        let nested = format!("({}){{1000}}", "(xx?)".repeat(1000));
        assert_go(
            &nested,
            &format!("error parsing regexp: expression too large: `{nested}`"),
        );
        let long = "(xx?){1000}".repeat(1000);
        assert_go(
            &long,
            &format!("error parsing regexp: expression too large: `{long}`"),
        );
        // Too many runes in classes.
        let runes = r"\pL".repeat(27_000);
        assert_go(
            &runes,
            &format!("error parsing regexp: expression too large: `{runes}`"),
        );
        // Accepted by Go, but beyond the regex crate's size limit.
        let big = "[a-z]{1000}".repeat(3000);
        assert!(matches!(
            compile(&big),
            Err(GoRegexError::Unsupported { .. })
        ));
    }

    #[test]
    fn invalid_utf8() {
        let cases: &[(&[u8], &str)] = &[
            (b"\xff", "\u{FFFD}"),
            (b"a\xffb", "\u{FFFD}b"),
            (b"[\xff]", "\u{FFFD}]"),
            (b"\\\xff", "\u{FFFD}"),
            (b"\\Q\xff\\Eb", "\u{FFFD}"),
            (b"(?P<\xff>a)", "\u{FFFD}"),
            (b"(?P<a\xff", "\u{FFFD}"),
            (b"\\p{\xff}", "\u{FFFD}"),
            (b"\xed\xa0\x80", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        ];
        for (pattern, expr) in cases {
            match compile_bytes(pattern) {
                Err(GoRegexError::Syntax { code, expr: got }) => {
                    assert_eq!(code, ErrorCode::InvalidUtf8, "{pattern:?}");
                    assert_eq!(&got, expr, "{pattern:?}");
                }
                other => panic!("{pattern:?}: {other:?}"),
            }
        }
        // An earlier error wins, as in Go.
        assert_eq!(
            compile_bytes(b"\\Z\xff").map(|_| ()),
            Err(GoRegexError::Syntax {
                code: ErrorCode::InvalidEscape,
                expr: r"\Z".to_owned()
            })
        );
    }
}
