//! Go's standard library and apimachinery's primitives, as the API server's
//! algorithms reach them: `time`, `fmt`'s verbs, `sort.Slice`, `strings`, `net/url`,
//! `net/mail`, `net`, base64, `encoding/json`'s view of decoded values, the
//! strfmt format registry, and apimachinery's name checks and group-version
//! parsing. Nothing here knows about schemas.

pub(crate) mod base64;
pub mod fmt;
pub(crate) mod formats;
pub(crate) mod json;
pub(crate) mod mail;
pub(crate) mod names;
pub(crate) mod net;
pub(crate) mod sort;
pub(crate) mod strings;
pub(crate) mod time;
pub(crate) mod url;
pub(crate) mod versions;
