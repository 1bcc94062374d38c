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
//! key is an error. A key repeated in one mapping is an error at the repeat,
//! worded as kubectl's strict decoding words it
//! (`mapping key "foo" already defined at line 3`), with the first
//! occurrence's position in [`SourceError::earlier`].
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
//!
//! # Layout
//!
//! This module holds the entry points and picks the reader. Below it, each
//! file one step of reading, lower ones first:
//!
//! - `source_map`: [`Location`], [`PathSegment`], [`Document`] and its
//!   [`SourceMap`] (the node records the builder writes);
//! - `error`: [`SourceError`]; `limits`: [`Limits`];
//! - `resolve`: YAML scalars and tags into JSON values;
//! - `builder`: nodes staged on a tape, then the value and source map;
//! - `block`: the line-based reader of block-style YAML and the `Events`
//!   it reports; `sink` (events into the builder, with source maps) and
//!   `values` (events into values alone) consume them;
//! - `guarded_input` and `yaml`: reading YAML with `saphyr-parser`;
//! - `json`: the JSON reader.

mod block;
mod builder;
mod error;
mod guarded_input;
mod json;
mod limits;
mod resolve;
mod sink;
mod source_map;
mod values;
mod yaml;

pub use error::{SourceError, SourceErrorKind};
pub use limits::Limits;
pub use source_map::{Document, Location, PathSegment, SourceMap};

use builder::Builder;
use json::JsonReader;
use sink::Sink;
use values::Values;
use yaml::read_yaml;

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
            earlier: None,
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
        let mut values = Values::new(limits);
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
        earlier: None,
    }
}

#[cfg(test)]
mod tests;
