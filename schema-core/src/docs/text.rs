//! Text into the documents' markup: HTML text and attributes, Markdown
//! text and code spans, and JSON inside a script. Whatever a description,
//! name or value holds, it comes out as text: no markup of its own, no
//! link, no way out of a script.

use super::path::is_noncharacter;

/// Whether HTML forbids a code point in a document: controls other than
/// ASCII whitespace, and noncharacters. They are shown as U+FFFD.
fn forbidden_in_html(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\x0c' | '\r')) || is_noncharacter(c)
}

/// Appends `s` to `out` escaped for HTML text or a double- or
/// single-quoted attribute value.
pub(crate) fn html_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\r' => out.push('\n'),
            c if forbidden_in_html(c) => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
}

/// `s` escaped for HTML text or attribute values.
pub(crate) fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    html_into(&mut out, s);
    out
}

/// Characters Markdown (CommonMark, GitHub's and Python-Markdown's
/// extensions) gives a meaning inline: escaped with a backslash.
fn markdown_inline_special(c: char) -> bool {
    matches!(
        c,
        '\\' | '`' | '*' | '_' | '[' | ']' | '{' | '}' | '|' | '~' | '!' | '$' | '^'
    )
}

/// Appends one line of text escaped for Markdown: inline syntax escaped,
/// HTML as entities, and what would start a block (`#`, `-`, `+`, `=`,
/// `1.`, `1)`) escaped at the start. Leading whitespace is dropped (it
/// would make a code block).
fn markdown_line(out: &mut String, line: &str) {
    let line = line.trim();
    let mut at_start = true;
    let mut digits = false;
    for c in line.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if forbidden_in_html(c) => out.push('\u{fffd}'),
            c if markdown_inline_special(c) => {
                out.push('\\');
                out.push(c);
            }
            '#' | '-' | '+' | '=' if at_start => {
                out.push('\\');
                out.push(c);
            }
            '.' | ')' if digits => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
        digits = (at_start || digits) && c.is_ascii_digit();
        at_start = false;
    }
}

/// `s` as Markdown text in one paragraph (a table cell or list item too):
/// every line escaped, lines joined with `<br>`, a run of blank lines
/// shown as one empty line. `indent` starts every line after the first.
pub(crate) fn markdown(s: &str, indent: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    let mut blank = false;
    let mut first = true;
    for line in s.lines() {
        if line.trim().is_empty() {
            blank = !first;
            continue;
        }
        if !first {
            out.push_str(if blank { "<br><br>\n" } else { "<br>\n" });
            out.push_str(indent);
        }
        markdown_line(&mut out, line);
        first = false;
        blank = false;
    }
    out
}

/// `s` as a Markdown code span: fenced by one backtick more than its
/// longest run, padded when it starts or ends with one, line breaks as
/// spaces; in a table, `|` is escaped (GitHub splits cells on it even in
/// code). Empty text is `""`.
pub(crate) fn code_span(s: &str, in_table: bool) -> String {
    if s.is_empty() {
        return "`\"\"`".to_string();
    }
    let mut longest = 0;
    let mut run = 0;
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let mut body = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' | '\r' => body.push(' '),
            '|' if in_table => body.push_str("\\|"),
            c if forbidden_in_html(c) => body.push('\u{fffd}'),
            c => body.push(c),
        }
    }
    let pad = if body.starts_with('`') || body.ends_with('`') || body.trim().is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{body}{pad}{fence}")
}

/// JSON text made safe inside an HTML `<script>`: `<`, `>` and `&` as
/// `\u` escapes (no `</script>` or `<!--`), and U+2028 and U+2029 too
/// (line terminators in older JavaScript). They only occur inside
/// strings, where the escapes mean the same characters.
pub(crate) fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + json.len() / 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes_markup_and_forbidden_code_points() {
        assert_eq!(
            html("<script>alert(\"x\" & 'y')</script>"),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        );
        assert_eq!(
            html("a\u{0}b\u{7f}c\u{fdd0}\r\n"),
            "a\u{fffd}b\u{fffd}c\u{fffd}\n\n"
        );
    }

    #[test]
    fn markdown_escapes_inline_and_block_syntax() {
        assert_eq!(
            markdown("[x](javascript:alert(1)) <b>*y*</b> `z` a|b", ""),
            "\\[x\\](javascript:alert(1)) &lt;b&gt;\\*y\\*&lt;/b&gt; \\`z\\` a\\|b"
        );
        assert_eq!(
            markdown("# h\n- item\n1. one\n   === \n\n\n  indented", "  "),
            "\\# h<br>\n  \\- item<br>\n  1\\. one<br>\n  \\===<br><br>\n  indented"
        );
        assert_eq!(markdown("&lt;script&gt;", ""), "&amp;lt;script&amp;gt;");
        assert_eq!(markdown("\n\nx\n\n", ""), "x");
    }

    #[test]
    fn code_spans_fence_backticks() {
        assert_eq!(code_span("a", false), "`a`");
        assert_eq!(code_span("a`b", false), "``a`b``");
        assert_eq!(code_span("`a``", false), "``` `a`` ```");
        assert_eq!(code_span("a|b\nc", true), "`a\\|b c`");
        assert_eq!(code_span("", false), "`\"\"`");
        assert_eq!(code_span(" ", false), "`   `");
    }

    #[test]
    fn script_json_cannot_close_the_script() {
        let s = script_json(r#"["</script><!--&", "\u2028"]"#);
        assert!(!s.contains('<') && !s.contains('>') && !s.contains('&'));
        let s = script_json("[\"\u{2028}\u{2029}\"]");
        assert_eq!(s, "[\"\\u2028\\u2029\"]");
    }
}
