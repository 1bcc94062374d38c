//! The resource limits an input is read within ([`Limits`]), which bound
//! the time and memory any input, however hostile, can cost.

/// Resource limits for [`parse_documents`]. Every limit, when hit, gives a
/// [`SourceError`] of kind [`SourceErrorKind::Limit`] whose message names it.
///
/// [`parse_documents`]: super::parse_documents
/// [`SourceError`]: super::SourceError
/// [`SourceErrorKind::Limit`]: super::SourceErrorKind::Limit
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
    /// (whose own limit, `wire::codec::MAX_SCHEMA_NESTING`, is lower
    /// still). YAML flow collections (`[`/`{`) are further limited to 255
    /// levels by `saphyr-parser`'s scanner; JSON input is not.
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
