//! Reading YAML with `saphyr-parser`: its event stream, over a
//! [`GuardedInput`] that bounds its look-ahead, fed to a [`Sink`]; scanner
//! errors become [`SourceError`]s with the input's positions.

use super::builder::Builder;
use super::error::{SourceError, SourceErrorKind};
use super::guarded_input::{GuardedInput, Lookahead};
use super::sink::Sink;
use super::source_map::{Document, Pos};

use saphyr_parser::{Event, Parser, ScanError};

/// Why reading YAML failed: the error, and whether it is the look-ahead
/// limit (which the JSON fallback does not report).
pub(super) struct YamlFailure {
    pub(super) error: SourceError,
    pub(super) lookahead: bool,
}

impl From<SourceError> for YamlFailure {
    fn from(error: SourceError) -> Self {
        YamlFailure {
            error,
            lookahead: false,
        }
    }
}

/// Reads `text` with `saphyr-parser` into `b`, collecting the documents in
/// `docs`.
pub(super) fn read_yaml(
    text: &str,
    b: &mut Builder<'_>,
    docs: &mut Vec<Document>,
) -> Result<(), YamlFailure> {
    let watch = Lookahead::new(b.limits().max_yaml_lookahead);
    let mut parser = Parser::new(GuardedInput::new(text, &watch));
    let mut sink = Sink::new(b, docs);
    while let Some(next) = parser.next_event() {
        if let Some(offset) = watch.cut_at.get() {
            let message = format!(
                "YAML look-ahead exceeds the limit of {} indicator characters \
                 (a flow collection or scalar too large to buffer)",
                watch.limit
            );
            return Err(YamlFailure {
                error: sink
                    .builder()
                    .err(pos_at(text, offset), SourceErrorKind::Limit, message),
                lookahead: true,
            });
        }
        watch.ahead.set(0);
        let (event, span) = next.map_err(|e| scan_error(sink.builder(), &e))?;
        if event == Event::StreamEnd {
            break;
        }
        let at = Pos::new(span.start.line(), span.start.col() + 1);
        sink.event(event, at)?;
    }
    Ok(())
}

/// The position of byte `offset` of `text`.
fn pos_at(text: &str, offset: usize) -> Pos {
    let before = text.get(..offset).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let line = 1 + before.bytes().filter(|b| *b == b'\n').count();
    let col = 1 + before.get(line_start..).unwrap_or_default().chars().count();
    Pos::new(line, col)
}

/// A `saphyr-parser` scanner error at its position; its flow nesting limit
/// is a [`SourceErrorKind::Limit`].
fn scan_error(b: &Builder<'_>, e: &ScanError) -> SourceError {
    let at = Pos::new(e.marker().line(), e.marker().col() + 1);
    if e.info() == "recursion limit exceeded" {
        return b.err(
            at,
            SourceErrorKind::Limit,
            "document exceeds the nesting limit of 255 levels for YAML flow collections",
        );
    }
    b.err(at, SourceErrorKind::Syntax, e.info())
}
