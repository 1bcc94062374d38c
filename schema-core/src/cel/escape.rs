//! Property names as CEL identifiers (`k8s.io/apiserver/pkg/cel/escaping.go`).

/// The CEL lexer's reserved words; a property named like one of them is
/// reached as `__<word>__`.
pub const RESERVED: [&str; 21] = [
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// Escapes a property name into the CEL identifier a rule uses to reach it,
/// or `None` when the name is not reachable (it does not match
/// `[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*`). `__` becomes `__underscores__`, `.`
/// `__dot__`, `-` `__dash__`, `/` `__slash__`, and a reserved word `__<word>__`.
pub fn escape(name: &str) -> Option<String> {
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut chars = name.chars();
    let first = chars.next()?;
    let ok_first = first.is_ascii_alphabetic() || matches!(first, '_' | '.' | '-' | '/');
    if !ok_first || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | '/'))
    {
        return None;
    }
    let mut out = String::with_capacity(name.len() + 8);
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'_' if bytes.get(i + 1) == Some(&b'_') => {
                out.push_str("__underscores__");
                i += 2;
                continue;
            }
            b'.' => out.push_str("__dot__"),
            b'-' => out.push_str("__dash__"),
            b'/' => out.push_str("__slash__"),
            b => out.push(char::from(b)),
        }
        i += 1;
    }
    Some(out)
}

/// The inverse of [`escape`]: the property name a CEL identifier stands
/// for. An identifier with an invalid escape sequence (which no escaped
/// property name has) is returned as it is; see [`unescape_name`].
pub fn unescape(ident: &str) -> String {
    unescape_name(ident).unwrap_or_else(|| ident.to_string())
}

/// `Unescape`: the property name a CEL identifier stands for, or `None`
/// for an invalid escape sequence. Each `__<x>__` (`__` around one or more
/// non-underscores) is replaced: the four escapes, or a reserved word when
/// it is the whole identifier.
pub fn unescape_name(ident: &str) -> Option<String> {
    let mut out = String::with_capacity(ident.len());
    let mut rest = ident;
    while let Some(pos) = rest.find("__") {
        // leftmost match of `__[^_]+__` starting at `pos` or later
        let tail = &rest[pos..];
        let body = &tail[2..];
        let n = body.find('_').unwrap_or(body.len());
        if n == 0 || !body[n..].starts_with("__") {
            // no match here: keep one character and look again
            let c = tail.chars().next().map_or(1, char::len_utf8);
            out.push_str(&rest[..pos + c]);
            rest = &rest[pos + c..];
            continue;
        }
        let contents = &body[..n];
        out.push_str(&rest[..pos]);
        let whole = pos == 0 && body.len() == n + 2 && out.is_empty();
        match contents {
            "underscores" => out.push_str("__"),
            "dot" => out.push('.'),
            "dash" => out.push('-'),
            "slash" => out.push('/'),
            w if RESERVED.contains(&w) && whole => out.push_str(w),
            _ => return None,
        }
        rest = &body[n + 2..];
    }
    out.push_str(rest);
    Some(out)
}

/// Whether a field selection `name` may reach a property escaped as
/// `__<name>__`: from compatibility version 1.31 the API server's type
/// provider recognizes reserved words as field names
/// (`SetRecognizeKeywordAsFieldName`), so both `self.if` and `self.__if__`
/// reach the property `if`; before, only the escaped form does.
pub fn keyword_field_fallback(name: &str) -> Option<String> {
    RESERVED.contains(&name).then(|| format!("__{name}__"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_the_api_server_does() {
        for (name, want) in [
            ("foo", Some("foo")),
            ("f/2", Some("f__slash__2")),
            ("a.b-c", Some("a__dot__b__dash__c")),
            ("a__b", Some("a__underscores__b")),
            ("namespace", Some("__namespace__")),
            ("if", Some("__if__")),
            ("f@2", None),
            ("2f", None),
            ("", None),
        ] {
            assert_eq!(escape(name).as_deref(), want, "{name}");
            if let Some(w) = want {
                assert_eq!(unescape_name(w).as_deref(), Some(name));
                assert_eq!(unescape(w), name);
            }
        }
    }

    #[test]
    fn unescapes_as_the_api_server_does() {
        assert_eq!(unescape_name("a__b").as_deref(), Some("a__b"));
        assert_eq!(unescape_name("a___dot__").as_deref(), Some("a_."));
        assert_eq!(unescape_name("x__if__"), None);
        assert_eq!(unescape("x__if__"), "x__if__");
        assert_eq!(unescape_name("__foo__"), None);
        assert_eq!(unescape_name("__in__").as_deref(), Some("in"));
        assert_eq!(
            keyword_field_fallback("namespace").as_deref(),
            Some("__namespace__")
        );
        assert_eq!(keyword_field_fallback("self"), None);
    }
}
