//! kube-derive's example custom resource, with only the derive line and
//! the attribute names changed: `#[derive(CustomResource, JsonSchema)]` and
//! `#[kube(...)]` become `#[derive(StructuralSchema)]` and
//! `#[schema(crd(...))]`. Everything after the type definitions is written
//! against kube's traits as with kube-derive.

use kube::{Api, Client, CustomResourceExt, Resource};
use schema_core::StructuralSchema;
use serde::{Deserialize, Serialize};

/// Our Foo custom resource spec.
#[derive(StructuralSchema, Clone, Debug, Deserialize, Serialize)]
#[schema(crd(group = "clux.dev", version = "v1", kind = "Foo", namespaced))]
pub struct FooSpec {
    /// What Foo knows.
    pub info: String,
}

/// The Foo API in a namespace (kube's typed client; not called here).
pub fn foos(client: Client) -> Api<Foo> {
    Api::namespaced(client, "default")
}

/// What the program prints: the kind, an object and the CRD.
pub fn report() -> Result<String, serde_json::Error> {
    let f = Foo::new(
        "foo-1",
        FooSpec {
            info: "informative info".into(),
        },
    );
    Ok(format!(
        "kind = {}\nfoo: {}\ncrd {}: {}\n",
        Foo::kind(&()),
        serde_json::to_string(&f)?,
        Foo::crd_name(),
        serde_json::to_string_pretty(&Foo::crd())?
    ))
}

fn main() -> Result<(), serde_json::Error> {
    print!("{}", report()?);
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn prints_its_crd() {
        let out = super::report().unwrap_or_default();
        assert!(out.starts_with("kind = Foo\n"), "{out}");
        assert!(
            out.contains(r#"foo: {"apiVersion":"clux.dev/v1","kind":"Foo","metadata":{"name":"foo-1"},"spec":{"info":"informative info"}}"#),
            "{out}"
        );
        assert!(out.contains("crd foos.clux.dev: {"), "{out}");
        assert!(out.contains(r#""name": "foos.clux.dev""#), "{out}");
    }
}
