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

/// The inverse of [`escape`]: the property name a CEL identifier stands for.
pub fn unescape(ident: &str) -> String {
    if let Some(word) = ident
        .strip_prefix("__")
        .and_then(|s| s.strip_suffix("__"))
        .filter(|w| RESERVED.contains(w))
    {
        return word.to_string();
    }
    let mut out = String::with_capacity(ident.len());
    let mut rest = ident;
    while let Some(pos) = rest.find("__") {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        let (rep, len) = [
            ("__underscores__", "__"),
            ("__dot__", "."),
            ("__dash__", "-"),
            ("__slash__", "/"),
        ]
        .iter()
        .find(|(seq, _)| tail.starts_with(seq))
        .map_or(("__", 2), |(seq, rep)| (*rep, seq.len()));
        out.push_str(rep);
        rest = &tail[len..];
    }
    out.push_str(rest);
    out
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
                assert_eq!(unescape(w), name);
            }
        }
    }
}
