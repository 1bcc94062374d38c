//! The derive against controller-gen: each fixture under
//! `oracle/controller-gen/fixtures/` is a small Go API group, and the
//! module of the same name here is its Rust twin, written with the
//! derive's documented attributes as an operator author would write it.
//! controller-gen (v0.21.0, built from the pinned Go module) generates the
//! fixtures' CRDs; each must equal the twin's `crd()` node by node. A
//! difference is reported by JSON path with both values.
//!
//! Object keys compare without order (controller-gen sorts them, the
//! derive keeps field order); arrays compare in order. The normalizations
//! are listed in [`normalize`], each with its reason.
//!
//! Needs Go; without it the tests print a notice and pass
//! (`SCHEMA_GEN_REQUIRE_GO=1` makes that a failure).

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cel;
mod cluster;
mod defaults;
mod docs;
mod embedded;
mod enums;
mod k8stypes;
mod listmaps;
mod lists;
mod maps;
mod multiversion;
mod names;
mod nullable;
mod numbers;
mod objectroot;
mod oneof;
mod optionalpkg;
mod overrides;
mod preserve;
mod printer;
mod required;
mod scale;
mod strings;
mod templates;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use schema_core::model::source::{Limits, parse_documents};
use schema_core::model::wire::CustomResourceDefinition;
use schema_core::model::wire::codec::Wire;
use schema_core::rust::{CrdError, CustomResource, MergeError, merge_crds};
use serde_json::Value;

/// A fixture: the folder under `fixtures/` (or, for a fixture generated
/// with an option, under `options/`), the file controller-gen writes
/// for it (`<group>_<plural>.yaml`), and the twin's CRD.
struct Fixture {
    dir: &'static str,
    /// The controller-gen run that generates it.
    run: Run,
    file: &'static str,
    crd: fn() -> Result<CustomResourceDefinition, String>,
    /// JSON paths (as [`diff`] writes them) of the nodes whose schema
    /// comes from k8s-openapi; see [`normalize`].
    k8s_nodes: &'static [&'static str],
}

/// The CRD of one root type.
fn one<T: CustomResource>() -> Result<CustomResourceDefinition, String> {
    T::crd().map_err(|e: CrdError| e.to_string())
}

/// The merged CRD of several versions.
fn merged(
    crds: &[Result<CustomResourceDefinition, String>],
) -> Result<CustomResourceDefinition, String> {
    let crds: Vec<_> = crds.iter().cloned().collect::<Result<_, _>>()?;
    merge_crds(&crds).map_err(|e: MergeError| e.to_string())
}

const FIXTURES: &[Fixture] = &[
    Fixture {
        run: Run::Default,
        dir: "cel",
        file: "cel.example.com_budgets.yaml",
        crd: one::<cel::Budget>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "cluster",
        file: "cluster.example.com_regions.yaml",
        crd: one::<cluster::Region>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "defaults",
        file: "defaults.example.com_presets.yaml",
        crd: one::<defaults::Preset>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "docs",
        file: "docs.example.com_manuals.yaml",
        crd: one::<docs::Manual>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "embedded",
        file: "embedded.example.com_composites.yaml",
        crd: one::<embedded::Composite>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "enums",
        file: "enums.example.com_shipments.yaml",
        crd: one::<enums::Shipment>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "k8stypes",
        file: "k8stypes.example.com_workloads.yaml",
        crd: one::<k8stypes::Workload>,
        k8s_nodes: k8stypes::K8S_NODES,
    },
    Fixture {
        run: Run::Default,
        dir: "listmaps",
        file: "listmaps.example.com_routers.yaml",
        crd: one::<listmaps::Router>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "lists",
        file: "lists.example.com_playlists.yaml",
        crd: one::<lists::Playlist>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "maps",
        file: "maps.example.com_inventories.yaml",
        crd: one::<maps::Inventory>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "multiversion",
        file: "multiversion.example.com_caches.yaml",
        crd: multiversion::crd,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "names",
        file: "names.example.com_tags.yaml",
        crd: one::<names::Tag>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "nullable",
        file: "nullable.example.com_patches.yaml",
        crd: one::<nullable::Patch>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "numbers",
        file: "numbers.example.com_gauges.yaml",
        crd: one::<numbers::Gauge>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "objectroot",
        file: "objectroot.example.com_settings.yaml",
        crd: one::<objectroot::Setting>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "oneof",
        file: "oneof.example.com_sources.yaml",
        crd: one::<oneof::Source>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "optionalpkg",
        file: "optionalpkg.example.com_notes.yaml",
        crd: one::<optionalpkg::Note>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "overrides",
        file: "overrides.example.com_dials.yaml",
        crd: one::<overrides::Dial>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "preserve",
        file: "preserve.example.com_blobs.yaml",
        crd: one::<preserve::Blob>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "printer",
        file: "printer.example.com_reports.yaml",
        crd: one::<printer::Report>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "required",
        file: "required.example.com_claims.yaml",
        crd: one::<required::Claim>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "scale",
        file: "scale.example.com_pools.yaml",
        crd: one::<scale::Pool>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "strings",
        file: "strings.example.com_labels.yaml",
        crd: one::<strings::Label>,
        k8s_nodes: &[],
    },
    Fixture {
        run: Run::Default,
        dir: "templates",
        file: "templates.example.com_pools.yaml",
        crd: one::<templates::Pool>,
        k8s_nodes: templates::K8S_NODES,
    },
    Fixture {
        run: Run::EmbeddedObjectMeta,
        dir: "embeddedmeta",
        file: "embeddedmeta.example.com_pools.yaml",
        crd: one::<templates::expanded::Pool>,
        k8s_nodes: templates::K8S_NODES,
    },
];

/// A controller-gen run: its packages and options.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    /// `fixtures/...` with the default options.
    Default,
    /// `options/embeddedmeta/...` with `crd:generateEmbeddedObjectMeta=true`.
    EmbeddedObjectMeta,
}

impl Run {
    /// The folder of its packages, the `crd` generator's options and the
    /// name of its output folder.
    fn spec(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Run::Default => ("fixtures", "crd", "controller-gen-crds"),
            Run::EmbeddedObjectMeta => (
                "options/embeddedmeta",
                "crd:generateEmbeddedObjectMeta=true",
                "controller-gen-crds-embeddedmeta",
            ),
        }
    }
}

/// The controller-gen binary, built once per run; `None` without Go.
fn controller_gen() -> Option<&'static Path> {
    static BIN: OnceLock<Option<PathBuf>> = OnceLock::new();
    BIN.get_or_init(|| {
        let go = tests::go::go_command("controller-gen parity")?;
        let module = tests::go::oracle_dir().join("controller-gen");
        let bin = tests::go::go_target_dir().join("controller-gen");
        tests::go::go_build(
            &go,
            &module,
            "sigs.k8s.io/controller-tools/cmd/controller-gen",
            &bin,
            &[],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        Some(bin)
    })
    .as_deref()
}

/// The folder controller-gen wrote the fixtures' CRDs of `run` to, once
/// per test run; `None` without Go.
fn generated(run: Run) -> Option<&'static Path> {
    static DEFAULT: OnceLock<Option<PathBuf>> = OnceLock::new();
    static EMBEDDED: OnceLock<Option<PathBuf>> = OnceLock::new();
    let cell = match run {
        Run::Default => &DEFAULT,
        Run::EmbeddedObjectMeta => &EMBEDDED,
    };
    cell.get_or_init(|| {
        let bin = controller_gen()?;
        let module = tests::go::oracle_dir().join("controller-gen");
        let (packages, options, folder) = run.spec();
        let out = tests::go::go_target_dir().join(folder);
        if out.exists() {
            std::fs::remove_dir_all(&out).unwrap();
        }
        std::fs::create_dir_all(&out).unwrap();
        let o = Command::new(bin)
            .current_dir(&module)
            .env("GOFLAGS", "-mod=readonly")
            .arg(options)
            .arg(format!("paths=./{packages}/..."))
            .arg(format!("output:crd:dir={}", out.display()))
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
        assert!(
            o.status.success(),
            "controller-gen failed:\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        Some(out)
    })
    .as_deref()
}

/// controller-gen's CRD for `file`, as JSON.
fn controller_gen_crd(out: &Path, file: &str) -> Value {
    let path = out.join(file);
    let bytes = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("controller-gen wrote no {}: {e}", path.display()));
    let mut docs = parse_documents(file, &bytes, &Limits::default())
        .unwrap_or_else(|e| panic!("{file}: {e:?}"));
    assert_eq!(docs.len(), 1, "{file}: one document expected");
    docs.remove(0).value
}

/// Brings both sides to the form they are compared in. Each step removes
/// a difference that is inherent, not a mistake of the derive:
///
/// - `metadata.annotations["controller-gen.kubebuilder.io/version"]`:
///   controller-gen signs its output with its version; the derive is
///   another generator and writes no such annotation (an empty
///   `annotations` left behind goes too).
/// - descriptions under the `k8s_nodes` of the fixture (nodes whose
///   schema is a Kubernetes type's): the derive takes them from
///   k8s-openapi, which joins the lines of the Go doc comment with spaces
///   where controller-gen keeps the line breaks, so both sides compare
///   with every run of white space as one space.
/// - a value validation set both on a named type and on a field of that
///   type with another value: controller-gen resolves the field's type by
///   merging the two schemas, cannot merge two values of one keyword, and
///   keeps both as `allOf: [{k: type's}, {k: field's}]`; the derive's field
///   attribute replaces the type's value (its documented rule). When the
///   field narrows the type's bound, as in the fixtures, both validate the
///   same values; controller-gen's form is folded into the field's value
///   (see [`fold_conflicts`]).
fn normalize(cg: &mut Value, derived: &mut Value, k8s_nodes: &[&str]) {
    fold_conflicts(cg);
    if let Some(Value::Object(meta)) = cg.pointer_mut("/metadata")
        && let Some(Value::Object(ann)) = meta.get_mut("annotations")
    {
        ann.remove("controller-gen.kubebuilder.io/version");
        if ann.is_empty() {
            meta.remove("annotations");
        }
    }
    for node in k8s_nodes {
        for side in [&mut *cg, &mut *derived] {
            if let Some(v) = side.pointer_mut(node) {
                collapse_descriptions(v);
            }
        }
    }
}

/// Every schema node below `v` whose `allOf` is two objects with the same
/// single key, absent from the node itself, takes the second (the field's)
/// value of that key instead.
fn fold_conflicts(v: &mut Value) {
    match v {
        Value::Object(m) => {
            let fold = match m.get("allOf") {
                Some(Value::Array(all)) if all.len() == 2 => match (&all[0], &all[1]) {
                    (Value::Object(a), Value::Object(b))
                        if a.len() == 1
                            && b.len() == 1
                            && a.keys().eq(b.keys())
                            && a.keys().all(|k| !m.contains_key(k)) =>
                    {
                        b.iter().next().map(|(k, v)| (k.clone(), v.clone()))
                    }
                    _ => None,
                },
                _ => None,
            };
            if let Some((k, field)) = fold {
                m.remove("allOf");
                m.insert(k, field);
            }
            m.values_mut().for_each(fold_conflicts);
        }
        Value::Array(a) => a.iter_mut().for_each(fold_conflicts),
        _ => {}
    }
}

/// Every `description` of the schema at `v` (and below) with white space
/// runs as single spaces.
fn collapse_descriptions(v: &mut Value) {
    let Value::Object(m) = v else { return };
    if let Some(Value::String(d)) = m.get_mut("description") {
        *d = d.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        props.values_mut().for_each(collapse_descriptions);
    }
    for k in ["items", "additionalProperties", "not"] {
        if let Some(s) = m.get_mut(k) {
            collapse_descriptions(s);
        }
    }
    for k in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(all)) = m.get_mut(k) {
            all.iter_mut().for_each(collapse_descriptions);
        }
    }
}

/// Every path (RFC 6901 pointer) at which `derived` and `cg` differ, with
/// both values: object keys without order, arrays element by element.
fn diff(path: &str, derived: &Value, cg: &Value, out: &mut Vec<String>) {
    match (derived, cg) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for k in keys {
                let p = format!("{path}/{}", k.replace('~', "~0").replace('/', "~1"));
                match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => diff(&p, x, y, out),
                    (x, y) => out.push(format!(
                        "{p}:\n    derive:         {}\n    controller-gen: {}",
                        show(x),
                        show(y)
                    )),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for i in 0..a.len().max(b.len()) {
                let p = format!("{path}/{i}");
                match (a.get(i), b.get(i)) {
                    (Some(x), Some(y)) => diff(&p, x, y, out),
                    (x, y) => out.push(format!(
                        "{p}:\n    derive:         {}\n    controller-gen: {}",
                        show(x),
                        show(y)
                    )),
                }
            }
        }
        _ if derived == cg => {}
        _ => out.push(format!(
            "{path}:\n    derive:         {}\n    controller-gen: {}",
            show(Some(derived)),
            show(Some(cg))
        )),
    }
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "(absent)".to_owned(), Value::to_string)
}

/// The differences between the twin of `dir` and controller-gen's CRD.
fn differences(f: &Fixture, out: &Path) -> Vec<String> {
    let mut cg = controller_gen_crd(out, f.file);
    let mut derived = match (f.crd)() {
        Ok(crd) => crd.encode(),
        Err(e) => return vec![format!("the twin's crd() failed:\n{e}")],
    };
    normalize(&mut cg, &mut derived, f.k8s_nodes);
    let mut d = Vec::new();
    diff("", &derived, &cg, &mut d);
    d
}

#[track_caller]
fn assert_parity(dir: &str) {
    let f = FIXTURES
        .iter()
        .find(|f| f.dir == dir)
        .unwrap_or_else(|| panic!("no fixture {dir}"));
    let Some(out) = generated(f.run) else { return };
    let d = differences(f, out);
    assert!(
        d.is_empty(),
        "fixture {dir}: {} difference(s) between the derive and controller-gen:\n{}",
        d.len(),
        d.join("\n")
    );
}

/// Every file controller-gen wrote belongs to a fixture, and every
/// fixture has its file (a fixture folder without a twin is a mistake).
#[test]
fn every_fixture_has_a_twin() {
    for run in [Run::Default, Run::EmbeddedObjectMeta] {
        let Some(out) = generated(run) else { return };
        let fixtures = || FIXTURES.iter().filter(|f| f.run == run);
        let written: BTreeSet<String> = std::fs::read_dir(out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let expected: BTreeSet<String> = fixtures().map(|f| f.file.to_owned()).collect();
        assert_eq!(written, expected);
        let (packages, _, _) = run.spec();
        let root = tests::go::oracle_dir()
            .join("controller-gen")
            .join(packages);
        let dirs: BTreeSet<String> = if run == Run::Default {
            std::fs::read_dir(root)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        } else {
            // The run's folder is the fixture itself.
            let name = root.file_name().unwrap().to_string_lossy().into_owned();
            BTreeSet::from([name])
        };
        let twins: BTreeSet<String> = fixtures().map(|f| f.dir.to_owned()).collect();
        assert_eq!(dirs, twins);
    }
}

macro_rules! parity {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                assert_parity(stringify!($name));
            }
        )*
    };
}

parity!(
    cel,
    cluster,
    defaults,
    docs,
    embedded,
    enums,
    k8stypes,
    listmaps,
    lists,
    maps,
    multiversion,
    names,
    nullable,
    numbers,
    objectroot,
    oneof,
    optionalpkg,
    overrides,
    preserve,
    printer,
    required,
    scale,
    strings,
    templates,
    embeddedmeta,
);
