//! The twin of `fixtures/lists`: item counts, item markers, sets and
//! nested lists.

use std::collections::BTreeSet;

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Track is one entry of a playlist.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct Track {
    /// Title of the track.
    pub title: String,
    /// Seconds the track lasts.
    #[schema(minimum = 1)]
    pub seconds: i32,
}

/// PlaylistSpec is the desired state of a Playlist.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "lists.example.com",
    version = "v1",
    kind = "Playlist",
    namespaced,
    doc = "Playlist is the Schema for the playlists API.",
))]
pub struct PlaylistSpec {
    /// Tracks has between one and fifty entries.
    #[schema(min_items = 1, max_items = 50, list_type = "atomic")]
    pub tracks: Vec<Track>,
    /// Tags are distinct.
    #[schema(max_items = 10, items(max_length = 32, min_length = 1))]
    pub tags: Option<BTreeSet<String>>,
    /// Ratings are small numbers.
    #[schema(items(minimum = 1, maximum = 5))]
    pub ratings: Option<Vec<i32>>,
    /// Matrix is a list of lists.
    pub matrix: Option<Vec<Vec<i64>>>,
    /// Owners is a set of names.
    #[schema(list_type = "set")]
    pub owners: Option<Vec<String>>,
    /// Order is kept as written.
    #[schema(list_type = "atomic")]
    pub order: Option<Vec<String>>,
}
