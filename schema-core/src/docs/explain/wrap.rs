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

/// Text held back while wrapping (a word, or the white space before it)
/// and its length in runes.
#[derive(Default)]
struct Held {
    text: String,
    runes: u64,
}

impl Held {
    fn push(&mut self, c: char) {
        self.text.push(c);
        self.runes += 1;
    }

    fn clear(&mut self) {
        self.text.clear();
        self.runes = 0;
    }

    /// Appends the held text to `buf` and holds nothing.
    fn release_into(&mut self, buf: &mut String) {
        buf.push_str(&self.text);
        self.clear();
    }
}

/// `wordwrap.WrapString`: breaks lines at white space so that none is
/// longer than `lim` runes where a word allows; a word longer than `lim`
/// stays whole on a line of its own. Existing newlines are kept.
fn wrap_string(s: &str, lim: u64) -> String {
    let mut buf = String::with_capacity(s.len());
    let mut current: u64 = 0;
    let mut word = Held::default();
    let mut space = Held::default();
    for c in s.chars() {
        if c == '\n' {
            if word.text.is_empty() {
                if current + space.runes <= lim {
                    buf.push_str(&space.text);
                }
                space.clear();
            } else {
                space.release_into(&mut buf);
                word.release_into(&mut buf);
            }
            buf.push(c);
            current = 0;
        } else if c.is_whitespace() && c != NBSP {
            if space.text.is_empty() || !word.text.is_empty() {
                current += space.runes + word.runes;
                space.release_into(&mut buf);
                word.release_into(&mut buf);
            }
            space.push(c);
        } else {
            word.push(c);
            if current + word.runes + space.runes > lim && word.runes < lim {
                buf.push('\n');
                current = 0;
                space.clear();
            }
        }
    }
    if word.text.is_empty() {
        if current + space.runes <= lim {
            buf.push_str(&space.text);
        }
    } else {
        buf.push_str(&space.text);
        buf.push_str(&word.text);
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
