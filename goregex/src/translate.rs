//! Translation of Go's parse tree to an equivalent `regex` crate pattern, with Go's
//! semantics made explicit (see the crate docs).

use crate::char_class::{pairs, scalar_parts};
use crate::error::GoRegexError;
use crate::parse::{FOLD_CASE, NodeId, Op, Tree};

/// Longest `regex` crate pattern the translation may produce.
const MAX_TRANSLATED_LEN: usize = 8 << 20;

/// Bound on the recursion of the translation (Go's trees are at most 1000 high).
const MAX_EMIT_DEPTH: usize = 4000;

/// Matches nothing.
const NEVER: &str = r"[^\x{0}-\x{10FFFF}]";

/// Where a node is printed: what it must bind tighter than.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// An alternation branch (or the whole pattern).
    Alt,
    /// An element of a concatenation.
    Concat,
    /// The operand of a repetition.
    Atom,
}

/// The `regex` crate pattern equivalent to `tree`.
pub(crate) fn translate(tree: &Tree) -> Result<String, GoRegexError> {
    let mut out = String::new();
    tree.emit(tree.root, Ctx::Alt, &mut out, 0)?;
    Ok(out)
}

impl Tree {
    /// Appends the pattern for node `id`, bound as tightly as `ctx` needs.
    fn emit(
        &self,
        id: NodeId,
        ctx: Ctx,
        out: &mut String,
        depth: usize,
    ) -> Result<(), GoRegexError> {
        if depth > MAX_EMIT_DEPTH {
            return Err(GoRegexError::unsupported("the pattern nests too deeply"));
        }
        if out.len() > MAX_TRANSLATED_LEN {
            return Err(GoRegexError::unsupported(format!(
                "the translated pattern would exceed {MAX_TRANSLATED_LEN} bytes"
            )));
        }
        let node = self.nd(id);
        let first = node.sub.first().copied();
        match node.op {
            Op::NoMatch => out.push_str(NEVER),
            Op::EmptyMatch => out.push_str("(?:)"),
            Op::Literal => {
                let fold = node.flags & FOLD_CASE != 0;
                let group = !fold && ctx == Ctx::Atom && node.runes.len() != 1;
                if fold {
                    out.push_str("(?i:");
                } else if group {
                    out.push_str("(?:");
                }
                for &r in &node.runes {
                    push_literal(out, r);
                }
                if fold || group {
                    out.push(')');
                }
            }
            Op::CharClass => push_class(out, &node.runes),
            Op::AnyCharNotNl => out.push_str(r"[^\n]"),
            Op::AnyChar => out.push_str("(?s:.)"),
            Op::BeginLine => out.push_str("(?m:^)"),
            Op::EndLine => out.push_str("(?m:$)"),
            Op::BeginText => out.push_str(r"(?:\A)"),
            Op::EndText => out.push_str(r"(?:\z)"),
            Op::WordBoundary => out.push_str(r"(?-u:\b)"),
            Op::NoWordBoundary => out.push_str(r"(?-u:\B)"),
            Op::Capture => {
                let sub = first.ok_or_else(internal)?;
                self.emit(sub, ctx, out, depth + 1)?;
            }
            Op::Star | Op::Plus | Op::Quest | Op::Repeat => {
                let sub = first.ok_or_else(internal)?;
                let wrap = ctx == Ctx::Atom;
                if wrap {
                    out.push_str("(?:");
                }
                self.emit(sub, Ctx::Atom, out, depth + 1)?;
                match node.op {
                    Op::Star => out.push('*'),
                    Op::Plus => out.push('+'),
                    Op::Quest => out.push('?'),
                    _ if node.max == -1 => out.push_str(&format!("{{{},}}", node.min)),
                    _ if node.max == node.min => out.push_str(&format!("{{{}}}", node.min)),
                    _ => out.push_str(&format!("{{{},{}}}", node.min, node.max)),
                }
                if wrap {
                    out.push(')');
                }
            }
            Op::Concat => {
                if node.sub.is_empty() {
                    out.push_str("(?:)");
                    return Ok(());
                }
                let wrap = ctx == Ctx::Atom;
                if wrap {
                    out.push_str("(?:");
                }
                for &s in &node.sub {
                    self.emit(s, Ctx::Concat, out, depth + 1)?;
                }
                if wrap {
                    out.push(')');
                }
            }
            Op::Alternate => {
                if node.sub.is_empty() {
                    out.push_str(NEVER);
                    return Ok(());
                }
                let wrap = ctx != Ctx::Alt;
                if wrap {
                    out.push_str("(?:");
                }
                for (k, &s) in node.sub.iter().enumerate() {
                    if k > 0 {
                        out.push('|');
                    }
                    self.emit(s, Ctx::Alt, out, depth + 1)?;
                }
                if wrap {
                    out.push(')');
                }
            }
            Op::LeftParen | Op::VerticalBar => return Err(internal()),
        }
        Ok(())
    }
}

fn internal() -> GoRegexError {
    GoRegexError::unsupported("internal error: malformed parse tree")
}

/// Appends a literal code point (surrogates, which no text contains, never match).
fn push_literal(out: &mut String, r: i32) {
    match u32::try_from(r).ok().and_then(char::from_u32) {
        Some(c) => push_char(out, c),
        None => out.push_str(NEVER),
    }
}

/// Appends `c` so that it is literal both inside and outside brackets.
fn push_char(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric() || (!c.is_ascii() && !c.is_whitespace() && !c.is_control()) {
        out.push(c);
    } else {
        out.push_str(&format!(r"\x{{{:X}}}", u32::from(c)));
    }
}

/// Appends a bracketed class for the (clean) ranges `runes`.
fn push_class(out: &mut String, runes: &[i32]) {
    let start = out.len();
    out.push('[');
    let mut any = false;
    for (lo, hi) in pairs(runes) {
        for (a, b) in scalar_parts(lo, hi) {
            any = true;
            push_char(out, a);
            if b > a {
                out.push('-');
                push_char(out, b);
            }
        }
    }
    if any {
        out.push(']');
    } else {
        out.truncate(start);
        out.push_str(NEVER);
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::re;

    #[test]
    fn ascii_perl_classes_and_boundaries() {
        // \d, \w, \s, \b are ASCII-only in Go.
        assert!(re(r"^\d$").is_match("7"));
        assert!(!re(r"\d").is_match("٣"));
        assert!(!re(r"\w").is_match("é"));
        assert!(re(r"^\W$").is_match("é"));
        assert!(!re(r"\s").is_match("\u{a0}"));
        assert!(!re(r"\s").is_match("\u{b}"));
        assert!(re(r"^[[:space:]]$").is_match("\u{b}"));
        assert!(re(r"\bx\b").is_match("éxé"));
        assert!(!re(r"\Bx").is_match("éx"));
        assert!(!re(r"\B").is_match("aéb"));
        assert!(re(r"\B").is_match("é"));
        assert!(re(r"^[[:alpha:]]+$").is_match("abcXYZ"));
        assert!(!re(r"[[:alpha:]]").is_match("é"));
        assert!(re(r"^[[:^alpha:]]$").is_match("é"));
        // Unicode classes are Unicode.
        assert!(re(r"^\pL$").is_match("é"));
        assert!(re(r"^\p{Greek}+$").is_match("αβγ"));
        assert!(re(r"^\PL$").is_match("1"));
        assert!(re(r"^\pN$").is_match("٣"));
        assert!(re(r"^[\p{Lu}\d]+$").is_match("É9"));
    }

    #[test]
    fn dot_anchors_and_flags() {
        assert!(!re("a.b").is_match("a\nb"));
        assert!(re("(?s)a.b").is_match("a\nb"));
        assert!(re("a[^x]b").is_match("a\nb"));
        assert!(re(r"a[\s\S]b").is_match("a\nb"));
        // $ without (?m) is end of text only, unlike Perl.
        assert!(!re("a$").is_match("a\n"));
        assert!(re("(?m)a$").is_match("a\nb"));
        assert!(!re("^b").is_match("a\nb"));
        assert!(re("(?m)^b").is_match("a\nb"));
        assert!(!re(r"\Ab").is_match("a\nb"));
        assert!(re(r"a\z").is_match("ba"));
        assert!(!re(r"a\z").is_match("a\n"));
        // Flags end with their group.
        assert!(!re("(?:(?i)a)A").is_match("aa"));
        assert!(re("(?:(?i)a)A").is_match("AA"));
        assert!(re("(?U)a+b").is_match("aab"));
    }

    #[test]
    fn unanchored_matching() {
        assert!(re("b").is_match("abc"));
        assert!(re("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$").is_match("my-name"));
        assert!(!re("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$").is_match("-bad"));
        assert!(re("[0-9]+").is_match("v1.2"));
        assert!(re("").is_match(""));
        assert!(re("x*").is_match("abc"));
        assert!(!re("^$").is_match("a"));
        assert!(re("a|").is_match("zzz"));
    }

    #[test]
    fn escapes_and_literals() {
        assert!(re(r"^\Q.*+\E$").is_match(".*+"));
        assert!(!re(r"^\Q.*\E$").is_match("ab"));
        assert!(re(r"\Q\\E").is_match("\\"));
        assert!(re(r"^\101\x42\x{43}$").is_match("ABC"));
        assert!(re(r"^\0$").is_match("\0"));
        assert!(re(r"^\08$").is_match("\u{0}8"));
        assert!(re(r"^[\x{41}-\x{43}]+$").is_match("ABC"));
        assert!(re(r"^\a\f\t\n\r\v$").is_match("\u{7}\u{c}\t\n\r\u{b}"));
        assert!(re(r"^\.\*\$\^\{\}$").is_match(".*$^{}"));
        assert!(re("^a{,2}$").is_match("a{,2}"));
        assert!(re("^x{ 1}$").is_match("x{ 1}"));
        assert!(re("^☺+$").is_match("☺☺"));
        assert!(re(r"^[\-a]+$").is_match("-a"));
        assert!(re("^[]a]+$").is_match("]a"));
        // Surrogates can be written but never match.
        assert!(!re(r"\x{D800}").is_match("\u{FFFD}"));
        assert!(re(r"^[\x{D000}-\x{E000}]$").is_match("\u{D7FF}"));
        assert!(!re(r"[^\x00-\x{10FFFF}]").is_match("abc"));
    }

    #[test]
    fn repetitions_and_alternations() {
        assert!(re("^a{2,3}$").is_match("aaa"));
        assert!(!re("^a{2,3}$").is_match("aaaa"));
        assert!(re("^(?:ab){2,}$").is_match("ababab"));
        assert!(re("^x{0}$").is_match(""));
        assert!(re("^(abc|abd|aef|bcx|bcy)$").is_match("bcy"));
        assert!(!re("^(abc|abd|aef|bcx|bcy)$").is_match("bcz"));
        assert!(re(r"^(?:\d\d\dx|\d\d\dy)$").is_match("123y"));
        assert!(re("^(?:a|b|c)+$").is_match("abcba"));
        assert!(re("^(?:[ab]c|[ab]d)$").is_match("bd"));
        assert!(re("^(?i)abc|ABD$").is_match("aBd"));
        assert!(re("^(?:x|(?:xa))$").is_match("xa"));
        assert!(re("^(?:(?:^)*a)$").is_match("a"));
        assert!(re(r"^(?:\b)+a").is_match("a"));
    }
}
