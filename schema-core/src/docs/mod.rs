//! Reading CRDs: what a person looks up about a resource and its fields.
//!
//! - [`explain`]: `kubectl explain`'s plaintext output, computed offline from
//!   the OpenAPI v3 document the API server publishes for a group-version
//!   (`crd::publish`), plus the lines kubectl leaves out (defaults, bounds,
//!   list semantics, CEL rules, ...).
//! - [`facts`]: the facts of one schema node (default, enum values, bounds,
//!   pattern, list and map semantics, CEL rules, `immutable`, ...) and its
//!   type as a person reads it, on a JSON schema node in the published v3
//!   form or as written; every renderer of fields takes them from here.
//! - [`path`]: the field paths the reference documents use as anchors
//!   (`spec.containers[].name`, `spec.selectors{}.matchLabels`, quoted
//!   names).
//! - [`reference`](mod@reference): the reference documents' content for a set of CRDs:
//!   groups, versions, kinds with their summaries (names, scope, versions,
//!   subresources, printer columns) and field trees, repeated object shapes
//!   listed once (`shape`), depth and description length bounded.
//! - [`markdown()`]: the Markdown documents (`README.md` and one file per
//!   group); [`html()`]: the static HTML site (`index.html`, a page per kind
//!   and version, `search-index.js`, `site.js`, `style.css`), whose
//!   structure [`html()`]'s documentation states. Both escape whatever
//!   a schema holds (`text`) and give the same bytes for the same CRDs.
//!
//! This layer reads the published documents and the wire model; nothing
//! below it knows about it.

pub mod explain;
pub mod facts;
mod html;
mod markdown;
pub mod path;
pub mod reference;
mod shape;
mod summary;
#[cfg(test)]
mod tests;
mod text;

pub use html::{SEARCH_TEXT_CHARS, html, site};
pub use markdown::{documents, markdown};
pub use reference::{Docs, DocsError, PassedOver, build};
