//! A view of a compiled validator's nodes for walks that follow the schema
//! themselves (the fused prune/default/validate walk): what a node's own
//! checks need, its children, and [`Check`]s to run at a node.

use serde_json::Value;

use super::chain::validate_node;
use super::node::{Items, Node};
use crate::model::field::DottedPath;

/// [`NodeRef::trivial`]: any string passes.
pub(crate) const TRIVIAL_STRING: u8 = 1;
/// [`NodeRef::trivial`]: any boolean passes.
pub(crate) const TRIVIAL_BOOL: u8 = 2;
/// [`NodeRef::trivial`]: any object with the `required` properties passes.
pub(crate) const TRIVIAL_OBJECT: u8 = 4;
/// [`NodeRef::trivial`]: any array passes.
pub(crate) const TRIVIAL_ARRAY: u8 = 8;

/// A node of a [`super::SchemaValidator`], to pair with the structural schema.
#[derive(Clone, Copy)]
pub(crate) struct NodeRef<'a>(pub(super) &'a Node);

impl<'a> NodeRef<'a> {
    /// Whether the node's own checks (those [`NodeRef::shallow`] keeps)
    /// and the checks of its properties, `additionalProperties` schema and
    /// `items` schema, each on its own values, are all of its validation:
    /// no junctors, no pattern properties, no closed
    /// `additionalProperties`, no tuple or additional items.
    pub(crate) fn is_separable(self) -> bool {
        let n = self.0;
        !n.has_junctors
            && n.pattern_properties.is_empty()
            && n.additional_items.is_none()
            && !matches!(n.items, Items::Tuple(_))
            && n.additional_properties.as_ref().is_none_or(|a| a.allows)
    }

    /// Which values pass the node's own checks whatever they hold:
    /// [`TRIVIAL_STRING`], [`TRIVIAL_BOOL`], [`TRIVIAL_ARRAY`], and
    /// [`TRIVIAL_OBJECT`] (but for `required`, see [`NodeRef::required`]).
    pub(crate) fn trivial(self) -> u8 {
        let n = self.0;
        if n.has_junctors || !n.enum_.is_empty() || !n.format.is_empty() {
            return 0;
        }
        let typed = |t: bool| !n.has_type || t;
        let mut out = 0;
        if typed(n.types.string)
            && n.max_length.is_none()
            && n.min_length.is_none()
            && n.pattern.is_none()
            && n.string_format.is_none()
        {
            out |= TRIVIAL_STRING;
        }
        if typed(n.types.boolean) {
            out |= TRIVIAL_BOOL;
        }
        if typed(n.types.object)
            && n.min_properties.is_none()
            && n.max_properties.is_none()
            && n.pattern_properties.is_empty()
            && n.additional_properties.as_ref().is_none_or(|a| a.allows)
        {
            out |= TRIVIAL_OBJECT;
        }
        if typed(n.types.array)
            && n.min_items.is_none()
            && n.max_items.is_none()
            && !n.unique_items
            && matches!(n.items, Items::None | Items::One(_))
            && n.additional_items.is_none()
        {
            out |= TRIVIAL_ARRAY;
        }
        out
    }

    /// `required`.
    pub(crate) fn required(self) -> &'a [String] {
        &self.0.required
    }

    /// The property `k`'s node.
    pub(crate) fn prop(self, k: &str) -> Option<NodeRef<'a>> {
        self.0.properties.get(k).map(NodeRef)
    }

    /// The number of properties.
    pub(crate) fn prop_count(self) -> usize {
        self.0.properties.len()
    }

    /// The single `items` schema's node.
    pub(crate) fn items(self) -> Option<NodeRef<'a>> {
        match &self.0.items {
            Items::One(n) => Some(NodeRef(n)),
            Items::None | Items::Tuple(_) => None,
        }
    }

    /// The `additionalProperties` schema's node (when it allows, with a
    /// schema).
    pub(crate) fn additional(self) -> Option<NodeRef<'a>> {
        self.0
            .additional_properties
            .as_ref()
            .filter(|a| a.allows)
            .and_then(|a| a.schema.as_deref())
            .map(NodeRef)
    }

    /// The node's whole validation, children included.
    pub(crate) fn full(self) -> Check {
        Check(Box::new(self.0.clone()))
    }

    /// The node's own checks without its children's: what validating a
    /// value gives when every property, additional property and item is
    /// left out (only for a [`NodeRef::is_separable`] node).
    pub(crate) fn shallow(self) -> Check {
        Check(Box::new(self.0.without_children()))
    }
}

/// The checks of one schema node, with its children's or without (see
/// [`NodeRef::shallow`]): whether a value passes them, without the
/// errors.
#[derive(Clone)]
pub(crate) struct Check(Box<Node>);

impl Check {
    /// Whether `v` passes (no allocation unless it does not).
    #[inline]
    pub(crate) fn passes(&self, v: &Value) -> bool {
        let mut out = Vec::new();
        validate_node(&self.0, v, &DottedPath::Root, &mut out);
        out.is_empty()
    }
}
