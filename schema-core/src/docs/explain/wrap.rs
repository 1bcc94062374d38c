//! The text helpers of kubectl's explain templates: `wrap` (kubectl's
//! word-wrap writer over `github.com/mitchellh/go-wordwrap`'s
//! `WrapString`) and `indent`.

/// NO-BREAK SPACE: white space that does not break a line.
const NBSP: char = '\u{a0}';

/// The template function `wrap`: `limit` as Go converts an `int` to
/// `uint` (a negative limit is a huge one), then 0 leaves the text alone.
pub(super) fn wrap(limit: i64, s: &str) -> String {
    // `uint(l)` of a negative int wraps around: nothing is ever too long.
    let lim = u64::try_from(limit).unwrap_or(u64::MAX);
    if lim == 0 {
        return s.to_string();
    }
    wrap_string(s, lim)
}

/// `wordwrap.WrapString`: breaks lines at white space so that none is
/// longer than `lim` runes where a word allows; a word longer than `lim`
/// stays whole on a line of its own. Existing newlines are kept.
fn wrap_string(s: &str, lim: u64) -> String {
    let mut buf = String::with_capacity(s.len());
    let mut current: u64 = 0;
    let mut word = String::new();
    let mut word_len: u64 = 0;
    let mut space = String::new();
    let mut space_len: u64 = 0;
    for c in s.chars() {
        if c == '\n' {
            if word.is_empty() {
                if current + space_len <= lim {
                    buf.push_str(&space);
                }
                space.clear();
                space_len = 0;
            } else {
                buf.push_str(&space);
                space.clear();
                space_len = 0;
                buf.push_str(&word);
                word.clear();
                word_len = 0;
            }
            buf.push(c);
            current = 0;
        } else if c.is_whitespace() && c != NBSP {
            if space.is_empty() || !word.is_empty() {
                current += space_len + word_len;
                buf.push_str(&space);
                space.clear();
                space_len = 0;
                buf.push_str(&word);
                word.clear();
                word_len = 0;
            }
            space.push(c);
            space_len += 1;
        } else {
            word.push(c);
            word_len += 1;
            if current + word_len + space_len > lim && word_len < lim {
                buf.push('\n');
                current = 0;
                space.clear();
                space_len = 0;
            }
        }
    }
    if word.is_empty() {
        if current + space_len <= lim {
            buf.push_str(&space);
        }
    } else {
        buf.push_str(&space);
        buf.push_str(&word);
    }
    buf
}

/// The template function `indent`: `amount` spaces before the text and
/// after every newline in it (a trailing newline gets them too).
pub(super) fn indent(amount: usize, s: &str) -> String {
    let pad = " ".repeat(amount);
    let mut out = String::with_capacity(s.len() + pad.len());
    out.push_str(&pad);
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(&pad);
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_word_boundaries() {
        assert_eq!(wrap(10, "aaa bbb ccc ddd"), "aaa bbb\nccc ddd");
        assert_eq!(wrap(3, "abcdef gh"), "abcdef\ngh");
        assert_eq!(wrap(0, "a b c"), "a b c");
        assert_eq!(wrap(-2, "aaaa bbbb"), "aaaa bbbb");
        assert_eq!(wrap(5, "a\n\nb"), "a\n\nb");
        assert_eq!(wrap(4, "ab\u{a0}cd ef"), "ab\u{a0}cd\nef");
    }

    #[test]
    fn indents_every_line() {
        assert_eq!(indent(2, "a\nb\n"), "  a\n  b\n  ");
        assert_eq!(indent(0, "a"), "a");
    }
}
