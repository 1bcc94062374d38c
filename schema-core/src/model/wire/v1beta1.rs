//! `apiextensions.k8s.io/v1beta1` CustomResourceDefinitions, read as they
//! are written and converted to v1 as the API server converts them
//! (v1beta1 defaulting, then the internal-to-v1 conversion that copies the
//! top-level `validation`, `subresources` and `additionalPrinterColumns`
//! into every version).

use serde_json::Value;

use super::codec::wire_struct;
use super::{
    CrdConversion, CrdNames, CrdSpec, CrdSubresources, CrdVersion, CustomResourceDefinition,
    CustomResourceValidation, PrinterColumn, SelectableField, WebhookClientConfig,
    WebhookConversion,
};

wire_struct! {
    /// A v1beta1 `CustomResourceDefinition`.
    pub struct CustomResourceDefinitionV1Beta1 {
        /// `apiVersion`.
        api_version: String = "apiVersion",
        /// `kind`.
        kind: String = "kind",
        /// `metadata`.
        metadata: Value = "metadata",
        /// `spec`.
        spec: CrdSpecV1Beta1 = "spec",
        /// `status`.
        status: Value = "status",
    }
}

wire_struct! {
    /// A v1beta1 `CustomResourceDefinitionSpec`.
    pub struct CrdSpecV1Beta1 {
        /// `group`.
        group: String = "group",
        /// `version` (deprecated single version).
        version: String = "version",
        /// `names`.
        names: CrdNames = "names",
        /// `scope`.
        scope: String = "scope",
        /// `validation` (shared by all versions).
        validation: CustomResourceValidation = "validation",
        /// `subresources` (shared by all versions).
        subresources: CrdSubresources = "subresources",
        /// `versions`.
        versions: Vec<CrdVersionV1Beta1> = "versions",
        /// `additionalPrinterColumns` (shared by all versions).
        additional_printer_columns: Vec<PrinterColumnV1Beta1> = "additionalPrinterColumns",
        /// `selectableFields` (shared by all versions).
        selectable_fields: Vec<SelectableField> = "selectableFields",
        /// `conversion`.
        conversion: CrdConversionV1Beta1 = "conversion",
        /// `preserveUnknownFields` (defaults to true in v1beta1).
        preserve_unknown_fields: bool = "preserveUnknownFields",
    }
}

wire_struct! {
    /// A v1beta1 `CustomResourceDefinitionVersion`.
    pub struct CrdVersionV1Beta1 {
        /// `name`.
        name: String = "name",
        /// `served`.
        served: bool = "served",
        /// `storage`.
        storage: bool = "storage",
        /// `deprecated`.
        deprecated: bool = "deprecated",
        /// `deprecationWarning`.
        deprecation_warning: String = "deprecationWarning",
        /// `schema`.
        schema: CustomResourceValidation = "schema",
        /// `subresources`.
        subresources: CrdSubresources = "subresources",
        /// `additionalPrinterColumns`.
        additional_printer_columns: Vec<PrinterColumnV1Beta1> = "additionalPrinterColumns",
        /// `selectableFields`.
        selectable_fields: Vec<SelectableField> = "selectableFields",
    }
}

wire_struct! {
    /// A v1beta1 printer column (`JSONPath` spelled in capitals).
    pub struct PrinterColumnV1Beta1 {
        /// `name`.
        name: String = "name",
        /// `type`.
        type_: String = "type",
        /// `format`.
        format: String = "format",
        /// `description`.
        description: String = "description",
        /// `priority`.
        priority: i64 = "priority",
        /// `JSONPath`.
        json_path: String = "JSONPath",
    }
}

wire_struct! {
    /// A v1beta1 `CustomResourceConversion`.
    pub struct CrdConversionV1Beta1 {
        /// `strategy`.
        strategy: String = "strategy",
        /// `webhookClientConfig`.
        webhook_client_config: WebhookClientConfig = "webhookClientConfig",
        /// `conversionReviewVersions`.
        conversion_review_versions: Vec<String> = "conversionReviewVersions",
    }
}

fn column(c: &PrinterColumnV1Beta1) -> PrinterColumn {
    PrinterColumn {
        name: c.name.clone(),
        type_: c.type_.clone(),
        format: c.format.clone(),
        description: c.description.clone(),
        priority: c.priority,
        json_path: c.json_path.clone(),
        extra: c.extra.clone(),
        explicit_nulls: Vec::new(),
    }
}

impl CustomResourceDefinitionV1Beta1 {
    /// Converts to v1 as the server does: v1beta1 defaults (a single
    /// `version` becomes `versions`, `preserveUnknownFields` defaults to
    /// true, conversion strategy `None`, webhook review versions
    /// `["v1beta1"]`), then top-level `validation`, `subresources`,
    /// `additionalPrinterColumns` and `selectableFields` are copied into
    /// every version that does not set its own.
    pub fn to_v1(&self) -> CustomResourceDefinition {
        let spec = self.spec.clone().unwrap_or_default();
        let mut versions: Vec<CrdVersion> = spec
            .versions
            .iter()
            .flatten()
            .map(|v| CrdVersion {
                name: v.name.clone(),
                served: v.served,
                storage: v.storage,
                deprecated: v.deprecated,
                deprecation_warning: v.deprecation_warning.clone(),
                schema: v.schema.clone().or_else(|| spec.validation.clone()),
                subresources: v.subresources.clone().or_else(|| spec.subresources.clone()),
                additional_printer_columns: v
                    .additional_printer_columns
                    .as_ref()
                    .or(spec.additional_printer_columns.as_ref())
                    .map(|cs| cs.iter().map(column).collect()),
                selectable_fields: v
                    .selectable_fields
                    .clone()
                    .or_else(|| spec.selectable_fields.clone()),
                extra: v.extra.clone(),
                explicit_nulls: Vec::new(),
            })
            .collect();
        if versions.is_empty() {
            if let Some(name) = &spec.version {
                versions.push(CrdVersion {
                    name: Some(name.clone()),
                    served: Some(true),
                    storage: Some(true),
                    schema: spec.validation.clone(),
                    subresources: spec.subresources.clone(),
                    additional_printer_columns: spec
                        .additional_printer_columns
                        .as_ref()
                        .map(|cs| cs.iter().map(column).collect()),
                    selectable_fields: spec.selectable_fields.clone(),
                    ..CrdVersion::default()
                });
            }
        }
        let conversion = match &spec.conversion {
            None => CrdConversion {
                strategy: Some("None".into()),
                ..CrdConversion::default()
            },
            Some(c) => {
                let webhook = (c.strategy.as_deref() == Some("Webhook")
                    || c.webhook_client_config.is_some())
                .then(|| WebhookConversion {
                    client_config: c.webhook_client_config.clone(),
                    conversion_review_versions: Some(
                        c.conversion_review_versions
                            .clone()
                            .filter(|v| !v.is_empty())
                            .unwrap_or_else(|| vec!["v1beta1".into()]),
                    ),
                    ..WebhookConversion::default()
                });
                CrdConversion {
                    strategy: c.strategy.clone(),
                    webhook,
                    extra: c.extra.clone(),
                    explicit_nulls: Vec::new(),
                }
            }
        };
        CustomResourceDefinition {
            api_version: Some("apiextensions.k8s.io/v1".into()),
            kind: self.kind.clone(),
            metadata: self.metadata.clone(),
            spec: Some(CrdSpec {
                group: spec.group.clone(),
                names: spec.names.clone(),
                scope: spec.scope.clone(),
                versions: Some(versions),
                conversion: Some(conversion),
                preserve_unknown_fields: Some(spec.preserve_unknown_fields.unwrap_or(true)),
                extra: spec.extra.clone(),
                explicit_nulls: Vec::new(),
            }),
            status: self.status.clone(),
            extra: self.extra.clone(),
            explicit_nulls: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::field::Path;
    use crate::model::wire::codec::{DecodeCx, Wire};
    use serde_json::json;

    #[test]
    fn converts_to_v1_as_the_server_does() {
        let v = json!({
            "apiVersion": "apiextensions.k8s.io/v1beta1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "foos.example.com"},
            "spec": {
                "group": "example.com",
                "version": "v1",
                "names": {"plural": "foos", "kind": "Foo"},
                "scope": "Namespaced",
                "validation": {"openAPIV3Schema": {"type": "object"}},
                "subresources": {"status": {}},
                "additionalPrinterColumns": [{"name": "Age", "type": "date", "JSONPath": ".metadata.creationTimestamp"}],
            }
        });
        let mut cx = DecodeCx::default();
        let crd = CustomResourceDefinitionV1Beta1::decode(&v, &Path::root(), &mut cx).unwrap();
        assert!(cx.errors.is_empty() && cx.warnings.is_empty());
        // Written back as read.
        assert_eq!(crd.encode(), v);
        let v1 = crd.to_v1().encode();
        assert_eq!(v1["apiVersion"], "apiextensions.k8s.io/v1");
        assert_eq!(v1["spec"]["preserveUnknownFields"], true);
        assert_eq!(v1["spec"]["conversion"], json!({"strategy": "None"}));
        let version = &v1["spec"]["versions"][0];
        assert_eq!(version["name"], "v1");
        assert_eq!(version["served"], true);
        assert_eq!(version["storage"], true);
        assert_eq!(
            version["schema"],
            json!({"openAPIV3Schema": {"type": "object"}})
        );
        assert_eq!(version["subresources"], json!({"status": {}}));
        assert_eq!(
            version["additionalPrinterColumns"][0]["jsonPath"],
            ".metadata.creationTimestamp"
        );
    }
}
