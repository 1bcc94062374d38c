//! Compile errors of `#[derive(StructuralSchema)]`, one family of mistakes
//! per folder under `tests/ui` (attribute syntax, attribute/type
//! mismatches, attribute values, shapes without a structural schema,
//! serde attributes, one-of constraints, enums, `crd(...)`, schemars',
//! garde's and validator's attributes read by `JsonSchema`). Each `.stderr`
//! holds the exact
//! compiler output; regenerate with `TRYBUILD=overwrite`.

#[test]
fn compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
}
