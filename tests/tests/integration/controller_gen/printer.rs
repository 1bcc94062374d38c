//! The twin of `fixtures/printer`: printer columns, short names,
//! categories, explicit names and selectable fields.

use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// ReportSpec is the desired state of a Report.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
#[serde(rename_all = "camelCase")]
#[schema(crd(
    group = "printer.example.com",
    version = "v1",
    kind = "Report",
    namespaced,
    plural = "reports",
    singular = "report",
    short_names = ["rp", "rpt"],
    categories = ["docs", "all"],
    status = ReportStatus,
    printer_column(name = "Title", type = "string", json_path = ".spec.title"),
    printer_column(name = "Pages", type = "integer", json_path = ".spec.pages", format = "int32"),
    printer_column(
        name = "Draft",
        type = "boolean",
        json_path = ".spec.draft",
        priority = 1,
        description = "Whether it is a draft"
    ),
    printer_column(name = "Phase", type = "string", json_path = ".status.phase"),
    printer_column(name = "Age", type = "date", json_path = ".metadata.creationTimestamp"),
    selectable_field = ".spec.title",
    doc = "Report is the Schema for the reports API.",
))]
pub struct ReportSpec {
    /// Title of the report.
    pub title: String,
    /// Pages in the report.
    pub pages: i32,
    /// Draft reports are not published.
    pub draft: Option<bool>,
}

/// ReportStatus is the observed state of a Report.
#[derive(Clone, Debug, Serialize, Deserialize, StructuralSchema)]
pub struct ReportStatus {
    /// Phase of the report.
    pub phase: Option<String>,
}
