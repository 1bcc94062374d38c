//! [`Sink`]: YAML events, from `saphyr-parser` or from the block reader,
//! into a [`Builder`], collecting the finished documents. It applies what
//! YAML adds to the JSON model: tags (checked against the node's kind),
//! anchors and aliases, merge keys, and documents without content.

use super::block::Events;
use super::builder::Builder;
use super::error::{SourceError, SourceErrorKind};
use super::limits::Limits;
use super::resolve::{TagKind, classify_tag, key_string, resolve, tag_name};
use super::source_map::{Document, Kind, Pos};
use std::borrow::Cow;

use saphyr_parser::{Event, ScalarStyle, Tag};

/// Feeds YAML events, from `saphyr-parser` or from the block reader, to a
/// [`Builder`], collecting the finished documents.
pub(super) struct Sink<'s, 'a> {
    b: &'s mut Builder<'a>,
    docs: &'s mut Vec<Document>,
    doc_start: Pos,
    in_doc: bool,
}

impl<'s, 'a> Sink<'s, 'a> {
    pub(super) fn new(b: &'s mut Builder<'a>, docs: &'s mut Vec<Document>) -> Self {
        Sink {
            b,
            docs,
            doc_start: Pos::new(1, 1),
            in_doc: false,
        }
    }

    /// The builder the events go to.
    pub(super) fn builder(&self) -> &Builder<'a> {
        self.b
    }

    /// One event, which starts at `at`.
    pub(super) fn event(&mut self, event: Event<'_>, at: Pos) -> Result<(), SourceError> {
        let b = &mut *self.b;
        match event {
            Event::StreamStart | Event::StreamEnd | Event::Nothing => {}
            Event::DocumentStart(_) => {
                b.begin_document();
                self.doc_start = at;
                self.in_doc = true;
            }
            Event::DocumentEnd => {
                if self.in_doc {
                    if let Some(doc) = b.finish_document(self.doc_start)? {
                        self.docs.push(doc);
                    }
                }
                self.in_doc = false;
            }
            Event::Alias(id) => {
                if b.expects_key() {
                    b.alias_key(id, at)?;
                } else {
                    b.alias_value(id, at)?;
                }
            }
            Event::Scalar(value, style, anchor, tag) => {
                yaml_scalar(b, value, style, anchor, tag.as_deref(), at)?;
            }
            Event::SequenceStart(anchor, tag) => {
                yaml_collection(b, Kind::Seq, anchor, tag.as_deref(), at)?;
            }
            Event::MappingStart(anchor, tag) => {
                yaml_collection(b, Kind::Map, anchor, tag.as_deref(), at)?;
            }
            Event::SequenceEnd | Event::MappingEnd => b.close(),
        }
        Ok(())
    }
}

impl<'t> Events<'t> for Sink<'_, '_> {
    fn event(&mut self, event: Event<'t>, at: Pos) -> Result<(), SourceError> {
        Sink::event(self, event, at)
    }

    fn limits(&self) -> &Limits {
        self.b.limits()
    }
}

/// A collection starts: checks its tag against its kind and opens it.
fn yaml_collection(
    b: &mut Builder<'_>,
    kind: Kind,
    anchor: usize,
    tag: Option<&Tag>,
    at: Pos,
) -> Result<(), SourceError> {
    if b.expects_key() {
        return Err(b.err(
            at,
            SourceErrorKind::Value,
            "mapping keys must be scalars, found a collection",
        ));
    }
    let t = classify_tag(tag).map_err(|m| b.err(at, SourceErrorKind::Value, m))?;
    let ok = match t {
        TagKind::None | TagKind::NonSpecific => true,
        TagKind::Map => kind == Kind::Map,
        TagKind::Seq => kind == Kind::Seq,
        _ => false,
    };
    if !ok {
        let what = if kind == Kind::Map {
            "a mapping"
        } else {
            "a sequence"
        };
        return Err(b.err(
            at,
            SourceErrorKind::Value,
            format!("tag {} cannot be applied to {what}", tag_name(tag)),
        ));
    }
    b.open(kind, at, anchor)
}

/// A scalar: the key of the innermost mapping, or a value, resolved by its
/// style and tag; anchored when `anchor` is not 0.
fn yaml_scalar(
    b: &mut Builder<'_>,
    text: Cow<'_, str>,
    style: ScalarStyle,
    anchor: usize,
    tag: Option<&Tag>,
    at: Pos,
) -> Result<(), SourceError> {
    let t = classify_tag(tag).map_err(|m| b.err(at, SourceErrorKind::Value, m))?;
    let plain = style == ScalarStyle::Plain;
    if b.expects_key() {
        let merge = plain && t == TagKind::None && text == "<<";
        let resolved =
            resolve(text, plain, t, tag).map_err(|m| b.err(at, SourceErrorKind::Value, m))?;
        let key = key_string(&resolved).map_err(|m| b.err(at, SourceErrorKind::Value, m))?;
        b.set_key(&key, at, merge);
        if anchor != 0 {
            b.anchor_key(anchor, resolved.into_static());
        }
        return Ok(());
    }
    if b.has_no_nodes() && plain && t == TagKind::None && anchor == 0 && text.is_empty() {
        b.mark_empty_document();
    }
    let resolved =
        resolve(text, plain, t, tag).map_err(|m| b.err(at, SourceErrorKind::Value, m))?;
    let value = resolved
        .into_value()
        .map_err(|m| b.err(at, SourceErrorKind::Value, m))?;
    let idx = b.push_scalar(value, at)?;
    if anchor != 0 {
        b.anchor_scalar(anchor, idx);
    }
    Ok(())
}
