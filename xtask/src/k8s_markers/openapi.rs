//! What k8s-openapi's schemas of one Kubernetes version already say: per
//! schema name, the top-level property names and the `required` list, read
//! from the `json_schema` functions of its generated sources.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::workspace::files_under;

/// One k8s-openapi schema.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schema {
    pub properties: Vec<String>,
    pub required: Vec<String>,
}

/// Schema name → schema, for the version directory `dir` (`src/v1_35`).
pub fn read_version(dir: &Path) -> Result<BTreeMap<String, Schema>> {
    let mut out = BTreeMap::new();
    for path in files_under(dir, |p| p.extension().is_some_and(|e| e == "rs"))? {
        let text = fs::read_to_string(&path)?;
        if let Some((name, schema)) =
            read_file(&text).with_context(|| format!("reading {}", path.display()))?
        {
            out.insert(name, schema);
        }
    }
    Ok(out)
}

/// The schema of the one `JsonSchema` implementation of a generated file.
pub fn read_file(text: &str) -> Result<Option<(String, Schema)>> {
    let Some(start) = text.find("impl crate::schemars::JsonSchema for ") else {
        return Ok(None);
    };
    let text = &text[start..];
    let name_at = text
        .find("fn schema_name()")
        .context("no schema_name function")?;
    let name = text[name_at..]
        .split('"')
        .nth(1)
        .context("no schema name literal")?
        .to_string();
    let body_at = text
        .find("fn json_schema(")
        .context("no json_schema function")?;
    let mut schema = Schema::default();
    let mut list: Option<&mut Vec<String>> = None;
    for line in text[body_at..].lines().skip(1) {
        if line == "    }" {
            break;
        }
        match line {
            "            \"properties\": {" => list = Some(&mut schema.properties),
            "            \"required\": [" => list = Some(&mut schema.required),
            "            }," | "            ]," => list = None,
            _ => {
                let Some(l) = list.as_deref_mut() else {
                    continue;
                };
                // Entries are indented by 16; deeper lines belong to them.
                let Some(rest) = line.strip_prefix("                \"") else {
                    continue;
                };
                let Some(end) = rest.find('"') else {
                    bail!("{name}: unterminated name in `{line}`");
                };
                l.push(rest[..end].to_string());
            }
        }
    }
    Ok(Some((name, schema)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_properties_and_required() {
        let text = r#"
impl crate::schemars::JsonSchema for ConfigMapKeySelector {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "io.k8s.api.core.v1.ConfigMapKeySelector".into()
    }

    fn json_schema(__gen: &mut crate::schemars::SchemaGenerator) -> crate::schemars::Schema {
        crate::schemars::json_schema!({
            "description": "Selects a key from a ConfigMap.",
            "type": "object",
            "properties": {
                "key": {
                    "description": "The \"key\" to select.",
                    "type": "string",
                },
                "items": ({
                    let mut schema_obj = __gen.subschema_for::<crate::api::core::v1::KeyToPath>();
                    schema_obj
                }),
            },
            "required": [
                "key",
            ],
        })
    }
}
"#;
        let (name, schema) = read_file(text).unwrap().unwrap();
        assert_eq!(name, "io.k8s.api.core.v1.ConfigMapKeySelector");
        assert_eq!(schema.properties, ["key", "items"]);
        assert_eq!(schema.required, ["key"]);
        assert_eq!(read_file("struct X;").unwrap(), None);
    }
}
