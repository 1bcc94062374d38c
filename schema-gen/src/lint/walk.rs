//! The traversal the rules share, and the locations it reports.
//!
//! A *view* is a compiled subschema as reached from the root: the same
//! subschema reached through two `$ref`s gives two views. Each view has a
//! *resolved location*: its JSON pointer in its file, except that a `$ref`
//! target (and everything below it) is re-rooted at the location of the
//! schema holding the `$ref`. The root is `/`.
//!
//! The walk visits a schema, then its `$ref` target, its `properties`, and
//! its `items`; it never enters `$defs` (other than through `$ref`),
//! `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`, `patternProperties`,
//! `additionalProperties`, `prefixItems` or `contains`. It stops at a
//! schema that is one of the `$ref`-holding schemas it was reached through
//! (a *self reference*), which bounds it on recursive schemas.

use std::rc::Rc;

use indexmap::IndexMap;
use serde_json::Value;

use super::LintError;
use super::model::{Model, NodeId};

/// Index of a view in [`Walk::views`].
pub(crate) type ViewId = usize;

/// A step of the lookup by location: the subschema, the location prefix
/// and pointer cut it inherits, its location, and the `$ref` hops taken.
type Lookup = (NodeId, Rc<str>, Rc<str>, String, usize);

/// Most views one run may create.
const MAX_VIEWS: usize = 500_000;

/// A subschema as reached from the root.
pub(crate) struct View {
    /// The subschema.
    pub node: NodeId,
    /// The view holding the `$ref` this one was reached through, if any.
    pub referrer: Option<ViewId>,
    parent_path: Rc<str>,
    trim: Rc<str>,
    /// The resolved location.
    pub location: String,
}

/// One step of the walk.
pub(crate) struct Visit {
    /// The view visited.
    pub view: ViewId,
    /// Whether it is a self reference (where the walk stops).
    pub self_ref: bool,
}

/// The title, description and examples of one property location, each
/// taken from the schema with the fewest `$ref` hops from the root.
#[derive(Default, Clone)]
pub(crate) struct Annotations {
    title: Option<(String, usize)>,
    description: Option<(String, usize)>,
    examples: Option<(Vec<Value>, usize)>,
}

impl Annotations {
    /// The title (empty when none).
    pub fn title(&self) -> &str {
        self.title.as_ref().map_or("", |(t, _)| t.as_str())
    }

    /// The description (empty when none).
    pub fn description(&self) -> &str {
        self.description.as_ref().map_or("", |(t, _)| t.as_str())
    }

    /// The examples (empty when none).
    pub fn examples(&self) -> &[Value] {
        self.examples.as_ref().map_or(&[], |(e, _)| e.as_slice())
    }

    fn update(
        &mut self,
        title: &str,
        description: &str,
        examples: Option<&Vec<Value>>,
        level: usize,
    ) {
        if !title.is_empty() && self.title.as_ref().is_none_or(|(_, l)| level <= *l) {
            self.title = Some((title.to_string(), level));
        }
        if !description.is_empty() && self.description.as_ref().is_none_or(|(_, l)| level <= *l) {
            self.description = Some((description.to_string(), level));
        }
        if let Some(e) = examples {
            if self.examples.as_ref().is_none_or(|(_, l)| level <= *l) {
                self.examples = Some((e.clone(), level));
            }
        }
    }
}

/// The walk over a model, and what the rules derive from it.
pub(crate) struct Walk<'m> {
    /// The compiled schemas.
    pub model: &'m Model,
    /// Every view created.
    pub views: Vec<View>,
    /// The visits, in walk order (pre-order).
    pub visits: Vec<Visit>,
    /// The annotations of each property location, in first-visit order.
    pub annotations: IndexMap<String, Annotations>,
}

/// The resolved location of the subschema at `ptr`, given the context it
/// inherits: the referrer's location and the target's pointer to cut.
fn resolve_location(ptr: &str, parent_path: &str, trim: &str) -> String {
    let own = if trim.is_empty() {
        ptr.to_string()
    } else {
        ptr.replacen(trim, "", 1)
    };
    let loc = format!("{parent_path}{own}");
    if loc.is_empty() { "/".to_string() } else { loc }
}

/// Whether a resolved location is that of a property (its second-to-last
/// segment is `properties`).
pub(crate) fn is_property(location: &str) -> bool {
    let segs: Vec<&str> = location.split('/').collect();
    segs.len() > 1 && segs.get(segs.len() - 2) == Some(&"properties")
}

/// The location of the property a property location is nested in (`None`
/// when it is not a property location).
pub(crate) fn parent_property(location: &str) -> Option<String> {
    if !is_property(location) {
        return None;
    }
    let segs: Vec<&str> = location.split('/').collect();
    if segs.len() <= 2 {
        return Some(String::new());
    }
    Some(segs.get(..segs.len() - 2).unwrap_or(&[]).join("/"))
}

/// Whether `child` lies below `parent` (whole segments, strictly deeper).
pub(crate) fn is_child_location(parent: &str, child: &str) -> bool {
    let p: Vec<&str> = parent.split('/').collect();
    let c: Vec<&str> = child.split('/').collect();
    c.len() > p.len() && p.iter().zip(c.iter()).all(|(a, b)| a == b)
}

impl<'m> Walk<'m> {
    /// Walks `model` from its root.
    pub fn new(model: &'m Model) -> Result<Walk<'m>, LintError> {
        let mut walk = Walk {
            model,
            views: Vec::new(),
            visits: Vec::new(),
            annotations: IndexMap::new(),
        };
        let empty: Rc<str> = Rc::from("");
        let root = walk.push_view(0, None, empty.clone(), empty)?;
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            let self_ref = walk.is_self_reference(v);
            walk.visits.push(Visit { view: v, self_ref });
            if self_ref {
                continue;
            }
            let children = walk.children(v)?;
            stack.extend(children.into_iter().rev());
        }
        walk.build_annotations();
        Ok(walk)
    }

    fn push_view(
        &mut self,
        node: NodeId,
        referrer: Option<ViewId>,
        parent_path: Rc<str>,
        trim: Rc<str>,
    ) -> Result<ViewId, LintError> {
        if self.views.len() >= MAX_VIEWS {
            return Err(LintError::Limit(format!(
                "the schema expands to more than {MAX_VIEWS} subschemas through $ref"
            )));
        }
        let location = resolve_location(&self.model.node(node).ptr, &parent_path, &trim);
        self.views.push(View {
            node,
            referrer,
            parent_path,
            trim,
            location,
        });
        Ok(self.views.len() - 1)
    }

    /// The view with id `id`.
    pub fn view(&self, id: ViewId) -> Option<&View> {
        self.views.get(id)
    }

    /// The resolved location of a view.
    pub fn location(&self, id: ViewId) -> &str {
        self.views.get(id).map_or("", |v| v.location.as_str())
    }

    /// The children of a view, in walk order: `$ref` target, properties,
    /// `items`, legacy `items`.
    fn children(&mut self, v: ViewId) -> Result<Vec<ViewId>, LintError> {
        let Some(view) = self.views.get(v) else {
            return Ok(Vec::new());
        };
        let node = self.model.node(view.node);
        let (referrer, parent_path, trim) =
            (view.referrer, view.parent_path.clone(), view.trim.clone());
        let ref_ctx = node.reference.map(|t| {
            let target_ptr: Rc<str> = Rc::from(self.model.node(t).ptr.as_str());
            (t, Rc::<str>::from(view.location.as_str()), target_ptr)
        });
        let mut inherited: Vec<NodeId> = Vec::new();
        if let Some(props) = &node.properties {
            inherited.extend(props.iter().map(|(_, id)| *id));
        }
        inherited.extend(node.items);
        if let Some(items) = &node.items_legacy {
            inherited.extend(items.iter().copied());
        }
        let mut out = Vec::with_capacity(inherited.len() + 1);
        if let Some((t, pp, tr)) = ref_ctx {
            out.push(self.push_view(t, Some(v), pp, tr)?);
        }
        for c in inherited {
            out.push(self.push_view(c, referrer, parent_path.clone(), trim.clone())?);
        }
        Ok(out)
    }

    /// Whether a view's subschema is one of the `$ref`-holding schemas it
    /// was reached through.
    pub fn is_self_reference(&self, v: ViewId) -> bool {
        let Some(view) = self.views.get(v) else {
            return false;
        };
        let mut cur = view.referrer;
        while let Some(r) = cur.and_then(|r| self.views.get(r)) {
            if r.node == view.node {
                return true;
            }
            cur = r.referrer;
        }
        false
    }

    /// The number of `$ref` hops from the root to a view.
    pub fn reference_level(&self, v: ViewId) -> usize {
        let mut level = 0;
        let mut cur = self.views.get(v).and_then(|x| x.referrer);
        while let Some(r) = cur.and_then(|r| self.views.get(r)) {
            level += 1;
            cur = r.referrer;
        }
        level
    }

    fn build_annotations(&mut self) {
        let mut map: IndexMap<String, Annotations> = IndexMap::new();
        for visit in &self.visits {
            if visit.self_ref {
                continue;
            }
            let Some(view) = self.views.get(visit.view) else {
                continue;
            };
            if !is_property(&view.location) {
                continue;
            }
            let node = self.model.node(view.node);
            let level = self.reference_level(visit.view);
            map.entry(view.location.clone()).or_default().update(
                &node.title,
                &node.description,
                node.examples.as_ref(),
                level,
            );
        }
        self.annotations = map;
    }

    /// The visits the rules see (self references excluded).
    pub fn schemas(&self) -> impl Iterator<Item = (ViewId, NodeId, &str)> {
        self.visits.iter().filter(|v| !v.self_ref).filter_map(|v| {
            self.views
                .get(v.view)
                .map(|view| (v.view, view.node, view.location.as_str()))
        })
    }

    /// The subschemas whose resolved location is `target`, found by
    /// descending from the root through `properties`, legacy `items` and
    /// `$ref` (not 2020-12 `items`), as the reference tool's lookup does.
    pub fn schemas_at(&self, target: &str) -> Vec<NodeId> {
        let mut out = Vec::new();
        let model = self.model;
        let mut stack: Vec<Lookup> = vec![(
            0,
            Rc::from(""),
            Rc::from(""),
            resolve_location(&model.node(0).ptr, "", ""),
            0,
        )];
        let mut steps = 0usize;
        while let Some((id, pp, tr, loc, hops)) = stack.pop() {
            steps += 1;
            if steps > MAX_VIEWS {
                break;
            }
            if hops > model.nodes.len() {
                continue;
            }
            if loc == target {
                out.push(id);
            }
            if !target.starts_with(loc.as_str()) {
                continue;
            }
            let node = model.node(id);
            let mut next = Vec::new();
            if let Some(props) = &node.properties {
                for (_, c) in props {
                    let l = resolve_location(&model.node(*c).ptr, &pp, &tr);
                    next.push((*c, pp.clone(), tr.clone(), l, hops));
                }
            }
            if let Some(items) = &node.items_legacy {
                for c in items {
                    let l = resolve_location(&model.node(*c).ptr, &pp, &tr);
                    next.push((*c, pp.clone(), tr.clone(), l, hops));
                }
            }
            if let Some(t) = node.reference {
                let tptr: Rc<str> = Rc::from(model.node(t).ptr.as_str());
                let npp: Rc<str> = Rc::from(loc.as_str());
                let l = resolve_location(&tptr, &npp, &tptr);
                next.push((t, npp, tptr, l, hops + 1));
            }
            stack.extend(next.into_iter().rev());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations() {
        assert_eq!(resolve_location("", "", ""), "/");
        assert_eq!(
            resolve_location("/$defs/a/properties/k", "/properties/x", "/$defs/a"),
            "/properties/x/properties/k"
        );
        assert_eq!(resolve_location("/properties/k", "/", ""), "//properties/k");
        assert!(is_property("/properties/a"));
        assert!(!is_property("/properties/a/items"));
        assert!(!is_property("/"));
        assert_eq!(
            parent_property("/properties/a/properties/b").as_deref(),
            Some("/properties/a")
        );
        assert_eq!(parent_property("/properties/a").as_deref(), Some(""));
        assert!(is_child_location(
            "/properties/internal",
            "/properties/internal/properties/x"
        ));
        assert!(!is_child_location(
            "/properties/internal",
            "/properties/internal2"
        ));
        assert!(!is_child_location(
            "/properties/internal",
            "/properties/internal"
        ));
        assert!(!is_child_location("/properties/internal", ""));
    }
}
