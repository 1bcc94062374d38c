//! Guesses at common CEL rules, for the generator to satisfy them without
//! solving them: the first path a rule asks `has()` of, the first literal of
//! `self in [...]`, an example for the conversion a rule applies.

use serde_json::Value;

/// The node's CEL rules.
pub(super) fn rules(node: &Value) -> impl Iterator<Item = &str> {
    node["x-kubernetes-validations"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["rule"].as_str())
}

/// The path below `self` that a rule first asks `has()` of (not negated):
/// `a.b` of `has(self.a.b)`. Not for conditionals (`?:`), whose first
/// `has()` is usually the condition.
pub(super) fn first_has(rule: &str) -> Option<&str> {
    if rule.contains('?') {
        return None;
    }
    // Which open parentheses are negated groups (`!(`).
    let mut groups: Vec<bool> = Vec::new();
    let mut last = ' ';
    for (i, c) in rule.char_indices() {
        if rule[i..].starts_with("has(self.") {
            let negated = last == '!' || groups.contains(&true);
            let after = &rule[i + "has(self.".len()..];
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(after.len());
            if !negated && end > 0 {
                return Some(&after[..end]);
            }
        }
        match c {
            '(' => groups.push(last == '!'),
            ')' => {
                groups.pop();
            }
            _ => {}
        }
        if !c.is_whitespace() {
            last = c;
        }
    }
    None
}

/// A string that a rule on a string is likely to accept: the first literal
/// of `self in ['a', ...]`, or an example for the conversion it applies.
pub(super) fn rule_example(rule: &str) -> Option<&'static str> {
    let conversions = [
        ("duration(self)", "10s"),
        ("timestamp(self)", "2024-01-01T00:00:00Z"),
        ("quantity(self)", "1Gi"),
        ("isQuantity(self)", "1Gi"),
        ("url(self)", "https://example.com/path"),
        ("isURL(self)", "https://example.com/path"),
        ("cidr(self)", "10.0.0.0/8"),
        ("isCIDR(self)", "10.0.0.0/8"),
        ("ip(self)", "10.0.0.1"),
        ("isIP(self)", "10.0.0.1"),
    ];
    conversions
        .iter()
        .find(|(f, _)| rule.contains(f))
        .map(|(_, e)| *e)
}

/// The first string literal of a rule of the form `self in ['a', ...]`.
pub(super) fn rule_literal(rule: &str) -> Option<String> {
    let at = rule.find("self in [")?;
    let before = rule[..at].trim_end();
    if before.ends_with('!') || before.ends_with("!(") {
        return None;
    }
    let rest = &rule[at + "self in [".len()..];
    let quote = rest
        .trim_start()
        .chars()
        .next()
        .filter(|c| matches!(c, '\'' | '"'))?;
    let body = &rest.trim_start()[1..];
    Some(body[..body.find(quote)?].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cel_guesses() {
        assert_eq!(
            first_has("!has(self.a) || !(has(self.x) && has(self.y)) || has(self.b_1.c)"),
            Some("b_1.c")
        );
        assert_eq!(first_has("self.size() > 0"), None);
        assert_eq!(first_has("has(self.a) ? has(self.b) : true"), None);
        assert_eq!(
            rule_literal("self in ['HTTP', 'HTTPS']").as_deref(),
            Some("HTTP")
        );
        assert_eq!(
            rule_example("duration(self) > duration('1ms')"),
            Some("10s")
        );
    }
}
