use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

mod as_string {
    pub fn serialize<S: serde::Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        let s: String = serde::Deserialize::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[derive(Serialize, Deserialize, StructuralSchema)]
struct Spec {
    #[serde(with = "as_string")]
    number: i64,
}

fn main() {}
