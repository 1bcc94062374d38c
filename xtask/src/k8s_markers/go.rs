//! The marker data of one Kubernetes release as Go declarations: packages,
//! their import aliases, struct and named types with their markers, and Go
//! type expressions (`*[]metav1.Condition`) parsed and resolved.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// The value of one marker line as the data records it.
#[derive(Clone, Debug, PartialEq)]
pub enum MarkerValue {
    /// `+name` without a value.
    Flag,
    /// `+name=value`, the raw value.
    Text(String),
    /// A marker given several times (and `listMapKey` always), in order.
    List(Vec<MarkerValue>),
}

/// The markers of a type or field, in source order.
pub type Markers = Vec<(String, MarkerValue)>;

/// A struct field.
#[derive(Clone, Debug)]
pub struct Field {
    /// The Go name (the type's name for an embedded field).
    pub go_name: String,
    /// The raw `json` tag, if any.
    pub json: Option<String>,
    /// The Go type as written.
    pub ty: GoType,
    pub markers: Markers,
}

/// A declared type.
#[derive(Clone, Debug)]
pub enum Decl {
    Struct {
        markers: Markers,
        fields: Vec<Field>,
    },
    /// `type A B` (`alias`: `type A = B`).
    Named {
        markers: Markers,
        underlying: GoType,
        alias: bool,
    },
}

impl Decl {
    pub fn markers(&self) -> &Markers {
        match self {
            Decl::Struct { markers, .. } | Decl::Named { markers, .. } => markers,
        }
    }
}

/// One release's packages.
#[derive(Debug)]
pub struct Release {
    /// The Kubernetes minor version (`35` for 1.35).
    pub minor: u32,
    /// The tags the data was read from (`k8s.io/api v0.35.7, …`).
    pub source: String,
    /// Package path → import alias → package path.
    pub imports: BTreeMap<String, BTreeMap<String, String>>,
    /// Package path → type name → declaration.
    pub packages: BTreeMap<String, BTreeMap<String, Decl>>,
}

/// A Go type expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoType {
    Ptr(Box<GoType>),
    Slice(Box<GoType>),
    Array(Box<GoType>),
    Map(Box<GoType>, Box<GoType>),
    /// `interface{}` or `any`.
    Interface,
    /// A type name, qualified by an import alias or not.
    Name {
        qualifier: Option<String>,
        name: String,
    },
}

impl GoType {
    /// Parses a type expression as the data writes it.
    pub fn parse(s: &str) -> Result<GoType> {
        let (t, rest) = Self::parse_prefix(s)?;
        if !rest.is_empty() {
            bail!("unexpected `{rest}` after the type in `{s}`");
        }
        Ok(t)
    }

    fn parse_prefix(s: &str) -> Result<(GoType, &str)> {
        if let Some(rest) = s.strip_prefix('*') {
            let (t, rest) = Self::parse_prefix(rest)?;
            return Ok((GoType::Ptr(Box::new(t)), rest));
        }
        if let Some(rest) = s.strip_prefix("[]") {
            let (t, rest) = Self::parse_prefix(rest)?;
            return Ok((GoType::Slice(Box::new(t)), rest));
        }
        if let Some(rest) = s.strip_prefix('[') {
            let end = rest.find(']').context("unclosed `[`")?;
            let (t, rest) = Self::parse_prefix(&rest[end + 1..])?;
            return Ok((GoType::Array(Box::new(t)), rest));
        }
        if let Some(rest) = s.strip_prefix("map[") {
            let (k, rest) = Self::parse_prefix(rest)?;
            let rest = rest
                .strip_prefix(']')
                .with_context(|| format!("no `]` after the key of `{s}`"))?;
            let (v, rest) = Self::parse_prefix(rest)?;
            return Ok((GoType::Map(Box::new(k), Box::new(v)), rest));
        }
        if let Some(rest) = s.strip_prefix("interface{}") {
            return Ok((GoType::Interface, rest));
        }
        let end = s
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(s.len());
        let word = &s[..end];
        if word.is_empty() {
            bail!("no type name at `{s}`");
        }
        if word == "any" {
            return Ok((GoType::Interface, &s[end..]));
        }
        let t = match word.split_once('.') {
            Some((q, n)) => GoType::Name {
                qualifier: Some(q.to_string()),
                name: n.to_string(),
            },
            None => GoType::Name {
                qualifier: None,
                name: word.to_string(),
            },
        };
        Ok((t, &s[end..]))
    }
}

/// The predeclared types a field can have, with their JSON schema type.
pub fn builtin(name: &str) -> Option<&'static str> {
    Some(match name {
        "string" => "string",
        "bool" => "boolean",
        "int" | "int8" | "int16" | "int32" | "int64" | "uint" | "uint8" | "uint16" | "uint32"
        | "uint64" | "byte" | "rune" | "uintptr" => "integer",
        "float32" | "float64" => "number",
        _ => return None,
    })
}

/// A type name resolved to its package.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TypeRef {
    pub pkg: String,
    pub name: String,
}

impl Release {
    /// Reads one marker file.
    pub fn from_json(text: &str) -> Result<Release> {
        let doc: Value = serde_json::from_str(text)?;
        let minor = doc["source"]["kubernetes"]
            .as_str()
            .and_then(|v| v.strip_prefix("1."))
            .and_then(|m| m.parse().ok())
            .context("no source.kubernetes version")?;
        let tag = |v: &Value| {
            format!(
                "{} {}",
                v["module"].as_str().unwrap_or("?"),
                v["ref"].as_str().unwrap_or("?")
            )
        };
        let source = format!(
            "{}, {}",
            tag(&doc["source"]),
            tag(&doc["source"]["apimachinery"])
        );
        let mut imports = BTreeMap::new();
        for (pkg, aliases) in doc["imports"].as_object().context("no imports")? {
            let aliases = aliases
                .as_object()
                .with_context(|| format!("imports of {pkg}"))?
                .iter()
                .map(|(a, p)| Ok((a.clone(), p.as_str().context("import path")?.to_string())))
                .collect::<Result<_>>()?;
            imports.insert(pkg.clone(), aliases);
        }
        let mut packages = BTreeMap::new();
        for (pkg, types) in doc["packages"].as_object().context("no packages")? {
            let mut decls = BTreeMap::new();
            for (name, t) in types.as_object().context("package types")? {
                let decl = read_decl(t).with_context(|| format!("{pkg}.{name}"))?;
                decls.insert(name.clone(), decl);
            }
            packages.insert(pkg.clone(), decls);
        }
        Ok(Release {
            minor,
            source,
            imports,
            packages,
        })
    }

    /// The declaration of `r`, if the data has its package and type.
    pub fn decl(&self, r: &TypeRef) -> Option<&Decl> {
        self.packages.get(&r.pkg)?.get(&r.name)
    }

    /// The type a name in package `pkg` refers to (`None` for a predeclared
    /// type).
    pub fn resolve(
        &self,
        pkg: &str,
        qualifier: Option<&str>,
        name: &str,
    ) -> Result<Option<TypeRef>> {
        match qualifier {
            None if builtin(name).is_some() => Ok(None),
            None => Ok(Some(TypeRef {
                pkg: pkg.to_string(),
                name: name.to_string(),
            })),
            Some(q) => {
                let target = self
                    .imports
                    .get(pkg)
                    .and_then(|a| a.get(q))
                    .with_context(|| format!("{pkg}: unknown import alias `{q}`"))?;
                Ok(Some(TypeRef {
                    pkg: target.clone(),
                    name: name.to_string(),
                }))
            }
        }
    }
}

fn read_markers(v: &Value) -> Result<Markers> {
    let Some(map) = v.as_object() else {
        return Ok(Vec::new());
    };
    map.iter()
        .map(|(k, v)| Ok((k.clone(), marker_value(v)?)))
        .collect()
}

fn marker_value(v: &Value) -> Result<MarkerValue> {
    Ok(match v {
        Value::Bool(true) => MarkerValue::Flag,
        Value::String(s) => MarkerValue::Text(s.clone()),
        Value::Array(a) => MarkerValue::List(a.iter().map(marker_value).collect::<Result<_>>()?),
        other => bail!("unexpected marker value {other}"),
    })
}

fn read_decl(t: &Value) -> Result<Decl> {
    let markers = read_markers(&t["markers"])?;
    if let Some(fields) = t.get("fields") {
        let fields = fields
            .as_object()
            .context("fields")?
            .iter()
            .map(|(go_name, f)| {
                Ok(Field {
                    go_name: go_name.clone(),
                    json: f.get("json").and_then(Value::as_str).map(str::to_string),
                    ty: GoType::parse(f["type"].as_str().context("field type")?)
                        .with_context(|| format!("field {go_name}"))?,
                    markers: read_markers(&f["markers"])?,
                })
            })
            .collect::<Result<_>>()?;
        return Ok(Decl::Struct { markers, fields });
    }
    let underlying = GoType::parse(t["type"].as_str().context("no fields and no type")?)?;
    Ok(Decl::Named {
        markers,
        underlying,
        alias: t.get("alias").and_then(Value::as_bool).unwrap_or(false),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(q: Option<&str>, n: &str) -> GoType {
        GoType::Name {
            qualifier: q.map(str::to_string),
            name: n.to_string(),
        }
    }

    #[test]
    fn parses_type_expressions() {
        assert_eq!(
            GoType::parse("*[]metav1.Condition").unwrap(),
            GoType::Ptr(Box::new(GoType::Slice(Box::new(name(
                Some("metav1"),
                "Condition"
            )))))
        );
        assert_eq!(
            GoType::parse("map[ResourceName]resource.Quantity").unwrap(),
            GoType::Map(
                Box::new(name(None, "ResourceName")),
                Box::new(name(Some("resource"), "Quantity"))
            )
        );
        assert_eq!(
            GoType::parse("map[string][]string").unwrap(),
            GoType::Map(
                Box::new(name(None, "string")),
                Box::new(GoType::Slice(Box::new(name(None, "string"))))
            )
        );
        assert_eq!(
            GoType::parse("[]interface{}").unwrap(),
            GoType::Slice(Box::new(GoType::Interface))
        );
        assert!(GoType::parse("map[string").is_err());
        assert!(GoType::parse("int32 x").is_err());
    }
}
