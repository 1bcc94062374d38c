//! The kinds the API server serves itself (`apps/v1` `Deployment`,
//! `v1` `ConfigMap`, …): every k8s-openapi type implementing
//! `k8s_openapi::Resource`, of the Kubernetes version the final crate
//! selects, with its structural schema and a CRD that stands for it, so
//! that its objects are admitted as a custom resource of that schema is.

use crate::model::wire::{
    CrdNames, CrdSpec, CrdSubresources, CrdVersion, CustomResourceDefinition,
    CustomResourceValidation, JsonSchemaProps,
};
use crate::rust::{EmbeddedObjectMeta, SchemaCx, SchemaErrors, StructuralSchema};

/// Where objects of a kind live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinScope {
    /// In a namespace (`Deployment`).
    Namespaced,
    /// In the cluster (`Namespace`, `ClusterRole`).
    Cluster,
    /// A subresource's body (`Scale`, `Eviction`): posted to a
    /// subresource of another kind, never stored on its own.
    Subresource,
}

/// One built-in kind.
#[derive(Clone, Copy)]
pub struct BuiltinKind {
    /// `apps/v1`, or `v1` for the core group.
    pub api_version: &'static str,
    /// `apps`, or `""` for the core group.
    pub group: &'static str,
    /// `v1`.
    pub version: &'static str,
    /// `Deployment`.
    pub kind: &'static str,
    /// The resource's URL segment: `deployments`.
    pub plural: &'static str,
    /// Where its objects live.
    pub scope: BuiltinScope,
    schema: fn() -> Result<JsonSchemaProps, SchemaErrors>,
}

impl std::fmt::Debug for BuiltinKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinKind")
            .field("api_version", &self.api_version)
            .field("kind", &self.kind)
            .field("plural", &self.plural)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

/// The scope of a k8s-openapi `Resource::Scope` type.
pub(super) trait ScopeOf {
    const SCOPE: BuiltinScope;
}

impl ScopeOf for k8s_openapi::NamespaceResourceScope {
    const SCOPE: BuiltinScope = BuiltinScope::Namespaced;
}

impl ScopeOf for k8s_openapi::ClusterResourceScope {
    const SCOPE: BuiltinScope = BuiltinScope::Cluster;
}

impl ScopeOf for k8s_openapi::SubResourceScope {
    const SCOPE: BuiltinScope = BuiltinScope::Subresource;
}

impl BuiltinKind {
    /// The kind of the k8s-openapi resource type `T`.
    pub(super) fn of<T>() -> Self
    where
        T: k8s_openapi::Resource + StructuralSchema,
        T::Scope: ScopeOf,
    {
        BuiltinKind {
            api_version: T::API_VERSION,
            group: T::GROUP,
            version: T::VERSION,
            kind: T::KIND,
            plural: T::URL_PATH_SEGMENT,
            scope: <T::Scope as ScopeOf>::SCOPE,
            schema: schema_of::<T>,
        }
    }

    /// The structural schema of the kind's objects: the k8s-openapi
    /// type's, as [`schema_for`](crate::rust::schema_for) gives it, but
    /// with every field of an embedded `ObjectMeta` (a template's
    /// `metadata` is a whole `ObjectMeta` to the API server) and the
    /// root's `metadata` a bare object, which the server validates as an
    /// `ObjectMeta` itself. A recursive type (the `JSONSchemaProps` of a
    /// `CustomResourceDefinition`) is checked down to where it contains
    /// itself, and any value is kept there.
    ///
    /// # Errors
    ///
    /// What the expansion reports for the type.
    pub fn schema(&self) -> Result<JsonSchemaProps, SchemaErrors> {
        (self.schema)()
    }

    /// A CRD standing for the kind: its group, names, scope (a
    /// subresource's body counts as namespaced) and one served storage
    /// version with the kind's schema; the status subresource is enabled
    /// when the schema has a `status`, as the built-in kinds with a status
    /// take it from their status subresource only.
    ///
    /// # Errors
    ///
    /// What [`BuiltinKind::schema`] reports.
    pub fn crd(&self) -> Result<CustomResourceDefinition, SchemaErrors> {
        let schema = self.schema()?;
        let has_status = schema
            .properties
            .as_ref()
            .is_some_and(|p| p.contains_key("status"));
        let group_suffix = if self.group.is_empty() {
            String::new()
        } else {
            format!(".{}", self.group)
        };
        Ok(CustomResourceDefinition {
            api_version: Some("apiextensions.k8s.io/v1".to_string()),
            kind: Some("CustomResourceDefinition".to_string()),
            metadata: Some(serde_json::json!({
                "name": format!("{}{group_suffix}", self.plural),
            })),
            spec: Some(CrdSpec {
                group: Some(self.group.to_string()),
                names: Some(CrdNames {
                    plural: Some(self.plural.to_string()),
                    singular: Some(self.kind.to_ascii_lowercase()),
                    kind: Some(self.kind.to_string()),
                    list_kind: Some(format!("{}List", self.kind)),
                    ..CrdNames::default()
                }),
                scope: Some(
                    match self.scope {
                        BuiltinScope::Cluster => "Cluster",
                        BuiltinScope::Namespaced | BuiltinScope::Subresource => "Namespaced",
                    }
                    .to_string(),
                ),
                versions: Some(vec![CrdVersion {
                    name: Some(self.version.to_string()),
                    served: Some(true),
                    storage: Some(true),
                    schema: Some(CustomResourceValidation {
                        open_api_v3_schema: Some(schema),
                        ..CustomResourceValidation::default()
                    }),
                    subresources: has_status.then(|| CrdSubresources {
                        status: Some(serde_json::json!({})),
                        ..CrdSubresources::default()
                    }),
                    ..CrdVersion::default()
                }]),
                ..CrdSpec::default()
            }),
            ..CustomResourceDefinition::default()
        })
    }
}

/// [`BuiltinKind::schema`] of `T`.
fn schema_of<T: StructuralSchema>() -> Result<JsonSchemaProps, SchemaErrors> {
    let mut cx = SchemaCx::new();
    cx.set_embedded_object_meta(EmbeddedObjectMeta::Full);
    let mut schema = cx.subschema::<T>();
    if let Some(meta) = schema
        .properties
        .as_mut()
        .and_then(|p| p.get_mut("metadata"))
    {
        *meta = JsonSchemaProps {
            type_: Some("object".to_string()),
            ..JsonSchemaProps::default()
        };
    }
    cx.finish(schema)
}

/// Every built-in kind of the Kubernetes version selected on k8s-openapi,
/// by module path (`api::apps::v1::Deployment` …).
#[must_use]
pub fn builtin_kinds() -> Vec<BuiltinKind> {
    let mut out = Vec::new();
    super::types::kinds(&mut |k| out.push(k));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::kube_version::KubeVersion;
    use crate::object::admission::Admission;

    /// Every kind's schema expands, and its CRD is admitted from, so an
    /// object of any kind can be validated; the core group's kinds have the
    /// bare version as `apiVersion`.
    #[test]
    fn every_kind_gets_an_admission() {
        let kinds = builtin_kinds();
        assert!(kinds.len() > 80, "{} kinds", kinds.len());
        for k in &kinds {
            let crd = k
                .crd()
                .unwrap_or_else(|e| panic!("{} {}: {e}", k.api_version, k.kind));
            if let Err(e) = Admission::for_crd_at(&crd, k.version, KubeVersion::default()) {
                panic!("{} {}: {e}", k.api_version, k.kind);
            }
        }
        let find = |api_version: &str, kind: &str| {
            kinds
                .iter()
                .find(|k| k.api_version == api_version && k.kind == kind)
                .copied()
                .unwrap_or_else(|| panic!("no {api_version} {kind}"))
        };
        let cm = find("v1", "ConfigMap");
        assert_eq!(
            (cm.group, cm.plural, cm.scope),
            ("", "configmaps", BuiltinScope::Namespaced)
        );
        assert_eq!(find("v1", "Namespace").scope, BuiltinScope::Cluster);
        assert_eq!(find("apps/v1", "Deployment").plural, "deployments");
    }

    /// A template's `metadata` keeps every `ObjectMeta` field (the API
    /// server decodes it whole); the root's is a bare object.
    #[test]
    fn template_metadata_is_whole() {
        let deployment = builtin_kinds()
            .into_iter()
            .find(|k| k.api_version == "apps/v1" && k.kind == "Deployment")
            .unwrap();
        let schema = deployment.schema().unwrap().to_value();
        assert_eq!(
            schema["properties"]["metadata"],
            serde_json::json!({"type": "object"})
        );
        let meta =
            &schema["properties"]["spec"]["properties"]["template"]["properties"]["metadata"];
        for field in ["labels", "annotations", "ownerReferences", "generateName"] {
            assert!(
                meta["properties"].get(field).is_some(),
                "no {field}: {meta}"
            );
        }
    }
}
