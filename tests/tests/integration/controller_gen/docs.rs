//! The twin of `fixtures/docs`: doc comments as descriptions.

// The Go comments have tabs (an indented block, a tab inside a line), and
// the descriptions keep them: so do these doc comments.
#![allow(clippy::tabs_in_doc_comments)]

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Chapter is a part of a manual.
///
/// Chapters are numbered from one.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Chapter {
    /// Number of the chapter.
    pub number: i32,
    /// Heading of the chapter, shown in the table of contents.
    /// It is kept short.
    pub heading: String,
}

/// Appendix has a doc comment that its field's doc replaces.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Appendix {
    /// Text of the appendix.
    pub text: String,
}

/// ManualSpec is the desired state of a Manual.
///
/// It spans several paragraphs.
///
/// This is the last one.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "docs.example.com",
    version = "v1",
    kind = "Manual",
    namespaced,
    doc = "Manual is the Schema for the manuals API.\n\nA manual documents something.",
))]
pub struct ManualSpec {
    /// Title is the title of the manual.
    /// It spans two lines.
    pub title: String,
    /// Summary has a TODO line.
    /// TODO: this line is left out.
    /// The description goes on.
    pub summary: Option<String>,
    /// Notes end at a separator.
    /// ---
    /// This is not part of the description.
    pub notes: Option<String>,
    /// Intro takes the field's doc, not the type's.
    pub intro: Chapter,
    pub chapters: Option<Vec<Chapter>>,
    pub appendix: Option<Appendix>,
    /// Code has an indented example:
    ///
    ///	kubectl get manuals
    ///
    /// and text after it.
    pub code: Option<String>,
    /// Titled has a title.
    #[schema(title = "The Title")]
    pub titled: Option<String>,
    /// Quoted has "quotes", a backslash \ and a tab	inside.
    pub quoted: Option<String>,
}
