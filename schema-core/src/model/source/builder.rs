//! The builder of documents with source maps: nodes, as the readers report
//! them, are staged on a flat tape in document order (with limits, anchors
//! and alias copies), then turned into a JSON value, checking duplicate keys
//! and applying merge keys, while the tape becomes the document's
//! [`SourceMap`].

use super::error::{SourceError, SourceErrorKind};
use super::limits::Limits;
use super::resolve::{Resolved, key_from_value, key_string};
use super::source_map::{Document, Kind, Node, Pos, SourceMap, narrow};
use crate::go::fmt::go_quote;
use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value};

/// A scalar's value while a document is built: a [`Value`] that is never a
/// collection, in less than half the space.
#[derive(Clone, Debug, Default)]
enum Scalar {
    #[default]
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    /// Not made by the readers; kept whole rather than dropped.
    Other(Box<Value>),
}

impl From<Value> for Scalar {
    fn from(v: Value) -> Scalar {
        match v {
            Value::Null => Scalar::Null,
            Value::Bool(b) => Scalar::Bool(b),
            Value::Number(n) => Scalar::Number(n),
            Value::String(s) => Scalar::String(s),
            other => Scalar::Other(Box::new(other)),
        }
    }
}

impl From<Scalar> for Value {
    fn from(s: Scalar) -> Value {
        match s {
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => Value::Bool(b),
            Scalar::Number(n) => Value::Number(n),
            Scalar::String(s) => Value::String(s),
            Scalar::Other(v) => *v,
        }
    }
}

impl Scalar {
    fn to_value(&self) -> Value {
        self.clone().into()
    }
}

/// A key read for the top mapping, waiting for its value.
#[derive(Clone, Copy, Debug)]
struct PendingKey {
    start: usize,
    len: usize,
    loc: Pos,
    merge: bool,
}

/// An open mapping or sequence.
#[derive(Debug)]
struct Frame {
    node: usize,
    kind: Kind,
    anchor: usize,
    key: Option<PendingKey>,
    /// The height of the tallest child collection (0 when none).
    child_height: usize,
}

/// What an anchor names.
#[derive(Clone, Debug)]
enum Anchor {
    /// A node of the current document: `len` nodes from `start`, `height`
    /// levels of collections.
    Node {
        start: usize,
        len: usize,
        height: usize,
    },
    /// A scalar written as a mapping key.
    Key(Resolved<'static>),
}

/// Builds the documents of one input, with their source maps, from the
/// nodes a reader reports (in document order, collections opened and
/// closed around their children), counting them against the [`Limits`].
pub(super) struct Builder<'a> {
    file: &'a str,
    limits: &'a Limits,
    nodes: Vec<Node>,
    scalars: Vec<Scalar>,
    keys: String,
    frames: Vec<Frame>,
    anchors: HashMap<usize, Anchor>,
    /// The document's only event was an empty, untagged, unanchored plain
    /// scalar: a document with no content.
    empty_doc: bool,
    total_nodes: usize,
    expanded_nodes: usize,
    expanded_bytes: usize,
}

impl<'a> Builder<'a> {
    pub(super) fn new(file: &'a str, limits: &'a Limits) -> Self {
        Builder {
            file,
            limits,
            nodes: Vec::new(),
            scalars: Vec::new(),
            keys: String::new(),
            frames: Vec::new(),
            anchors: HashMap::new(),
            empty_doc: false,
            total_nodes: 0,
            expanded_nodes: 0,
            expanded_bytes: 0,
        }
    }

    /// The limits the input is read within.
    pub(super) fn limits(&self) -> &'a Limits {
        self.limits
    }

    /// Whether the document has no node yet.
    pub(super) fn has_no_nodes(&self) -> bool {
        self.nodes.is_empty() && self.frames.is_empty()
    }

    /// Marks the document as one without content: its only node is an
    /// empty, untagged, unanchored plain scalar.
    pub(super) fn mark_empty_document(&mut self) {
        self.empty_doc = true;
    }

    /// Names with anchor `id` a scalar written as a mapping key.
    pub(super) fn anchor_key(&mut self, id: usize, key: Resolved<'static>) {
        self.anchors.insert(id, Anchor::Key(key));
    }

    /// Names with anchor `id` the scalar node at index `node`.
    pub(super) fn anchor_scalar(&mut self, id: usize, node: usize) {
        self.anchors.insert(
            id,
            Anchor::Node {
                start: node,
                len: 1,
                height: 0,
            },
        );
    }

    /// An error of `kind` at `at` in this input.
    pub(super) fn err(
        &self,
        at: Pos,
        kind: SourceErrorKind,
        message: impl Into<String>,
    ) -> SourceError {
        SourceError {
            file: self.file.to_string(),
            line: at.line as usize,
            column: at.col as usize,
            message: message.into(),
            kind,
            earlier: None,
        }
    }

    /// A key repeated in the mapping whose children start at node `first`,
    /// worded as go-yaml's strict decoding (and so kubectl) words it, with
    /// the position of the key's first occurrence.
    fn duplicate_key(&self, first: usize, key: &str, at: Pos) -> SourceError {
        let mut j = first;
        let mut earlier = None;
        while let Some(n) = self.nodes.get(j) {
            if self.keys.get(n.key_range()) == Some(key) && !n.merge {
                earlier = Some(n.key_loc.location());
                break;
            }
            j += n.size().max(1);
        }
        let mut e = self.err(
            at,
            SourceErrorKind::DuplicateKey,
            match earlier {
                Some(l) => format!(
                    "mapping key {} already defined at line {}",
                    go_quote(key),
                    l.line
                ),
                None => format!("mapping key {} already defined", go_quote(key)),
            },
        );
        e.earlier = earlier;
        e
    }

    /// Starts a document: the tape, keys and anchors of the last are gone.
    pub(super) fn begin_document(&mut self) {
        self.nodes = Vec::new();
        self.scalars = Vec::new();
        self.keys = String::new();
        self.frames.clear();
        self.anchors.clear();
        self.empty_doc = false;
    }

    /// Whether the next node is a key of the innermost mapping.
    pub(super) fn expects_key(&self) -> bool {
        matches!(self.frames.last(), Some(f) if f.kind == Kind::Map && f.key.is_none())
    }

    /// The kind of the innermost open collection.
    pub(super) fn top_kind(&self) -> Option<Kind> {
        self.frames.last().map(|f| f.kind)
    }

    /// Sets the key the next node is the value of, in the innermost mapping.
    pub(super) fn set_key(&mut self, key: &str, loc: Pos, merge: bool) {
        let start = self.keys.len();
        self.keys.push_str(key);
        if let Some(f) = self.frames.last_mut() {
            f.key = Some(PendingKey {
                start,
                len: key.len(),
                loc,
                merge,
            });
        }
    }

    fn take_key(&mut self) -> Option<PendingKey> {
        self.frames.last_mut().and_then(|f| f.key.take())
    }

    fn count_nodes(&mut self, n: usize, at: Pos) -> Result<(), SourceError> {
        self.total_nodes = self.total_nodes.saturating_add(n);
        // What a `Node` addresses (only reachable with raised limits).
        if self.total_nodes > u32::MAX as usize || self.keys.len() > u32::MAX as usize {
            return Err(self.err(
                at,
                SourceErrorKind::Limit,
                "input exceeds 4,294,967,295 nodes or bytes of mapping keys",
            ));
        }
        if self.total_nodes > self.limits.max_nodes {
            return Err(self.err(
                at,
                SourceErrorKind::Limit,
                format!("input exceeds the limit of {} nodes", self.limits.max_nodes),
            ));
        }
        Ok(())
    }

    fn new_node(&mut self, kind: Kind, value: usize, loc: Pos) -> Node {
        let key = self.take_key();
        Node {
            size: 1,
            value: narrow(value),
            key_start: key.map_or(0, |k| narrow(k.start)),
            key_len: key.map_or(0, |k| narrow(k.len)),
            loc,
            key_loc: key.map_or(loc, |k| k.loc),
            kind,
            merge: key.is_some_and(|k| k.merge),
        }
    }

    /// Adds a scalar node; its index on the tape.
    pub(super) fn push_scalar(&mut self, value: Value, loc: Pos) -> Result<usize, SourceError> {
        self.count_nodes(1, loc)?;
        let node = self.new_node(Kind::Scalar, self.scalars.len(), loc);
        self.scalars.push(Scalar::from(value));
        self.nodes.push(node);
        Ok(self.nodes.len() - 1)
    }

    fn check_depth(&self, height: usize, at: Pos) -> Result<(), SourceError> {
        if self.frames.len().saturating_add(height) > self.limits.max_depth {
            return Err(self.err(
                at,
                SourceErrorKind::Limit,
                format!(
                    "document exceeds the nesting limit of {} levels",
                    self.limits.max_depth
                ),
            ));
        }
        Ok(())
    }

    /// Opens a mapping or sequence, named by anchor `anchor` when not 0.
    pub(super) fn open(&mut self, kind: Kind, loc: Pos, anchor: usize) -> Result<(), SourceError> {
        self.check_depth(1, loc)?;
        self.count_nodes(1, loc)?;
        let node = self.new_node(kind, 0, loc);
        self.nodes.push(node);
        self.frames.push(Frame {
            node: self.nodes.len() - 1,
            kind,
            anchor,
            key: None,
            child_height: 0,
        });
        Ok(())
    }

    /// Closes the innermost open collection.
    pub(super) fn close(&mut self) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        let len = self.nodes.len() - frame.node;
        if let Some(n) = self.nodes.get_mut(frame.node) {
            n.size = narrow(len);
        }
        let height = frame.child_height + 1;
        if let Some(parent) = self.frames.last_mut() {
            parent.child_height = parent.child_height.max(height);
        }
        if frame.anchor != 0 {
            self.anchors.insert(
                frame.anchor,
                Anchor::Node {
                    start: frame.node,
                    len,
                    height,
                },
            );
        }
    }

    fn unresolvable_alias(&self, id: usize, at: Pos) -> SourceError {
        let message = if self.frames.iter().any(|f| f.anchor == id) {
            "alias refers to a node that contains it (recursive alias)"
        } else {
            "alias refers to an anchor of another document (anchors do not carry across documents)"
        };
        self.err(at, SourceErrorKind::Syntax, message)
    }

    /// An alias in key position: the anchored node must be a scalar.
    pub(super) fn alias_key(&mut self, id: usize, at: Pos) -> Result<(), SourceError> {
        let key = match self.anchors.get(&id) {
            None => return Err(self.unresolvable_alias(id, at)),
            Some(Anchor::Key(r)) => key_string(r),
            Some(Anchor::Node { start, .. }) => match self.nodes.get(*start) {
                Some(n) if n.kind == Kind::Scalar => {
                    let v = self.scalars.get(n.value()).map(Scalar::to_value);
                    key_from_value(v.as_ref().unwrap_or(&Value::Null))
                        .map(|k| Cow::Owned(k.into_owned()))
                }
                _ => Err("mapping keys must be scalars, found an alias to a collection".into()),
            },
        };
        match key {
            Ok(k) => {
                let k = k.into_owned();
                self.set_key(&k, at, false);
                Ok(())
            }
            Err(m) => Err(self.err(at, SourceErrorKind::Value, m)),
        }
    }

    /// An alias in value position: a copy of the anchored node.
    pub(super) fn alias_value(&mut self, id: usize, at: Pos) -> Result<(), SourceError> {
        let (start, len, height) = match self.anchors.get(&id) {
            None => return Err(self.unresolvable_alias(id, at)),
            Some(Anchor::Key(r)) => {
                let v = r
                    .clone()
                    .into_value()
                    .map_err(|m| self.err(at, SourceErrorKind::Value, m))?;
                self.charge_expansion(1, 0, at)?;
                self.push_scalar(v, at)?;
                return Ok(());
            }
            Some(Anchor::Node { start, len, height }) => (*start, *len, *height),
        };
        self.check_depth(height, at)?;
        self.charge_expansion(len, 0, at)?;
        self.count_nodes(len, at)?;
        let key = self.take_key();
        self.nodes.reserve(len);
        for off in 0..len {
            let Some(mut n) = self.nodes.get(start + off).copied() else {
                break;
            };
            if off == 0 {
                n.loc = at;
                n.key_start = key.map_or(0, |k| narrow(k.start));
                n.key_len = key.map_or(0, |k| narrow(k.len));
                n.key_loc = key.map_or(at, |k| k.loc);
                n.merge = key.is_some_and(|k| k.merge);
            } else {
                self.charge_expansion(0, n.key_len as usize, at)?;
            }
            if n.kind == Kind::Scalar {
                let bytes = match self.scalars.get(n.value()) {
                    Some(Scalar::String(s)) => s.len(),
                    _ => 0,
                };
                self.charge_expansion(0, bytes, at)?;
                let v = self.scalars.get(n.value()).cloned().unwrap_or_default();
                n.value = narrow(self.scalars.len());
                self.scalars.push(v);
            }
            self.nodes.push(n);
        }
        if let Some(parent) = self.frames.last_mut() {
            parent.child_height = parent.child_height.max(height);
        }
        Ok(())
    }

    fn charge_expansion(&mut self, nodes: usize, bytes: usize, at: Pos) -> Result<(), SourceError> {
        self.expanded_nodes = self.expanded_nodes.saturating_add(nodes);
        self.expanded_bytes = self.expanded_bytes.saturating_add(bytes);
        if self.expanded_nodes > self.limits.max_alias_expansion {
            return Err(self.err(
                at,
                SourceErrorKind::Limit,
                format!(
                    "alias expansion exceeds the limit of {} nodes",
                    self.limits.max_alias_expansion
                ),
            ));
        }
        if self.expanded_bytes > self.limits.max_alias_bytes {
            return Err(self.err(
                at,
                SourceErrorKind::Limit,
                format!(
                    "alias expansion exceeds the limit of {} bytes of strings",
                    self.limits.max_alias_bytes
                ),
            ));
        }
        Ok(())
    }

    /// Ends the document: builds its value and source map. `None` for a
    /// document without content.
    pub(super) fn finish_document(&mut self, start: Pos) -> Result<Option<Document>, SourceError> {
        self.frames.clear();
        self.anchors.clear();
        if self.nodes.is_empty() || self.empty_doc {
            return Ok(None);
        }
        let value = self.build_value()?;
        let map = SourceMap::new(
            std::mem::take(&mut self.nodes),
            std::mem::take(&mut self.keys),
        );
        self.scalars = Vec::new();
        Ok(Some(Document {
            value,
            start: start.location(),
            map,
        }))
    }

    /// The number of children of the collection whose descendants are the
    /// nodes `first..end`: collections are built at their final size, not
    /// grown (growing leaves garbage the allocator hands back to the OS,
    /// only to take it again).
    fn children(&self, first: usize, end: usize) -> usize {
        let mut count = 0;
        let mut j = first;
        while let Some(n) = self.nodes.get(j).filter(|_| j < end) {
            count += 1;
            j += n.size().max(1);
        }
        count
    }

    /// Turns the node tape into a `Value`, iteratively. Checks duplicate
    /// keys and applies merge keys.
    fn build_value(&mut self) -> Result<Value, SourceError> {
        struct Open {
            /// The index of the first child node.
            first: usize,
            end: usize,
            node: Node,
            content: Content,
        }
        enum Content {
            Seq(Vec<Value>),
            Map {
                map: Map<String, Value>,
                /// Merged mappings, each with the number of explicit entries
                /// that precede its `<<` key.
                merges: Vec<(usize, Map<String, Value>)>,
            },
        }

        let mut stack: Vec<Open> = Vec::new();
        let mut root = None;
        let mut i = 0;
        while let Some(&n) = self.nodes.get(i) {
            i += 1;
            let mut done = match n.kind {
                Kind::Scalar => Some((
                    n,
                    self.scalars
                        .get_mut(n.value())
                        .map_or(Value::Null, |v| std::mem::take(v).into()),
                )),
                Kind::Seq => {
                    let end = i - 1 + n.size();
                    stack.push(Open {
                        first: i,
                        end,
                        node: n,
                        content: Content::Seq(Vec::with_capacity(self.children(i, end))),
                    });
                    None
                }
                Kind::Map => {
                    let end = i - 1 + n.size();
                    stack.push(Open {
                        first: i,
                        end,
                        node: n,
                        content: Content::Map {
                            map: Map::with_capacity(self.children(i, end)),
                            merges: Vec::new(),
                        },
                    });
                    None
                }
            };
            loop {
                if let Some((node, v)) = done.take() {
                    match stack.last_mut() {
                        None => root = Some(v),
                        Some(Open {
                            content: Content::Seq(items),
                            ..
                        }) => items.push(v),
                        Some(Open {
                            first,
                            content: Content::Map { map, merges },
                            ..
                        }) => {
                            let key = self.keys.get(node.key_range()).unwrap_or_default();
                            if node.merge {
                                let at = map.len();
                                match v {
                                    Value::Object(m) => merges.push((at, m)),
                                    Value::Array(items) if items.iter().all(Value::is_object) => {
                                        merges.extend(items.into_iter().filter_map(|x| match x {
                                            Value::Object(m) => Some((at, m)),
                                            _ => None,
                                        }));
                                    }
                                    _ => {
                                        return Err(self.err(
                                            node.key_loc,
                                            SourceErrorKind::Value,
                                            "map merge requires a mapping or a sequence of mappings as the value",
                                        ));
                                    }
                                }
                            } else if map.insert(key.to_string(), v).is_some() {
                                return Err(self.duplicate_key(*first, key, node.key_loc));
                            }
                        }
                    }
                }
                match stack.last() {
                    Some(top) if top.end <= i => {}
                    _ => break,
                }
                let Some(top) = stack.pop() else { break };
                let v = match top.content {
                    Content::Seq(items) => Value::Array(items),
                    Content::Map { map, merges } => Value::Object(apply_merges(map, merges)),
                };
                done = Some((top.node, v));
            }
        }
        Ok(root.unwrap_or(Value::Null))
    }
}

/// Inserts merged entries where their `<<` keys stood; explicit keys win,
/// then earlier merges.
fn apply_merges(
    map: Map<String, Value>,
    mut merges: Vec<(usize, Map<String, Value>)>,
) -> Map<String, Value> {
    if merges.is_empty() {
        return map;
    }
    for (_, m) in &mut merges {
        m.retain(|k, _| !map.contains_key(k));
    }
    let mut out = Map::new();
    let mut explicit = map.into_iter();
    let mut taken = 0;
    for (at, m) in merges {
        while taken < at {
            if let Some((k, v)) = explicit.next() {
                out.insert(k, v);
            }
            taken += 1;
        }
        for (k, v) in m {
            if !out.contains_key(&k) {
                out.insert(k, v);
            }
        }
    }
    for (k, v) in explicit {
        out.insert(k, v);
    }
    out
}
