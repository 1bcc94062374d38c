//! Input bytes (YAML or JSON, one or many documents) into JSON values with
//! source positions, decoded the way `kubectl` and the API server see them.
//!
//! [`parse_documents`] is the entry point. It is total: every input, however
//! hostile, gives either documents or a [`SourceError`] naming file, line and
//! column, within bounded time and memory ([`Limits`]).
//!
//! # Formats
//!
//! - **JSON.** An input whose first non-whitespace byte (after an optional
//!   UTF-8 byte order mark) is `{` or `[` is read as a stream of JSON values,
//!   as the JSON branch of apimachinery's `YAMLOrJSONDecoder` reads it: strict
//!   RFC 8259 syntax, any number of values separated by whitespace, each one a
//!   document. Lone UTF-16 surrogates in `\u` escapes become U+FFFD, as Go's
//!   `encoding/json` makes them. As in that decoder, a JSON syntax error
//!   before the second complete document makes the input be read again as
//!   YAML (a superset of JSON, so `{a: 1}` or a JSON document followed by
//!   `---` and YAML still load); when the YAML reading fails on syntax too,
//!   the JSON error is reported. Limit, duplicate-key and number errors of
//!   the JSON reading are final.
//! - **YAML 1.2**, parsed with `saphyr-parser`'s event stream. Documents are
//!   separated by `---`; documents with no content (`---` followed by
//!   nothing, `...`, a file of only comments) are skipped, as kubectl skips
//!   them. An explicit `null` or `~` document is kept (as `Value::Null`). An
//!   empty input gives no documents.
//!
//!   Block-style YAML as CRD generators write it (block mappings and
//!   sequences, plain, quoted and literal scalars, flow sequences of scalars
//!   as mapping values, comments) is first read by a line-based reader
//!   several times faster than `saphyr-parser`. It gives the events
//!   `saphyr-parser` gives, with the same positions, and hands anything else
//!   (anchors, tags, folded scalars, flow mappings, tabs, errors of any
//!   kind) back to `saphyr-parser`, which reads the whole input again. Its
//!   results equal `saphyr-parser`'s on the CRD corpus and on millions of
//!   random edits of it (the `block_reader_*` tests).
//!
//! # Scalars (YAML 1.2 core schema)
//!
//! Plain scalars: `null`, `Null`, `NULL`, `~` and the empty scalar are null;
//! `true`/`True`/`TRUE`/`false`/`False`/`FALSE` are booleans; `[-+]?[0-9]+`,
//! `0x[0-9a-fA-F]+` and `0o[0-7]+` are integers; the core float forms
//! (`1.5`, `.5`, `1.`, `1e3`, `-2.5E-3`) are floats; everything else is a
//! string (so YAML 1.1 forms such as `yes`, `on`, `0777` as octal or `1_000`
//! are strings). Quoted and block scalars are always strings. `.inf`,
//! `-.inf`, `.nan` and floats that overflow `f64` cannot be represented in
//! JSON and are errors naming the location.
//!
//! Numbers are decoded as the API server decodes JSON into unstructured
//! objects: an integer (no fraction, no exponent) that fits in `i64` becomes
//! an `i64` [`serde_json::Number`]; every other number (integers outside the
//! `i64` range, and anything written with `.` or an exponent, such as `1.0`)
//! becomes an `f64`. JSON input follows the same rule.
//!
//! Tags: `!!str`, `!!int`, `!!float`, `!!bool`, `!!null` force (and check) the
//! scalar's type, `!!map` and `!!seq` check a collection's kind, `!!binary`
//! base64-decodes its content into a string (bytes that are not UTF-8 become
//! U+FFFD, as Go's `encoding/json` writes them), and the non-specific tag `!`
//! makes a scalar a string. Any other tag is an error.
//!
//! # Mappings
//!
//! Keys must be scalars; a mapping or sequence used as a key is an error.
//! Non-string keys take the string form `sigs.k8s.io/yaml` gives them: `1: a`
//! has key `"1"`, `true: x` key `"true"`, `0x10: a` key `"16"`, float keys
//! Go's `strconv.FormatFloat(k, 'g', -1, 32)` (`1.5`, `1e+06`, `.inf`); a null
//! key is an error. A key repeated in one mapping is an error,
//! `duplicate key "foo"`, as the API server's strict decoding reports it.
//! Object keys keep their source order.
//!
//! Merge keys (`<<: *base`, `<<: [*a, *b]`, a plain unquoted `<<`) are
//! applied, as go-yaml (and so kubectl) applies them, following the merge-key
//! specification: the merged mappings' entries are added where the `<<` key
//! stands, keys written in the mapping itself win over merged ones wherever
//! they appear (go-yaml v2 lets a merged key override an explicit key written
//! before the `<<`; this does not), and among several merged mappings the
//! first one wins. A merge value that is not a mapping or a sequence of
//! mappings is an error. A quoted `"<<"` is an ordinary key.
//!
//! # Anchors and aliases
//!
//! Aliases are expanded into copies of the anchored node. Anchors do not
//! carry from one document to the next, and an alias inside the node its
//! anchor names is an error. Expansion is budgeted ([`Limits::max_alias_expansion`]
//! nodes and [`Limits::max_alias_bytes`] bytes of string data in total), and
//! the budget is checked *before* each copy, so a "billion laughs" input
//! fails after at most that much work.
//!
//! # Positions
//!
//! [`Location`]s are 1-based lines and 1-based columns counted in Unicode
//! scalar values (characters), after the byte order mark if any. Every node of
//! a [`Document`] has a location in its [`SourceMap`]: a mapping entry's key
//! locates to the key; a sequence item, to the item's first character; a
//! mapping, to its first key (block style) or its `{` (flow style and JSON); a
//! sequence, to its first `-` or its `[`. Nodes produced by an alias locate to the
//! alias (the copy's root) and to the anchored node's positions (below it);
//! merged entries locate to where they are written.
//!
//! # Robustness
//!
//! The builder is iterative (no recursion on input nesting; the block reader
//! recurses on nesting but hands inputs nested deeper than 256 levels to
//! `saphyr-parser`), nodes live in a
//! flat array in document order, and `saphyr-parser` is driven through its
//! iterator API, a state machine with heap-allocated stacks (its recursive
//! `load` is not used). Its scanner rejects flow collections (`[`/`{`) nested
//! more than 255 deep ("recursion limit exceeded"), reported here as a
//! nesting limit; block nesting is bounded by [`Limits::max_depth`]. JSON
//! input does not go through `saphyr-parser` and is bounded by
//! `max_depth` alone.
//!
//! `saphyr-parser` tokenizes a whole flow collection that starts in block
//! context before delivering any of its events, so a large one would be
//! buffered whole (hundreds of bytes per element, gigabytes for a hostile
//! 64 MiB input). The parser reads its input through an `Input`
//! implementation here that counts the indicator characters scanned since the
//! last event and ends the input early past [`Limits::max_yaml_lookahead`].
//! No input was found to make `saphyr-parser` 0.3.4 panic or loop (its known
//! infinite loop on `{---` is fixed in that version), by a differential and
//! random test of the input wrapper against the corpus and generated inputs;
//! no `catch_unwind` is used.

mod block;

use crate::go::fmt::go_quote;
use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;

use saphyr_parser::input::{SkipTabs, is_alpha, is_blank, is_breakz};
use saphyr_parser::{Event, Input, Parser, ScalarStyle, ScanError, StrInput, Tag};
use serde_json::{Map, Number, Value};

/// Resource limits for [`parse_documents`]. Every limit, when hit, gives a
/// [`SourceError`] of kind [`SourceErrorKind::Limit`] whose message names it.
///
/// The defaults accept every real CRD with a wide margin (the largest CRD in
/// common use is about 3 MB, 35,000 nodes, 35 levels deep) and bound the
/// work on hostile input to well under a second and a few hundred MB.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest input accepted, in bytes (byte order mark included).
    /// Default: 64 MiB.
    pub max_bytes: usize,
    /// Deepest nesting of mappings and sequences (JSON objects and arrays)
    /// in one document; a document whose root is a mapping has depth 1.
    /// Default: 1000.
    ///
    /// A schema level costs two levels of YAML nesting (`properties:` and the
    /// property's own mapping), and a CRD adds about six above its schema, so
    /// the default accepts schemas nested about 495 deep and rejects a
    /// 1000-deep schema cleanly here, rather than later in the wire decoder
    /// (whose own limit, `wire::codec::MAX_DEPTH`, is lower still). YAML flow
    /// collections (`[`/`{`) are further limited to 255 levels by
    /// `saphyr-parser`'s scanner; JSON input is not.
    pub max_depth: usize,
    /// Most nodes (scalars, mappings and sequences; a mapping key is not
    /// counted apart from its value) over all documents of one input,
    /// including the copies made by alias expansion. Default: 1,000,000
    /// (some 30 times the largest known CRD, about 20 MB of YAML; peak memory
    /// is up to roughly 400 bytes a node for `check` of a CRD, about 260 for
    /// `validate` of an object).
    pub max_nodes: usize,
    /// Most nodes produced by alias expansion over the whole input.
    /// Default: 250,000.
    pub max_alias_expansion: usize,
    /// Most bytes of string data (keys and string scalars) copied by alias
    /// expansion over the whole input. Default: 64 MiB.
    pub max_alias_bytes: usize,
    /// Most YAML indicator characters (`[ ] { } , : ? & * ! ' "`) that
    /// `saphyr-parser` may scan ahead of the last event it delivered.
    /// Default: 500,000.
    ///
    /// `saphyr-parser` tokenizes a whole flow collection (`[...]`, `{...}`)
    /// that starts in block context before it delivers the collection's first
    /// event (at the root, as a block sequence entry or as a key; not as a
    /// mapping value), at some 150 to 200 bytes per token; this bounds that
    /// buffer (to about 200 MB at worst with the default). It is reached by
    /// such a flow collection of some 2 MB or more, or by a single scalar with
    /// that many indicator characters; comments are not counted. JSON input
    /// is not affected (it is read without `saphyr-parser`).
    pub max_yaml_lookahead: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 64 * 1024 * 1024,
            max_depth: 1000,
            max_nodes: 1_000_000,
            max_alias_expansion: 250_000,
            max_alias_bytes: 64 * 1024 * 1024,
            max_yaml_lookahead: 500_000,
        }
    }
}

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

/// What kind of problem a [`SourceError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceErrorKind {
    /// The input is not UTF-8.
    Encoding,
    /// YAML or JSON syntax, or an alias that cannot be resolved.
    Syntax,
    /// A key repeated within one mapping.
    DuplicateKey,
    /// A scalar or key that cannot be represented: `.inf`/`.nan`, an
    /// out-of-range float, a value that does not match its tag, an unknown
    /// tag, a complex or null key, a bad merge value.
    Value,
    /// A [`Limits`] limit was hit.
    Limit,
}

/// Why an input could not be read. Displays as `file:line:column: message`
/// (just `file: message` when the problem has no position, `line == 0`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", position(.file, *.line, *.column))]
pub struct SourceError {
    /// The display name given to [`parse_documents`].
    pub file: String,
    /// Line, from 1; 0 when the error concerns the whole input.
    pub line: usize,
    /// Column in characters, from 1; 0 when the error concerns the whole
    /// input.
    pub column: usize,
    /// What went wrong, e.g. `duplicate key "foo"`.
    pub message: String,
    /// The class of the problem.
    pub kind: SourceErrorKind,
}

fn position(file: &str, line: usize, column: usize) -> String {
    if line == 0 {
        file.to_string()
    } else {
        format!("{file}:{line}:{column}")
    }
}

impl SourceError {
    /// The error's location, if it has one.
    #[must_use]
    pub fn location(&self) -> Option<Location> {
        (self.line > 0).then_some(Location {
            line: self.line,
            column: self.column,
        })
    }
}

/// Parses `bytes` (YAML or JSON, one or more documents) into JSON values with
/// their source maps. `name` is the display name used in error messages.
///
/// An empty input, or one with only comments and empty documents, gives an
/// empty `Vec`.
///
/// # Errors
///
/// A [`SourceError`] naming `name`, line and column: invalid UTF-8, a syntax
/// error, a duplicate key, a value JSON cannot represent, a bad tag, or an
/// exceeded [`Limits`] limit.
pub fn parse_documents(
    name: &str,
    bytes: &[u8],
    limits: &Limits,
) -> Result<Vec<Document>, SourceError> {
    parse(name, bytes, limits, true)
}

/// [`parse_documents`] without the source maps: every [`Document::map`] is
/// empty (its `start` is kept). Faster and smaller, for callers that do not
/// locate nodes; the values and errors are the same.
///
/// # Errors
///
/// As [`parse_documents`].
pub fn parse_documents_unmapped(
    name: &str,
    bytes: &[u8],
    limits: &Limits,
) -> Result<Vec<Document>, SourceError> {
    let mut docs = parse(name, bytes, limits, false)?;
    for d in &mut docs {
        d.map = SourceMap::default();
    }
    Ok(docs)
}

fn parse(
    name: &str,
    bytes: &[u8],
    limits: &Limits,
    mapped: bool,
) -> Result<Vec<Document>, SourceError> {
    if bytes.len() > limits.max_bytes {
        return Err(SourceError {
            file: name.to_string(),
            line: 0,
            column: 0,
            message: format!(
                "input is {} bytes, more than the size limit of {} bytes",
                bytes.len(),
                limits.max_bytes
            ),
            kind: SourceErrorKind::Limit,
        });
    }
    let (bom, body) = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (3, rest),
        None => (0, bytes),
    };
    let text = match std::str::from_utf8(body) {
        Ok(t) => t,
        Err(e) => return Err(utf8_error(name, bytes, bom, body, e.valid_up_to())),
    };
    let looks_like_json = matches!(
        text.bytes()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n')),
        Some(b'{' | b'[')
    );
    if looks_like_json {
        let mut docs = Vec::new();
        match JsonReader::new(text).read_stream(&mut Builder::new(name, limits), &mut docs) {
            Ok(()) => return Ok(docs),
            // As apimachinery's YAMLOrJSONDecoder: after two good JSON
            // documents the stream is JSON; before, it may be YAML.
            Err(json_err) if json_err.kind == SourceErrorKind::Syntax && docs.len() < 2 => {
                let mut docs = Vec::new();
                return match read_yaml(text, &mut Builder::new(name, limits), &mut docs) {
                    Ok(()) => Ok(docs),
                    // The YAML reading got past the syntax: its error says more.
                    Err(y) if y.error.kind != SourceErrorKind::Syntax && !y.lookahead => {
                        Err(y.error)
                    }
                    Err(_) => Err(json_err),
                };
            }
            Err(e) => return Err(e),
        }
    }
    let mut docs = Vec::new();
    if mapped {
        let mut builder = Builder::new(name, limits);
        if block::read(text, &mut Sink::new(&mut builder, &mut docs)).is_ok() {
            return Ok(docs);
        }
    } else {
        let mut values = block::Values::new(limits);
        if block::read(text, &mut values).is_ok() {
            return Ok(values.docs);
        }
    }
    docs.clear();
    read_yaml(text, &mut Builder::new(name, limits), &mut docs).map_err(|y| y.error)?;
    Ok(docs)
}

fn utf8_error(name: &str, bytes: &[u8], bom: usize, body: &[u8], valid: usize) -> SourceError {
    let prefix = body.get(..valid).unwrap_or_default();
    let line = 1 + prefix.iter().filter(|b| **b == b'\n').count();
    let line_start = prefix
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |p| p + 1);
    let column = 1 + prefix
        .get(line_start..)
        .unwrap_or_default()
        .iter()
        .filter(|b| (**b & 0xC0) != 0x80)
        .count();
    let offset = bom + valid;
    let mut message = format!("invalid UTF-8 at byte offset {offset}");
    if offset == 0 && (bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF")) {
        message.push_str(" (a UTF-16 byte order mark; only UTF-8 input is accepted)");
    }
    SourceError {
        file: name.to_string(),
        line,
        column,
        message,
        kind: SourceErrorKind::Encoding,
    }
}

// ---------------------------------------------------------------------------
// Positions and the source map.

/// A compact position (1-based line and column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pos {
    line: u32,
    col: u32,
}

impl Pos {
    fn new(line: usize, col: usize) -> Pos {
        Pos {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            col: u32::try_from(col).unwrap_or(u32::MAX),
        }
    }

    fn location(self) -> Location {
        Location {
            line: self.line as usize,
            column: self.col as usize,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Scalar,
    Seq,
    Map,
}

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

/// One node, in document (pre-)order. Children of a collection follow it;
/// `size` counts the node and all its descendants, so the next sibling of
/// node `i` is `i + size`.
///
/// Counts and offsets are `u32` (a node is 36 bytes, not 56): the builder
/// refuses inputs with more nodes or key bytes than that addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    size: u32,
    /// Index into the scalar values (scalars only; used while building).
    value: u32,
    /// The key, as a range of the key arena, for entries of a mapping.
    key_start: u32,
    key_len: u32,
    loc: Pos,
    key_loc: Pos,
    kind: Kind,
    /// The entry's key is a merge key (`<<`).
    merge: bool,
}

impl Node {
    /// The node and its descendants.
    fn size(&self) -> usize {
        self.size as usize
    }

    /// The index of its value in the scalars.
    fn value(&self) -> usize {
        self.value as usize
    }

    /// Its key's range in the key arena.
    fn key_range(&self) -> std::ops::Range<usize> {
        let start = self.key_start as usize;
        start..start + self.key_len as usize
    }
}

/// `n` as a [`Node`] field: the builder keeps node counts and key offsets
/// within `u32` ([`Builder::count_nodes`]).
fn narrow(n: usize) -> u32 {
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

// ---------------------------------------------------------------------------
// The document builder, shared by the YAML and JSON readers.

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

struct Builder<'a> {
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
    fn new(file: &'a str, limits: &'a Limits) -> Self {
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

    fn err(&self, at: Pos, kind: SourceErrorKind, message: impl Into<String>) -> SourceError {
        SourceError {
            file: self.file.to_string(),
            line: at.line as usize,
            column: at.col as usize,
            message: message.into(),
            kind,
        }
    }

    fn begin_document(&mut self) {
        self.nodes = Vec::new();
        self.scalars = Vec::new();
        self.keys = String::new();
        self.frames.clear();
        self.anchors.clear();
        self.empty_doc = false;
    }

    /// Whether the next node is a key of the innermost mapping.
    fn expects_key(&self) -> bool {
        matches!(self.frames.last(), Some(f) if f.kind == Kind::Map && f.key.is_none())
    }

    fn top_kind(&self) -> Option<Kind> {
        self.frames.last().map(|f| f.kind)
    }

    fn set_key(&mut self, key: &str, loc: Pos, merge: bool) {
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

    fn push_scalar(&mut self, value: Value, loc: Pos) -> Result<usize, SourceError> {
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

    fn open(&mut self, kind: Kind, loc: Pos, anchor: usize) -> Result<(), SourceError> {
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

    fn close(&mut self) {
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
    fn alias_key(&mut self, id: usize, at: Pos) -> Result<(), SourceError> {
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
    fn alias_value(&mut self, id: usize, at: Pos) -> Result<(), SourceError> {
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
    fn finish_document(&mut self, start: Pos) -> Result<Option<Document>, SourceError> {
        self.frames.clear();
        self.anchors.clear();
        if self.nodes.is_empty() || self.empty_doc {
            return Ok(None);
        }
        let value = self.build_value()?;
        let map = SourceMap {
            nodes: std::mem::take(&mut self.nodes),
            keys: std::mem::take(&mut self.keys),
        };
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
                        end,
                        node: n,
                        content: Content::Seq(Vec::with_capacity(self.children(i, end))),
                    });
                    None
                }
                Kind::Map => {
                    let end = i - 1 + n.size();
                    stack.push(Open {
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
                                return Err(self.err(
                                    node.key_loc,
                                    SourceErrorKind::DuplicateKey,
                                    format!("duplicate key {}", go_quote(key)),
                                ));
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

// ---------------------------------------------------------------------------
// YAML.

/// Why reading YAML failed: the error, and whether it is the look-ahead
/// limit (which the JSON fallback does not report).
struct YamlFailure {
    error: SourceError,
    lookahead: bool,
}

impl From<SourceError> for YamlFailure {
    fn from(error: SourceError) -> Self {
        YamlFailure {
            error,
            lookahead: false,
        }
    }
}

/// Feeds YAML events, from `saphyr-parser` or from the block reader, to a
/// [`Builder`], collecting the finished documents.
struct Sink<'s, 'a> {
    b: &'s mut Builder<'a>,
    docs: &'s mut Vec<Document>,
    doc_start: Pos,
    in_doc: bool,
}

impl<'s, 'a> Sink<'s, 'a> {
    fn new(b: &'s mut Builder<'a>, docs: &'s mut Vec<Document>) -> Self {
        Sink {
            b,
            docs,
            doc_start: Pos::new(1, 1),
            in_doc: false,
        }
    }

    /// One event, which starts at `at`.
    fn event(&mut self, event: Event<'_>, at: Pos) -> Result<(), SourceError> {
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

fn read_yaml(text: &str, b: &mut Builder<'_>, docs: &mut Vec<Document>) -> Result<(), YamlFailure> {
    let watch = Lookahead {
        limit: b.limits.max_yaml_lookahead,
        ahead: Cell::new(0),
        cut_at: Cell::new(None),
    };
    let mut parser = Parser::new(GuardedInput {
        text,
        rest: text,
        lookahead: 0,
        watch: &watch,
    });
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
                    .b
                    .err(pos_at(text, offset), SourceErrorKind::Limit, message),
                lookahead: true,
            });
        }
        watch.ahead.set(0);
        let (event, span) = next.map_err(|e| scan_error(sink.b, &e))?;
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

/// What `saphyr-parser` has scanned since the last event it delivered,
/// shared between [`GuardedInput`] and the event loop.
struct Lookahead {
    limit: usize,
    /// Indicator characters consumed since the last event.
    ahead: Cell<usize>,
    /// Where the input was cut off, once the limit was hit.
    cut_at: Cell<Option<usize>>,
}

/// `saphyr-parser`'s input over a `&str`, as its `StrInput` (which answers
/// every look-up here), that counts the indicator characters the scanner
/// consumes and ends the input early when [`Lookahead::limit`] is exceeded.
///
/// The consuming methods are implemented here (so the position is known);
/// they behave as `StrInput`'s.
struct GuardedInput<'a> {
    text: &'a str,
    rest: &'a str,
    lookahead: usize,
    watch: &'a Lookahead,
}

/// Characters that start (or separate) tokens in flow context; the tokens
/// the scanner can buffer are bounded by a small multiple of their number.
fn is_indicator(b: u8) -> bool {
    matches!(
        b,
        b'[' | b']' | b'{' | b'}' | b',' | b':' | b'?' | b'&' | b'*' | b'!' | b'\'' | b'"'
    )
}

fn is_yaml_non_break(c: char) -> bool {
    !is_breakz(c) && c != '\u{FEFF}'
}

impl<'a> GuardedInput<'a> {
    fn view(&self) -> StrInput<'a> {
        StrInput::new(self.rest)
    }

    /// Consumes `bytes` bytes (a char boundary), counting indicators unless
    /// they are comment text.
    fn advance(&mut self, bytes: usize, count: bool) {
        let Some((done, rest)) = self.rest.split_at_checked(bytes) else {
            return;
        };
        self.rest = rest;
        if count {
            self.count(done.bytes().filter(|b| is_indicator(*b)).count());
        }
    }

    /// Consumes the next character.
    #[inline]
    fn advance_char(&mut self) {
        match self.rest.as_bytes().first() {
            None => {}
            Some(&b) if b.is_ascii() => {
                self.rest = self.rest.get(1..).unwrap_or_default();
                if is_indicator(b) {
                    self.count(1);
                }
            }
            Some(_) => {
                let n = self.rest.chars().next().map_or(0, char::len_utf8);
                self.advance(n, true);
            }
        }
    }

    /// Adds `n` indicators to the count; past the limit, ends the input.
    #[inline]
    fn count(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        let ahead = self.watch.ahead.get().saturating_add(n);
        self.watch.ahead.set(ahead);
        if ahead > self.watch.limit {
            self.watch
                .cut_at
                .set(Some(self.text.len() - self.rest.len()));
            self.rest = "";
        }
    }

    /// The byte length of the longest prefix whose chars satisfy `f`, and
    /// its length in chars.
    fn run_while(&self, f: impl Fn(char) -> bool) -> (usize, usize) {
        let mut bytes = 0;
        let mut chars = 0;
        for c in self.rest.chars() {
            if !f(c) {
                break;
            }
            bytes += c.len_utf8();
            chars += 1;
        }
        (bytes, chars)
    }
}

impl Input for GuardedInput<'_> {
    fn lookahead(&mut self, count: usize) {
        self.lookahead = self.lookahead.max(count);
    }

    fn buflen(&self) -> usize {
        self.lookahead
    }

    fn bufmaxlen(&self) -> usize {
        self.view().bufmaxlen()
    }

    fn buf_is_empty(&self) -> bool {
        self.lookahead == 0
    }

    fn raw_read_ch(&mut self) -> char {
        let c = self.rest.chars().next();
        self.advance_char();
        c.unwrap_or('\0')
    }

    fn raw_read_non_breakz_ch(&mut self) -> Option<char> {
        let c = self.rest.chars().next().filter(|c| is_yaml_non_break(*c))?;
        self.advance_char();
        Some(c)
    }

    fn skip(&mut self) {
        self.advance_char();
    }

    fn skip_n(&mut self, count: usize) {
        let n = self
            .rest
            .char_indices()
            .nth(count)
            .map_or(self.rest.len(), |(i, _)| i);
        self.advance(n, true);
    }

    fn peek(&self) -> char {
        self.view().peek()
    }

    fn peek_nth(&self, n: usize) -> char {
        self.view().peek_nth(n)
    }

    fn peek_opt(&self) -> Option<char> {
        self.view().peek_opt()
    }

    fn look_ch(&mut self) -> char {
        self.lookahead(1);
        self.peek()
    }

    fn next_char_is(&self, c: char) -> bool {
        self.view().next_char_is(c)
    }

    fn nth_char_is(&self, n: usize, c: char) -> bool {
        self.view().nth_char_is(n, c)
    }

    fn next_2_are(&self, c1: char, c2: char) -> bool {
        self.view().next_2_are(c1, c2)
    }

    fn next_3_are(&self, c1: char, c2: char, c3: char) -> bool {
        self.view().next_3_are(c1, c2, c3)
    }

    fn next_is_document_indicator(&self) -> bool {
        self.view().next_is_document_indicator()
    }

    fn next_is_document_start(&self) -> bool {
        self.view().next_is_document_start()
    }

    fn next_is_document_end(&self) -> bool {
        self.view().next_is_document_end()
    }

    fn skip_ws_to_eol(&mut self, skip_tabs: SkipTabs) -> (usize, Result<SkipTabs, &'static str>) {
        let tabs = skip_tabs == SkipTabs::Yes;
        let mut has_ws = false;
        let mut has_tab = false;
        let mut len = 0;
        for b in self.rest.bytes() {
            match b {
                b' ' => has_ws = true,
                b'\t' if tabs => has_tab = true,
                _ => break,
            }
            len += 1;
        }
        self.advance(len, true);
        let mut consumed = len;
        if self.rest.starts_with('#') {
            if !has_ws && !has_tab {
                return (
                    consumed,
                    Err("comments must be separated from other tokens by whitespace"),
                );
            }
            let (bytes, chars) = self.run_while(is_yaml_non_break);
            self.advance(bytes, false);
            consumed += chars;
        }
        (consumed, Ok(SkipTabs::Result(has_tab, has_ws)))
    }

    fn next_can_be_plain_scalar(&self, in_flow: bool) -> bool {
        self.view().next_can_be_plain_scalar(in_flow)
    }

    fn next_is_blank_or_break(&self) -> bool {
        self.view().next_is_blank_or_break()
    }

    fn next_is_blank_or_breakz(&self) -> bool {
        self.view().next_is_blank_or_breakz()
    }

    fn next_is_blank(&self) -> bool {
        self.view().next_is_blank()
    }

    fn next_is_break(&self) -> bool {
        self.view().next_is_break()
    }

    fn next_is_breakz(&self) -> bool {
        self.view().next_is_breakz()
    }

    fn next_is_z(&self) -> bool {
        self.view().next_is_z()
    }

    fn next_is_flow(&self) -> bool {
        self.view().next_is_flow()
    }

    fn next_is_digit(&self) -> bool {
        self.view().next_is_digit()
    }

    fn next_is_alpha(&self) -> bool {
        self.view().next_is_alpha()
    }

    /// Used for comments: not counted.
    fn skip_while_non_breakz(&mut self) -> usize {
        let (bytes, chars) = self.run_while(is_yaml_non_break);
        self.advance(bytes, false);
        chars
    }

    fn skip_while_blank(&mut self) -> usize {
        let (bytes, _) = self.run_while(is_blank);
        self.advance(bytes, true);
        bytes
    }

    fn fetch_while_is_alpha(&mut self, out: &mut String) -> usize {
        let (bytes, _) = self.run_while(is_alpha);
        out.push_str(self.rest.get(..bytes).unwrap_or_default());
        self.advance(bytes, true);
        bytes
    }

    fn fetch_while_is_yaml_non_space(&mut self, out: &mut String) -> usize {
        let (bytes, _) = self.run_while(|c| is_yaml_non_break(c) && !is_blank(c));
        out.push_str(self.rest.get(..bytes).unwrap_or_default());
        self.advance(bytes, true);
        bytes
    }
}

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
            b.anchors
                .insert(anchor, Anchor::Key(resolved.into_static()));
        }
        return Ok(());
    }
    if b.nodes.is_empty()
        && b.frames.is_empty()
        && plain
        && t == TagKind::None
        && anchor == 0
        && text.is_empty()
    {
        b.empty_doc = true;
    }
    let resolved =
        resolve(text, plain, t, tag).map_err(|m| b.err(at, SourceErrorKind::Value, m))?;
    let value = resolved
        .into_value()
        .map_err(|m| b.err(at, SourceErrorKind::Value, m))?;
    let idx = b.push_scalar(value, at)?;
    if anchor != 0 {
        b.anchors.insert(
            anchor,
            Anchor::Node {
                start: idx,
                len: 1,
                height: 0,
            },
        );
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagKind {
    None,
    NonSpecific,
    Str,
    Int,
    Float,
    Bool,
    Null,
    Binary,
    Map,
    Seq,
}

const CORE: &str = "tag:yaml.org,2002:";

fn tag_name(tag: Option<&Tag>) -> String {
    match tag {
        None => String::new(),
        Some(t) if t.handle == CORE => format!("!!{}", t.suffix),
        Some(t) if t.handle.is_empty() && t.suffix == "!" => "!".to_string(),
        Some(t) if t.handle.is_empty() => format!("!<{}>", t.suffix),
        Some(t) => format!("{}{}", t.handle, t.suffix),
    }
}

fn classify_tag(tag: Option<&Tag>) -> Result<TagKind, String> {
    let Some(t) = tag else {
        return Ok(TagKind::None);
    };
    if t.handle.is_empty() && t.suffix == "!" {
        return Ok(TagKind::NonSpecific);
    }
    // `!!int` arrives as (CORE, "int"); `!<tag:yaml.org,2002:int>` as ("", full).
    let name = if t.handle == CORE {
        Some(t.suffix.as_str())
    } else if t.handle.is_empty() {
        t.suffix.strip_prefix(CORE)
    } else {
        None
    };
    Ok(match name {
        Some("str") => TagKind::Str,
        Some("int") => TagKind::Int,
        Some("float") => TagKind::Float,
        Some("bool") => TagKind::Bool,
        Some("null") => TagKind::Null,
        Some("binary") => TagKind::Binary,
        Some("map") => TagKind::Map,
        Some("seq") => TagKind::Seq,
        _ => return Err(format!("unknown tag {}", tag_name(tag))),
    })
}

/// A resolved scalar, before conversion to JSON (floats may not be finite).
#[derive(Clone, Debug, PartialEq)]
enum Resolved<'t> {
    Null,
    Bool(bool),
    Int(i64),
    /// A float, with its source text for messages.
    Float(f64, Cow<'t, str>),
    Str(Cow<'t, str>),
}

impl Resolved<'_> {
    fn into_static(self) -> Resolved<'static> {
        match self {
            Resolved::Null => Resolved::Null,
            Resolved::Bool(b) => Resolved::Bool(b),
            Resolved::Int(i) => Resolved::Int(i),
            Resolved::Float(f, t) => Resolved::Float(f, Cow::Owned(t.into_owned())),
            Resolved::Str(s) => Resolved::Str(Cow::Owned(s.into_owned())),
        }
    }

    fn into_value(self) -> Result<Value, String> {
        Ok(match self {
            Resolved::Null => Value::Null,
            Resolved::Bool(b) => Value::Bool(b),
            Resolved::Int(i) => Value::Number(i.into()),
            Resolved::Float(f, text) => match Number::from_f64(f) {
                Some(n) => Value::Number(n),
                None if f.is_nan() || is_inf_literal(&text) => {
                    return Err(format!("{text} cannot be represented in JSON"));
                }
                None => return Err(format!("number {text} is out of the range of a float64")),
            },
            Resolved::Str(s) => Value::String(s.into_owned()),
        })
    }
}

fn is_inf_literal(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    matches!(s, ".inf" | ".Inf" | ".INF")
}

fn resolve<'t>(
    text: Cow<'t, str>,
    plain: bool,
    tag: TagKind,
    raw_tag: Option<&Tag>,
) -> Result<Resolved<'t>, String> {
    let bad = |text: &str| {
        format!(
            "invalid value {} for tag {}",
            go_quote(text),
            tag_name(raw_tag)
        )
    };
    match tag {
        TagKind::None if plain => Ok(resolve_plain(text)),
        TagKind::None | TagKind::NonSpecific | TagKind::Str => Ok(Resolved::Str(text)),
        TagKind::Int => match core_int(&text) {
            Some(r) => Ok(r),
            None => Err(bad(&text)),
        },
        TagKind::Float => match core_int(&text) {
            Some(Resolved::Int(i)) => Ok(Resolved::Float(i as f64, text)),
            Some(r) => Ok(r),
            None => match core_float(&text) {
                Some(f) => Ok(Resolved::Float(f, text)),
                None => Err(bad(&text)),
            },
        },
        TagKind::Bool => match core_bool(&text) {
            Some(v) => Ok(Resolved::Bool(v)),
            None => Err(bad(&text)),
        },
        TagKind::Null => {
            if is_core_null(&text) {
                Ok(Resolved::Null)
            } else {
                Err(bad(&text))
            }
        }
        TagKind::Binary => match crate::go::formats::base64_std_decode(&text) {
            Some(bytes) => Ok(Resolved::Str(Cow::Owned(lossy_utf8(&bytes)))),
            None => Err(format!(
                "invalid base64 data for tag !!binary: {}",
                go_quote(&text)
            )),
        },
        TagKind::Map | TagKind::Seq => Err(format!(
            "tag {} cannot be applied to a scalar",
            tag_name(raw_tag)
        )),
    }
}

/// The YAML 1.2 core schema for plain scalars.
fn resolve_plain(text: Cow<'_, str>) -> Resolved<'_> {
    match text.as_bytes().first() {
        None => return Resolved::Null,
        Some(b'0'..=b'9' | b'+' | b'-' | b'.' | b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F') => {
        }
        Some(_) => return Resolved::Str(text),
    }
    if is_core_null(&text) {
        return Resolved::Null;
    }
    if let Some(b) = core_bool(&text) {
        return Resolved::Bool(b);
    }
    if let Some(r) = core_int(&text) {
        return match r {
            Resolved::Float(f, _) => Resolved::Float(f, text),
            r => r,
        };
    }
    if let Some(f) = core_float(&text) {
        return Resolved::Float(f, text);
    }
    Resolved::Str(text)
}

fn is_core_null(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

fn core_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// A core-schema integer: `Int` when it fits in `i64`, else `Float`.
fn core_int(s: &str) -> Option<Resolved<'static>> {
    if let Some(hex) = s.strip_prefix("0x") {
        return radix_int(hex, 16);
    }
    if let Some(oct) = s.strip_prefix("0o") {
        return radix_int(oct, 8);
    }
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match s.parse::<i64>() {
        Ok(i) => Some(Resolved::Int(i)),
        Err(_) => Some(Resolved::Float(
            s.parse::<f64>().unwrap_or(f64::INFINITY),
            Cow::Owned(s.to_string()),
        )),
    }
}

fn radix_int(digits: &str, radix: u32) -> Option<Resolved<'static>> {
    if digits.is_empty() {
        return None;
    }
    let mut exact: Option<i64> = Some(0);
    let mut approx = 0f64;
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        exact = exact
            .and_then(|v| v.checked_mul(i64::from(radix)))
            .and_then(|v| v.checked_add(i64::from(d)));
        approx = approx * f64::from(radix) + f64::from(d);
    }
    Some(match exact {
        Some(i) => Resolved::Int(i),
        None => Resolved::Float(approx, Cow::Owned(digits.to_string())),
    })
}

/// A core-schema float (including `.inf` and `.nan`).
fn core_float(s: &str) -> Option<f64> {
    match s {
        ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
        _ => {}
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Some(if s.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    let b = unsigned.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let int_digits = digits(&mut i);
    if b.get(i) == Some(&b'.') {
        i += 1;
        let frac = digits(&mut i);
        if int_digits == 0 && frac == 0 {
            return None;
        }
    } else if int_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    s.parse::<f64>().ok()
}

/// The string form `sigs.k8s.io/yaml` gives a non-string key.
fn key_string<'t>(r: &'t Resolved<'_>) -> Result<Cow<'t, str>, String> {
    Ok(match r {
        Resolved::Str(s) => Cow::Borrowed(s.as_ref()),
        Resolved::Int(i) => Cow::Owned(i.to_string()),
        Resolved::Float(f, _) => Cow::Owned(go_format_float32(*f)),
        Resolved::Bool(b) => Cow::Borrowed(if *b { "true" } else { "false" }),
        Resolved::Null => return Err("mapping keys must not be null".into()),
    })
}

fn key_from_value(v: &Value) -> Result<Cow<'_, str>, String> {
    match v {
        Value::String(s) => Ok(Cow::Borrowed(s)),
        Value::Number(n) => Ok(Cow::Owned(match n.as_i64() {
            Some(i) => i.to_string(),
            None => go_format_float32(n.as_f64().unwrap_or(f64::NAN)),
        })),
        Value::Bool(b) => Ok(Cow::Borrowed(if *b { "true" } else { "false" })),
        Value::Null => Err("mapping keys must not be null".into()),
        Value::Array(_) | Value::Object(_) => {
            Err("mapping keys must be scalars, found an alias to a collection".into())
        }
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`, with go-yaml's names for the
/// non-finite values.
fn go_format_float32(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_string();
    }
    #[allow(clippy::cast_possible_truncation)]
    let x = f as f32;
    if x.is_infinite() {
        return if x > 0.0 { ".inf" } else { "-.inf" }.to_string();
    }
    // Shortest round-trip digits for f32, e.g. "-1.2345e-7".
    let sci = format!("{x:e}");
    let (neg, sci) = match sci.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, sci.as_str()),
    };
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if !(-4..6).contains(&exp) {
        let mut chars = digits.chars();
        if let Some(first) = chars.next() {
            out.push(first);
        }
        let rest: String = chars.collect();
        if !rest.is_empty() {
            out.push('.');
            out.push_str(&rest);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let e = exp.unsigned_abs();
        if e < 10 {
            out.push('0');
        }
        out.push_str(&e.to_string());
    } else if exp >= 0 {
        let int_len = usize::try_from(exp).unwrap_or(0) + 1;
        for k in 0..int_len {
            out.push(digits.as_bytes().get(k).map_or('0', |b| char::from(*b)));
        }
        if let Some(frac) = digits.get(int_len..).filter(|f| !f.is_empty()) {
            out.push('.');
            out.push_str(frac);
        }
    } else {
        out.push_str("0.");
        for _ in 0..(exp.unsigned_abs() - 1) {
            out.push('0');
        }
        out.push_str(&digits);
    }
    out
}

/// Bytes as a string, each byte of an invalid sequence replaced by U+FFFD
/// (as Go's `encoding/json` writes invalid UTF-8).
fn lossy_utf8(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for _ in chunk.invalid() {
            out.push('\u{FFFD}');
        }
    }
    out
}

// ---------------------------------------------------------------------------
// JSON.

/// A strict, iterative JSON stream reader with positions.
struct JsonReader<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    line: usize,
    /// Characters consumed on the current line.
    col: usize,
}

#[derive(Clone, Copy)]
enum JsonState {
    Value,
    Key,
    AfterValue,
}

impl<'t> JsonReader<'t> {
    fn new(text: &'t str) -> Self {
        JsonReader {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            line: 1,
            col: 0,
        }
    }

    fn here(&self) -> Pos {
        Pos::new(self.line, self.col + 1)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Steps over one ASCII byte that is not a line break.
    fn bump(&mut self) {
        self.pos += 1;
        self.col += 1;
    }

    /// Steps over `s`, which holds no line break.
    fn advance_over(&mut self, s: &str) {
        self.pos += s.len();
        self.col += s.chars().count();
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\r' => self.bump(),
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    self.col = 0;
                }
                _ => break,
            }
        }
    }

    fn syntax(&self, b: &Builder<'_>, context: &str) -> SourceError {
        let message = match self.text.get(self.pos..).and_then(|r| r.chars().next()) {
            None => "unexpected end of JSON input".to_string(),
            Some(c) => format!("invalid character {c:?} {context}"),
        };
        b.err(self.here(), SourceErrorKind::Syntax, message)
    }

    fn read_stream(
        &mut self,
        b: &mut Builder<'_>,
        docs: &mut Vec<Document>,
    ) -> Result<(), SourceError> {
        loop {
            self.skip_ws();
            if self.peek().is_none() {
                return Ok(());
            }
            let start = self.here();
            b.begin_document();
            self.read_value(b)?;
            if let Some(doc) = b.finish_document(start)? {
                docs.push(doc);
            }
        }
    }

    fn read_value(&mut self, b: &mut Builder<'_>) -> Result<(), SourceError> {
        let mut state = JsonState::Value;
        loop {
            match state {
                JsonState::Value => {
                    self.skip_ws();
                    let at = self.here();
                    match self.peek() {
                        Some(b'{') => {
                            self.bump();
                            b.open(Kind::Map, at, 0)?;
                            self.skip_ws();
                            if self.peek() == Some(b'}') {
                                self.bump();
                                b.close();
                                state = JsonState::AfterValue;
                            } else {
                                state = JsonState::Key;
                            }
                        }
                        Some(b'[') => {
                            self.bump();
                            b.open(Kind::Seq, at, 0)?;
                            self.skip_ws();
                            if self.peek() == Some(b']') {
                                self.bump();
                                b.close();
                                state = JsonState::AfterValue;
                            }
                        }
                        Some(b'"') => {
                            let s = self.string(b)?;
                            b.push_scalar(Value::String(s.into_owned()), at)?;
                            state = JsonState::AfterValue;
                        }
                        Some(b'-' | b'0'..=b'9') => {
                            let v = self.number(b)?;
                            b.push_scalar(v, at)?;
                            state = JsonState::AfterValue;
                        }
                        Some(b't') => {
                            self.literal(b, "true")?;
                            b.push_scalar(Value::Bool(true), at)?;
                            state = JsonState::AfterValue;
                        }
                        Some(b'f') => {
                            self.literal(b, "false")?;
                            b.push_scalar(Value::Bool(false), at)?;
                            state = JsonState::AfterValue;
                        }
                        Some(b'n') => {
                            self.literal(b, "null")?;
                            b.push_scalar(Value::Null, at)?;
                            state = JsonState::AfterValue;
                        }
                        _ => return Err(self.syntax(b, "looking for beginning of value")),
                    }
                }
                JsonState::Key => {
                    self.skip_ws();
                    let at = self.here();
                    if self.peek() != Some(b'"') {
                        return Err(self.syntax(b, "looking for beginning of object key string"));
                    }
                    let k = self.string(b)?;
                    b.set_key(&k, at, false);
                    self.skip_ws();
                    if self.peek() != Some(b':') {
                        return Err(self.syntax(b, "after object key"));
                    }
                    self.bump();
                    state = JsonState::Value;
                }
                JsonState::AfterValue => {
                    let Some(kind) = b.top_kind() else {
                        return Ok(());
                    };
                    self.skip_ws();
                    match (kind, self.peek()) {
                        (Kind::Map, Some(b',')) => {
                            self.bump();
                            state = JsonState::Key;
                        }
                        (Kind::Seq, Some(b',')) => {
                            self.bump();
                            state = JsonState::Value;
                        }
                        (Kind::Map, Some(b'}')) | (Kind::Seq, Some(b']')) => {
                            self.bump();
                            b.close();
                        }
                        (Kind::Map, _) => {
                            return Err(self.syntax(b, "after object key:value pair"));
                        }
                        _ => return Err(self.syntax(b, "after array element")),
                    }
                }
            }
        }
    }

    fn literal(&mut self, b: &Builder<'_>, word: &str) -> Result<(), SourceError> {
        for expected in word.bytes() {
            if self.peek() != Some(expected) {
                let context = format!("in literal {word} (expecting {:?})", char::from(expected));
                return Err(self.syntax(b, &context));
            }
            self.bump();
        }
        Ok(())
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        self.pos - start
    }

    fn number(&mut self, b: &Builder<'_>) -> Result<Value, SourceError> {
        let start = self.pos;
        let at = self.here();
        if self.peek() == Some(b'-') {
            self.bump();
        }
        match self.peek() {
            Some(b'0') => self.bump(),
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.syntax(b, "in numeric literal")),
        }
        let mut float = false;
        if self.peek() == Some(b'.') {
            self.bump();
            float = true;
            if self.digits() == 0 {
                return Err(self.syntax(b, "after decimal point in numeric literal"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.bump();
            float = true;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.bump();
            }
            if self.digits() == 0 {
                return Err(self.syntax(b, "in exponent of numeric literal"));
            }
        }
        let text = self.text.get(start..self.pos).unwrap_or_default();
        if !float {
            if let Ok(i) = text.parse::<i64>() {
                return Ok(Value::Number(i.into()));
            }
        }
        text.parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| {
                b.err(
                    at,
                    SourceErrorKind::Value,
                    format!("number {text} is out of the range of a float64"),
                )
            })
    }

    /// Reads a string literal (at its opening quote).
    fn string(&mut self, b: &Builder<'_>) -> Result<Cow<'t, str>, SourceError> {
        self.bump();
        let start = self.pos;
        let rest = self.bytes.get(start..).unwrap_or_default();
        let stop = rest
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20);
        let Some(stop) = stop else {
            let run = self.text.get(start..).unwrap_or_default();
            self.advance_over(run);
            return Err(self.syntax(b, ""));
        };
        let run = self.text.get(start..start + stop).unwrap_or_default();
        self.advance_over(run);
        if self.peek() == Some(b'"') {
            self.bump();
            return Ok(Cow::Borrowed(run));
        }
        let mut out = String::from(run);
        loop {
            let from = self.pos;
            let rest = self.bytes.get(from..).unwrap_or_default();
            let stop = rest
                .iter()
                .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
                .unwrap_or(rest.len());
            let run = self.text.get(from..from + stop).unwrap_or_default();
            out.push_str(run);
            self.advance_over(run);
            match self.peek() {
                None => return Err(self.syntax(b, "")),
                Some(b'"') => {
                    self.bump();
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.bump();
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.bump();
                            let hi = self.hex4(b)?;
                            out.push(self.surrogate_pair(hi));
                            continue;
                        }
                        _ => return Err(self.syntax(b, "in string escape code")),
                    };
                    self.bump();
                    out.push(c);
                }
                Some(_) => return Err(self.syntax(b, "in string literal")),
            }
        }
    }

    fn hex4(&mut self, b: &Builder<'_>) -> Result<u32, SourceError> {
        let mut v = 0;
        for _ in 0..4 {
            let d = self.peek().and_then(|c| char::from(c).to_digit(16));
            let Some(d) = d else {
                return Err(self.syntax(b, "in \\u hexadecimal character escape"));
            };
            v = v * 16 + d;
            self.bump();
        }
        Ok(v)
    }

    /// The character for `\uXXXX` = `hi` (already read), combining a
    /// following low surrogate; an unpaired surrogate becomes U+FFFD.
    fn surrogate_pair(&mut self, hi: u32) -> char {
        if (0xD800..0xDC00).contains(&hi) {
            let next = self.bytes.get(self.pos..self.pos + 6);
            if let Some([b'\\', b'u', h @ ..]) = next {
                let lo = h.iter().try_fold(0u32, |acc, c| {
                    char::from(*c).to_digit(16).map(|d| acc * 16 + d)
                });
                if let Some(lo) = lo.filter(|lo| (0xDC00..0xE000).contains(lo)) {
                    for _ in 0..6 {
                        self.bump();
                    }
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return char::from_u32(c).unwrap_or('\u{FFFD}');
                }
            }
        }
        char::from_u32(hi).unwrap_or('\u{FFFD}')
    }
}

#[cfg(test)]
mod tests;
