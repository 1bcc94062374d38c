//! [`Values`]: the documents' values built straight from the block
//! reader's events, without source maps, for callers that do not locate
//! nodes. It takes only what needs no more than that; anything else hands
//! the input back to be read with source maps, which reports it properly.

use super::block::Events;
use super::error::{SourceError, SourceErrorKind};
use super::limits::Limits;
use super::resolve::{TagKind, key_string, resolve};
use super::source_map::{Document, Pos, SourceMap};

use saphyr_parser::{Event, ScalarStyle};
use serde_json::{Map, Value};

/// An open collection of [`Values`].
enum Open {
    Seq(Vec<Value>),
    /// A mapping and its pending key.
    Map(Map<String, Value>, Option<String>),
}

/// Builds the documents' values directly, without source maps (their maps
/// are empty). Anything that needs more than that (a merge key, a duplicate
/// key, a limit, a value JSON cannot hold) is an error, after which the
/// input is read again by the [`Sink`](super::sink::Sink), which reports it properly.
pub(super) struct Values<'a> {
    limits: &'a Limits,
    /// The finished documents.
    pub(super) docs: Vec<Document>,
    stack: Vec<Open>,
    root: Option<Value>,
    /// The document is a lone empty plain scalar: no content.
    empty: bool,
    start: Pos,
    nodes: usize,
}

impl<'a> Values<'a> {
    /// No documents yet; the input is read within `limits`.
    pub(super) fn new(limits: &'a Limits) -> Self {
        Values {
            limits,
            docs: Vec::new(),
            stack: Vec::new(),
            root: None,
            empty: false,
            start: Pos::new(1, 1),
            nodes: 0,
        }
    }

    fn node(&mut self) -> Result<(), SourceError> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            return Err(unsupported());
        }
        Ok(())
    }

    fn push(&mut self, v: Value) -> Result<(), SourceError> {
        match self.stack.last_mut() {
            None => self.root = Some(v),
            Some(Open::Seq(items)) => items.push(v),
            Some(Open::Map(map, key)) => {
                let key = key.take().ok_or_else(unsupported)?;
                if map.insert(key, v).is_some() {
                    return Err(unsupported());
                }
            }
        }
        Ok(())
    }

    fn expects_key(&self) -> bool {
        matches!(self.stack.last(), Some(Open::Map(_, None)))
    }
}

/// The error that hands the input to the [`Sink`](super::sink::Sink).
fn unsupported() -> SourceError {
    SourceError {
        file: String::new(),
        line: 0,
        column: 0,
        message: String::new(),
        kind: SourceErrorKind::Value,
        earlier: None,
    }
}

impl<'t> Events<'t> for Values<'_> {
    // Inline: the block reader calls it for every event, and lost about 1%
    // of its instructions when this call became one across files.
    #[inline]
    fn event(&mut self, event: Event<'t>, at: Pos) -> Result<(), SourceError> {
        match event {
            Event::DocumentStart(_) => {
                self.stack.clear();
                self.root = None;
                self.empty = false;
                self.start = at;
            }
            Event::DocumentEnd => {
                if let Some(value) = self.root.take().filter(|_| !self.empty) {
                    self.docs.push(Document {
                        value,
                        start: self.start.location(),
                        map: SourceMap::default(),
                    });
                }
            }
            Event::Scalar(text, style, 0, None) => {
                let plain = style == ScalarStyle::Plain;
                if self.expects_key() {
                    if plain && text == "<<" {
                        return Err(unsupported());
                    }
                    let resolved =
                        resolve(text, plain, TagKind::None, None).map_err(|_| unsupported())?;
                    let key = key_string(&resolved)
                        .map_err(|_| unsupported())?
                        .into_owned();
                    if let Some(Open::Map(_, k)) = self.stack.last_mut() {
                        *k = Some(key);
                    }
                    return Ok(());
                }
                if self.stack.is_empty() && self.root.is_none() && plain && text.is_empty() {
                    self.empty = true;
                }
                self.node()?;
                let v = resolve(text, plain, TagKind::None, None)
                    .and_then(|r| r.into_value())
                    .map_err(|_| unsupported())?;
                self.push(v)?;
            }
            Event::SequenceStart(0, None) | Event::MappingStart(0, None) => {
                if self.expects_key() || self.stack.len() >= self.limits.max_depth {
                    return Err(unsupported());
                }
                self.node()?;
                self.stack
                    .push(if matches!(event, Event::SequenceStart(..)) {
                        Open::Seq(Vec::new())
                    } else {
                        Open::Map(Map::new(), None)
                    });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let v = match self.stack.pop().ok_or_else(unsupported)? {
                    Open::Seq(items) => Value::Array(items),
                    Open::Map(map, None) => Value::Object(map),
                    Open::Map(_, Some(_)) => return Err(unsupported()),
                };
                self.push(v)?;
            }
            Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
            _ => return Err(unsupported()),
        }
        Ok(())
    }

    fn limits(&self) -> &Limits {
        self.limits
    }
}
