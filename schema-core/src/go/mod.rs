//! Go's standard library and apimachinery's primitives, as the API server's
//! algorithms reach them: `time`, `fmt`'s verbs, `strings`, `net/url`,
//! `net/mail`, `net`, base64, `encoding/json`'s view of decoded values, the
//! strfmt format registry, and apimachinery's name checks and group-version
//! parsing. Nothing here knows about schemas.

pub mod base64;
pub mod fmt;
pub mod formats;
pub mod json;
pub mod mail;
pub mod names;
pub mod net;
pub mod strings;
pub mod time;
pub mod url;
