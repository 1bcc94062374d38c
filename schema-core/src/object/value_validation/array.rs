//! The array checks (kube-openapi's `schemaSliceValidator`): `items`
//! (one schema or a tuple), `additionalItems`, `minItems`, `maxItems` and
//! `uniqueItems`.

use serde_json::Value;

use super::chain::validate_node;
use super::error::{Kind, Raw};
use super::node::{Items, Node};
use crate::go::json::has_duplicates;
use crate::model::field::DottedPath;

/// `schemaSliceValidator.Validate`; returns its match count.
///
/// `#[inline]` lets it be inlined into the chain (its one caller) from
/// this file's codegen unit, as it was before the checks had files of
/// their own (the validate bench's instruction count says so).
#[inline]
pub(super) fn check_slice<'a>(
    n: &'a Node,
    items: &'a [Value],
    path: &DottedPath<'_>,
    out: &mut Vec<Raw<'a>>,
) -> u64 {
    let mut mc = 0;
    let size = items.len();
    let mut items_size = 0;
    match &n.items {
        Items::None => {}
        Items::One(s) => {
            for (i, item) in items.iter().enumerate() {
                mc += validate_node(s, item, &DottedPath::Index(path, i), out);
            }
        }
        Items::Tuple(schemas) => {
            items_size = schemas.len();
            for (i, (s, item)) in schemas.iter().zip(items.iter()).enumerate() {
                mc += validate_node(s, item, &DottedPath::Index(path, i), out);
            }
        }
    }
    if let Some(ai) = &n.additional_items {
        if items_size < size {
            if items_size > 0 && !ai.allows {
                out.push(Raw::plain(
                    "array doesn't allow for additional items".to_string(),
                ));
            }
            if let Some(s) = &ai.schema {
                // kube-openapi's loop bound, `size-itemsSize+1`, kept (and
                // clamped where Go would index out of range).
                let end = (size - items_size + 1).min(size);
                for i in items_size..end {
                    if let Some(item) = items.get(i) {
                        mc += validate_node(s, item, &DottedPath::Index(path, i), out);
                    }
                }
            }
        }
    }
    let size_i = i64::try_from(size).unwrap_or(i64::MAX);
    if let Some(min) = n.min_items {
        if size_i < min {
            out.push(Raw {
                origin: None,
                name: path.render(),
                kind: Kind::MinItems { min, size: size_i },
            });
        }
    }
    if let Some(max) = n.max_items {
        if size_i > max {
            out.push(Raw {
                origin: None,
                name: path.render(),
                kind: Kind::MaxItems { max, size: size_i },
            });
        }
    }
    if n.unique_items && has_duplicates(items) {
        out.push(Raw {
            origin: None,
            name: path.render(),
            kind: Kind::Unique,
        });
    }
    mc + 1
}
