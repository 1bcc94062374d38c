//! A step from a schema node to one of its child schema nodes.

/// One step from a schema node to a child schema node: a property's
/// schema, the schema of a list's items, or that of a map's values
/// (`additionalProperties`).
///
/// `P` is how a property's name is held: `String` where the steps are
/// kept, `&str` where they are borrowed from the schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemaStep<P> {
    /// The schema of the property named so (`properties[name]`).
    Property(P),
    /// The schema of a list's items (`items`).
    Items,
    /// The schema of a map's values (`additionalProperties`).
    AdditionalProperties,
}
