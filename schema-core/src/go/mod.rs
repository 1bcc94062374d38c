//! Go's standard library and apimachinery's primitives, as the API server's
//! algorithms reach them: `time`, `fmt`'s verbs, `net/url`, `net/mail`,
//! `net`, base64, `encoding/json`'s view of decoded values and the
//! strfmt format registry. Nothing here knows about schemas.

pub mod base64;
pub mod fmt;
pub mod formats;
pub mod json;
pub mod mail;
pub mod net;
pub mod time;
pub mod url;
