//! Rust names for schema names: type names (UpperCamelCase), field names
//! (snake_case, raw identifiers for keywords) and enum variants, made
//! unique within their scope.

use std::collections::HashSet;

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Keywords of every edition (strict and reserved).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "union", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super", "_"];

/// Type names that would shadow prelude items or the names the generated
/// code and derives rely on.
const RESERVED_TYPES: &[&str] = &[
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "Vec",
    "String",
    "Box",
    "ToString",
    "ToOwned",
    "Default",
    "Clone",
    "Copy",
    "Send",
    "Sync",
    "Sized",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "Iterator",
    "IntoIterator",
    "Extend",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "Debug",
    "Serialize",
    "Deserialize",
    "StructuralSchema",
    "ObjectMeta",
    "Self",
    "Value",
    "Map",
];

/// Whether `s` is a Rust keyword.
pub fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

/// Keeps ASCII letters, digits and `_`; other characters become word
/// breaks. Empty or digit-first results are fixed by the callers.
fn words(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The UpperCamelCase form of a schema name (`fooBar` → `FooBar`,
/// `x-y` → `XY`); `fallback` when nothing of `s` is usable.
pub fn type_name(s: &str, fallback: &str) -> String {
    let mut n = words(s).to_upper_camel_case();
    if n.is_empty() {
        n = fallback.to_string();
    }
    // `Type1st`: an underscore next to a letter is not UpperCamelCase
    // (rustc's `non_camel_case_types`).
    if n.starts_with(|c: char| c.is_ascii_digit()) {
        n.insert_str(0, fallback);
    }
    if RESERVED_TYPES.contains(&n.as_str()) {
        n.push_str(fallback);
    }
    n
}

/// The snake_case field name of a property (`hostIP` → `host_ip`), as a
/// valid identifier (`r#type` for keywords, `self_` where a raw identifier
/// is not allowed, `_1x` for a digit-first name, `field` for nothing).
pub fn field_name(s: &str) -> String {
    let mut n = words(s).to_snake_case();
    if n.is_empty() {
        n = "field".to_string();
    }
    if n.starts_with(|c: char| c.is_ascii_digit()) {
        n.insert(0, '_');
    }
    if NOT_RAW.contains(&n.as_str()) {
        n.push('_');
    } else if is_keyword(&n) {
        n.insert_str(0, "r#");
    }
    n
}

/// The variant name of a string enum value (`Always`, `ifNotPresent` →
/// `IfNotPresent`, `` → `Empty`, `301` → `V301`).
pub fn variant_name(s: &str) -> String {
    let mut n = words(s).to_upper_camel_case();
    if n.is_empty() {
        n = if s.is_empty() { "Empty" } else { "Value" }.to_string();
    }
    if n.starts_with(|c: char| c.is_ascii_digit()) {
        n.insert(0, 'V');
    }
    if n == "Self" {
        n.push('_');
    }
    n
}

/// The singular of an English plural, for the item type of an array
/// property (`containers` → `container`, `policies` → `policy`,
/// `addresses` → `address`); words that do not look plural are kept.
pub fn singular(s: &str) -> String {
    let lower = s.to_ascii_lowercase();
    if lower.ends_with("ies") && s.len() > 3 {
        return format!("{}y", &s[..s.len() - 3]);
    }
    for suffix in ["sses", "shes", "ches", "xes", "zes"] {
        if lower.ends_with(suffix) {
            return s[..s.len() - 2].to_string();
        }
    }
    if lower.ends_with('s')
        && !lower.ends_with("ss")
        && !lower.ends_with("us")
        && !lower.ends_with("is")
        && s.len() > 1
    {
        return s[..s.len() - 1].to_string();
    }
    s.to_string()
}

/// Makes names unique in one scope by appending a number.
#[derive(Default, Debug)]
pub struct Scope {
    used: HashSet<String>,
}

impl Scope {
    /// Reserves `name` if it is free.
    pub fn try_claim(&mut self, name: &str) -> bool {
        self.used.insert(name.to_string())
    }

    /// Reserves `name`, or `name2`, `name3`, ... (for raw identifiers the
    /// number goes after the keyword: `r#type` → `type2`).
    pub fn claim(&mut self, name: &str) -> String {
        if self.try_claim(name) {
            return name.to_string();
        }
        let base = name.strip_prefix("r#").unwrap_or(name);
        let sep = if base.ends_with(|c: char| c.is_ascii_digit()) {
            "_"
        } else {
            ""
        };
        for i in 2.. {
            let n = format!("{base}{sep}{i}");
            if self.try_claim(&n) {
                return n;
            }
        }
        unreachable!("an unbounded range always yields a free name")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(type_name("containerPort", "T"), "ContainerPort");
        assert_eq!(type_name("x-kubernetes", "T"), "XKubernetes");
        assert_eq!(type_name("", "Type"), "Type");
        assert_eq!(type_name("3d", "T"), "T3d");
        assert_eq!(type_name("option", "Spec"), "OptionSpec");
        assert_eq!(field_name("hostIP"), "host_ip");
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("self"), "self_");
        assert_eq!(field_name("$ref"), "r#ref");
        assert_eq!(field_name("_"), "field");
        assert_eq!(field_name("1st"), "_1st");
        assert_eq!(variant_name("IfNotPresent"), "IfNotPresent");
        assert_eq!(variant_name("ifNotPresent"), "IfNotPresent");
        assert_eq!(variant_name(""), "Empty");
        assert_eq!(variant_name("*"), "Value");
        assert_eq!(variant_name("301"), "V301");
        assert_eq!(singular("containers"), "containers".trim_end_matches('s'));
        assert_eq!(singular("policies"), "policy");
        assert_eq!(singular("addresses"), "address");
        assert_eq!(singular("status"), "status");
        assert_eq!(singular("ingress"), "ingress");
    }

    #[test]
    fn scopes() {
        let mut s = Scope::default();
        assert_eq!(s.claim("a"), "a");
        assert_eq!(s.claim("a"), "a2");
        assert_eq!(s.claim("r#type"), "r#type");
        assert_eq!(s.claim("r#type"), "type2");
        assert_eq!(s.claim("v1"), "v1");
        assert_eq!(s.claim("v1"), "v1_2");
    }
}
