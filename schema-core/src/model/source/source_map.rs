//! Where the nodes of a parsed document stand in the input: [`Location`]s,
//! the [`SourceMap`] of a [`Document`] that finds them by [`PathSegment`]
//! path, and the compact node records ([`Node`]) it keeps, which the builder
//! writes in document order.

use std::fmt;

use serde_json::Value;

/// A position in the input: 1-based line, 1-based column counted in
/// characters (Unicode scalar values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// One step of a JSON path, for [`SourceMap::locate`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathSegment {
    /// An object member, by key.
    Key(String),
    /// An array element, by index from 0.
    Index(usize),
}

impl From<&str> for PathSegment {
    fn from(key: &str) -> Self {
        PathSegment::Key(key.to_string())
    }
}

impl From<String> for PathSegment {
    fn from(key: String) -> Self {
        PathSegment::Key(key)
    }
}

impl From<usize> for PathSegment {
    fn from(index: usize) -> Self {
        PathSegment::Index(index)
    }
}

/// One document of an input.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The document as a JSON value.
    pub value: Value,
    /// Where the document starts: its `---` if it has one, else its first
    /// node.
    pub start: Location,
    /// The location of every node of `value`.
    pub map: SourceMap,
}

impl Document {
    /// The location of the node at `path`; see [`SourceMap::locate`].
    #[must_use]
    pub fn locate(&self, path: &[PathSegment]) -> Option<Location> {
        self.map.locate(path)
    }
}

/// A compact position (1-based line and column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Pos {
    pub(super) line: u32,
    pub(super) col: u32,
}

impl Pos {
    pub(super) fn new(line: usize, col: usize) -> Pos {
        Pos {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            col: u32::try_from(col).unwrap_or(u32::MAX),
        }
    }

    pub(super) fn location(self) -> Location {
        Location {
            line: self.line as usize,
            column: self.col as usize,
        }
    }
}

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Scalar,
    Seq,
    Map,
}

/// One node, in document (pre-)order. Children of a collection follow it;
/// `size` counts the node and all its descendants, so the next sibling of
/// node `i` is `i + size`.
///
/// Counts and offsets are `u32` (a node is 36 bytes, not 56): the builder
/// refuses inputs with more nodes or key bytes than that addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Node {
    pub(super) size: u32,
    /// Index into the scalar values (scalars only; used while building).
    pub(super) value: u32,
    /// The key, as a range of the key arena, for entries of a mapping.
    pub(super) key_start: u32,
    pub(super) key_len: u32,
    pub(super) loc: Pos,
    pub(super) key_loc: Pos,
    pub(super) kind: Kind,
    /// The entry's key is a merge key (`<<`).
    pub(super) merge: bool,
}

impl Node {
    /// The node and its descendants.
    pub(super) fn size(&self) -> usize {
        self.size as usize
    }

    /// The index of its value in the scalars.
    pub(super) fn value(&self) -> usize {
        self.value as usize
    }

    /// Its key's range in the key arena.
    pub(super) fn key_range(&self) -> std::ops::Range<usize> {
        let start = self.key_start as usize;
        start..start + self.key_len as usize
    }
}

/// `n` as a [`Node`] field: the builder keeps node counts and key offsets
/// within `u32` (`Builder::count_nodes`).
pub(super) fn narrow(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The location of every node of a [`Document`], looked up by JSON path.
///
/// Nodes are stored flat, in document order, with their keys in one string
/// arena: a few dozen bytes per node, and a lookup walks one path, scanning
/// the siblings at each step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    nodes: Vec<Node>,
    keys: String,
}

impl SourceMap {
    /// The map of a document whose nodes, in document order, are `nodes`,
    /// with their keys in `keys`.
    pub(super) fn new(nodes: Vec<Node>, keys: String) -> SourceMap {
        SourceMap { nodes, keys }
    }

    /// The location of the node at `path`: for a path ending in a key, the
    /// key's location; for one ending in an index, the element's; for the
    /// empty path, the document root's. `None` when the path does not exist
    /// in the document.
    #[must_use]
    pub fn locate(&self, path: &[PathSegment]) -> Option<Location> {
        let (idx, via_key) = self.find(path)?;
        let node = self.nodes.get(idx)?;
        Some(if via_key { node.key_loc } else { node.loc }.location())
    }

    /// The location of the value at `path` (for a path ending in a key, the
    /// value's location rather than the key's). `None` when the path does
    /// not exist in the document.
    #[must_use]
    pub fn locate_value(&self, path: &[PathSegment]) -> Option<Location> {
        let (idx, _) = self.find(path)?;
        Some(self.nodes.get(idx)?.loc.location())
    }

    /// The number of nodes in the document.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the map has no nodes (never the case for a parsed document).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node reached by `path`, and whether its last step was a key.
    fn find(&self, path: &[PathSegment]) -> Option<(usize, bool)> {
        self.nodes.first()?;
        let mut idx = 0;
        let mut via_key = false;
        for seg in path {
            let node = self.nodes.get(idx)?;
            match (seg, node.kind) {
                (PathSegment::Key(k), Kind::Map) => {
                    idx = self.find_key(idx, k)?;
                    via_key = true;
                }
                (PathSegment::Index(i), Kind::Seq) => {
                    idx = self.children(idx).nth(*i)?;
                    via_key = false;
                }
                _ => return None,
            }
        }
        Some((idx, via_key))
    }

    fn children(&self, idx: usize) -> Children<'_> {
        let end = self.nodes.get(idx).map_or(idx, |n| idx + n.size());
        Children {
            nodes: &self.nodes,
            next: idx + 1,
            end,
        }
    }

    fn key(&self, idx: usize) -> Option<&str> {
        let n = self.nodes.get(idx)?;
        self.keys.get(n.key_range())
    }

    /// The entry with key `k` of the mapping at `map`, applying merge keys
    /// as the value was built: the mapping's own keys first, then each
    /// merged mapping in order (depth first, with its own merges).
    fn find_key(&self, map: usize, k: &str) -> Option<usize> {
        let mut pending = vec![map];
        while let Some(m) = pending.pop() {
            if let Some(c) = self
                .children(m)
                .find(|&c| self.nodes.get(c).is_some_and(|n| !n.merge) && self.key(c) == Some(k))
            {
                return Some(c);
            }
            // Merge sources, pushed in reverse so the first is searched first.
            let mut sources = Vec::new();
            for c in self.children(m) {
                let Some(n) = self.nodes.get(c) else { continue };
                if !n.merge {
                    continue;
                }
                match n.kind {
                    Kind::Map => sources.push(c),
                    Kind::Seq => sources.extend(
                        self.children(c)
                            .filter(|&e| self.nodes.get(e).is_some_and(|n| n.kind == Kind::Map)),
                    ),
                    Kind::Scalar => {}
                }
            }
            pending.extend(sources.into_iter().rev());
        }
        None
    }
}

/// The children of one node of a [`SourceMap`] (or builder tape).
struct Children<'a> {
    nodes: &'a [Node],
    next: usize,
    end: usize,
}

impl Iterator for Children<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.next >= self.end {
            return None;
        }
        let cur = self.next;
        let size = self.nodes.get(cur)?.size().max(1);
        self.next = cur + size;
        Some(cur)
    }
}
