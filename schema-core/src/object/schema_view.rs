//! Schema views for the walks that follow a structural schema through an
//! object (pruning, defaulting, metadata coercion and validation, list
//! checks).
//!
//! Every such walk looks each object key up in the schema node's
//! properties. A [`View`] does that lookup either on the [`Structural`]
//! itself (an `IndexMap` with SipHash: fine for one-off walks) or, when the
//! schema was prepared once as an [`IndexedSchema`], in a name table built
//! once per schema (see `names.rs`). A prepared view also knows, per
//! node, whether anything at or below it has a default, is an embedded
//! resource or has a list type to check, so walks skip subtrees where they
//! have nothing to do. Skipping is exact: the walks only act at such nodes.

use crate::model::structural::Structural;
use crate::object::name_table::NameTable;

/// The prepared lookups and summaries of one schema node.
#[derive(Debug, Default)]
struct Node {
    /// Property names to their indexes in `Structural::properties`.
    names: NameTable,
    /// Parallel to the node's properties.
    props: Vec<Node>,
    items: Option<Box<Node>>,
    /// The schema of `additionalProperties`, when it has one.
    additional: Option<Box<Node>>,
    /// The indexes of the properties that have a default, in order.
    defaulted: Vec<usize>,
    /// A node strictly below this one has a default.
    defaults_below: bool,
    /// This node or one below is an embedded resource.
    embedded: bool,
    /// This node or one below has `x-kubernetes-list-type` `set` or `map`.
    lists: bool,
    /// A node strictly below this one is an embedded resource.
    embedded_below: bool,
}

impl Node {
    fn build(s: &Structural) -> Node {
        let props: Vec<Node> = s.properties.values().map(Node::build).collect();
        let names = NameTable::new(s.properties.keys().map(String::as_str));
        let items = s.items.as_deref().map(|i| Box::new(Node::build(i)));
        let additional = s
            .generic
            .additional_properties
            .as_ref()
            .and_then(|a| a.structural.as_deref())
            .map(|a| Box::new(Node::build(a)));
        let defaulted: Vec<usize> = s
            .properties
            .values()
            .enumerate()
            .filter(|(_, p)| p.generic.default.is_some())
            .map(|(i, _)| i)
            .collect();
        let children = || {
            props
                .iter()
                .chain(items.as_deref())
                .chain(additional.as_deref())
        };
        let child_has_default = s.items.as_deref().is_some_and(has_default)
            || s.generic
                .additional_properties
                .as_ref()
                .and_then(|a| a.structural.as_deref())
                .is_some_and(has_default);
        let defaults_below =
            !defaulted.is_empty() || child_has_default || children().any(|c| c.defaults_below);
        let embedded_below = children().any(|c| c.embedded);
        let embedded = s.extensions.embedded_resource || embedded_below;
        let lists = matches!(s.extensions.list_type.as_deref(), Some("set" | "map"))
            || children().any(|c| c.lists);
        Node {
            names,
            props,
            items,
            additional,
            defaulted,
            defaults_below,
            embedded,
            lists,
            embedded_below,
        }
    }
}

fn has_default(s: &Structural) -> bool {
    s.generic.default.is_some()
}

/// A structural schema with its lookups prepared (see the module docs).
#[derive(Debug)]
pub struct IndexedSchema {
    schema: Structural,
    index: Node,
}

impl IndexedSchema {
    /// Prepares `schema`.
    pub fn new(schema: Structural) -> Self {
        let index = Node::build(&schema);
        IndexedSchema { schema, index }
    }

    /// The schema.
    pub fn structural(&self) -> &Structural {
        &self.schema
    }

    /// A prepared view of the schema's root.
    pub fn view(&self) -> View<'_> {
        View {
            s: &self.schema,
            ix: Some(&self.index),
        }
    }
}

/// A schema node as the walks see it: the node and, when prepared, its
/// lookups.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    s: &'a Structural,
    ix: Option<&'a Node>,
}

impl<'a> View<'a> {
    /// A view without prepared lookups.
    pub fn plain(s: &'a Structural) -> Self {
        View { s, ix: None }
    }

    /// The schema node.
    pub fn schema(self) -> &'a Structural {
        self.s
    }

    /// Whether both views are the same node.
    pub(crate) fn same(self, other: View<'_>) -> bool {
        std::ptr::eq(self.s, other.s)
    }

    /// The property `k`'s schema.
    #[inline]
    pub fn prop(self, k: &str) -> Option<View<'a>> {
        self.prop_indexed(k).map(|(_, v)| v)
    }

    /// The property `k`'s index among the properties and its schema.
    #[inline(always)]
    pub(crate) fn prop_indexed(self, k: &str) -> Option<(usize, View<'a>)> {
        match self.ix {
            Some(ix) => {
                let i = ix.names.get(k)?;
                let (_, s) = self.s.properties.get_index(i)?;
                Some((
                    i,
                    View {
                        s,
                        ix: ix.props.get(i),
                    },
                ))
            }
            None => {
                let (i, _, s) = self.s.properties.get_full(k)?;
                Some((i, View::plain(s)))
            }
        }
    }

    /// `additionalProperties`: `Some(None)` when it is a boolean.
    #[inline]
    pub fn additional(self) -> Option<Option<View<'a>>> {
        let a = self.s.generic.additional_properties.as_ref()?;
        Some(a.structural.as_deref().map(|s| View {
            s,
            ix: self.ix.and_then(|ix| ix.additional.as_deref()),
        }))
    }

    /// `items`.
    #[inline]
    pub fn items(self) -> Option<View<'a>> {
        self.s.items.as_deref().map(|s| View {
            s,
            ix: self.ix.and_then(|ix| ix.items.as_deref()),
        })
    }

    /// The indexes of the properties with a default, when prepared.
    pub(crate) fn defaulted(self) -> Option<&'a [usize]> {
        self.ix.map(|ix| ix.defaulted.as_slice())
    }

    /// Whether a node below this one may have a default.
    #[inline]
    pub(crate) fn may_default_below(self) -> bool {
        self.ix.is_none_or(|ix| ix.defaults_below)
    }

    /// Whether this node or one below may be an embedded resource.
    #[inline]
    pub(crate) fn may_embed(self) -> bool {
        self.ix.is_none_or(|ix| ix.embedded)
    }

    /// Whether the view has prepared lookups and summaries.
    pub(crate) fn is_prepared(self) -> bool {
        self.ix.is_some()
    }

    /// Whether a node strictly below this one may be an embedded resource.
    #[inline]
    pub(crate) fn may_embed_below(self) -> bool {
        self.ix.is_none_or(|ix| ix.embedded_below)
    }

    /// Whether this node or one below may have a list type to check.
    #[inline]
    pub(crate) fn may_list(self) -> bool {
        self.ix.is_none_or(|ix| ix.lists)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::field::Path;
    use crate::model::wire::JsonSchemaProps;
    use crate::model::wire::codec::{DecodeCx, Wire};
    use serde_json::json;

    #[allow(clippy::unwrap_used)]
    fn indexed(v: serde_json::Value) -> IndexedSchema {
        let p = JsonSchemaProps::decode(&v, &Path::root(), &mut DecodeCx::default()).unwrap();
        IndexedSchema::new(Structural::from_props(&p).unwrap())
    }

    #[test]
    fn summaries() {
        let s = indexed(json!({
            "type": "object",
            "properties": {
                "a": {"type": "object", "properties": {"b": {"type": "string", "default": "x"}}},
                "c": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
                "d": {"type": "object", "x-kubernetes-embedded-resource": true,
                      "x-kubernetes-preserve-unknown-fields": true},
                "e": {"type": "object", "additionalProperties": {"type": "string", "default": "y"}},
                "f": {"type": "string"},
            },
        }));
        let v = s.view();
        assert!(v.may_default_below() && v.may_embed() && v.may_list());
        let a = v.prop("a").unwrap();
        assert!(a.may_default_below() && !a.may_embed() && !a.may_list());
        assert_eq!(a.defaulted(), Some(&[0usize][..]));
        assert!(!a.prop("b").unwrap().may_default_below());
        let c = v.prop("c").unwrap();
        assert!(c.may_list() && !c.may_default_below() && !c.items().unwrap().may_list());
        assert!(v.prop("d").unwrap().may_embed());
        assert!(v.prop("e").unwrap().may_default_below());
        let f = v.prop("f").unwrap();
        assert!(!f.may_default_below() && !f.may_embed() && !f.may_list());
        assert!(v.prop("g").is_none());
        assert_eq!(v.prop_indexed("e").map(|(i, _)| i), Some(3));
        assert!(View::plain(s.structural()).may_list());
    }
}
