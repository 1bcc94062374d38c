//! Project automation: `cargo xtask ci | bench | bench-validate-work | bench-derive | bench-gen |
//! bench-gate | bench-validate-scale | compare-cli | fuzz-diff | bless | k8s-types | k8s-markers`.

mod bench_repo;
mod compare_cli;
mod derive_bench;
mod flags;
mod fuzz_diff;
mod gate_bench;
mod gen_bench;
mod k8s_markers;
mod k8s_types;
mod measure;
mod validate_scale;
mod validate_work;
mod workspace;

/// As schema-gen allocates, for the parse floor of `bench-validate-scale`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::process::Command;

use anyhow::{Context, Result, bail};

const USAGE: &str = "usage: cargo xtask <ci|bench|bench-validate-work|bench-derive|bench-gen|bench-gate|bench-validate-scale|compare-cli|fuzz-diff|bless|k8s-types [--check]|k8s-markers [--check]>
  ci         formatting, lints and every test, as CI runs them
  bench      the benchmarks (medians), side by side with the baselines
  bench-validate-work
             instructions of each validate bench side at 1x, 10x, 100x (valgrind)
  bless      nothing to bless yet: expected outputs are checked in by hand
  k8s-types  regenerate schema-core/src/rust/k8s/types.rs from the k8s-openapi
             sources (--check: fail if it is out of date)
  k8s-markers
             regenerate schema-core/src/rust/k8s/markers.rs from the Kubernetes API
             marker data (SCHEMA_GEN_K8S_MARKERS_DIR, else ../shared/reference/k8s-api-markers)
             and the k8s-openapi sources (--check: fail if it is out of date; without
             the marker data, a notice unless SCHEMA_GEN_REQUIRE_SHARED=1)";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let task = args.first().cloned().unwrap_or_default();
    match task.as_str() {
        "ci" => ci(),
        "bench" => bench(),
        "bench-validate-work" => validate_work::run(),
        "bench-derive" => derive_bench::run(&args[1..]),
        "bench-gen" => gen_bench::run(&args[1..]),
        "bench-gate" => gate_bench::run(&args[1..]),
        "bench-validate-scale" => validate_scale::run(&args[1..]),
        "compare-cli" => compare_cli::run(&args[1..]),
        "fuzz-diff" => fuzz_diff::run(&args[1..]),
        "k8s-types" => k8s_types::run(args.get(1).map(String::as_str) == Some("--check")),
        "k8s-markers" => k8s_markers::run(args.get(1).map(String::as_str) == Some("--check")),
        "bless" => {
            println!("no snapshot suites to bless");
            Ok(())
        }
        _ => {
            eprintln!(
                "{USAGE}\n{}\n{}\n{}\n{}\n{}\n{}",
                derive_bench::USAGE,
                gen_bench::USAGE,
                gate_bench::USAGE,
                validate_scale::USAGE,
                compare_cli::USAGE,
                fuzz_diff::USAGE
            );
            bail!("unknown task {task:?}")
        }
    }
}

fn cargo(args: &[&str]) -> Result<()> {
    let status = Command::new(env!("CARGO"))
        .args(args)
        .status()
        .with_context(|| format!("running cargo {}", args.join(" ")))?;
    if !status.success() {
        bail!("cargo {} failed", args.join(" "));
    }
    Ok(())
}

fn ci() -> Result<()> {
    cargo(&["fmt", "--all", "--", "--check"])?;
    cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])?;
    cargo(&["test", "--workspace"])
}

fn bench() -> Result<()> {
    cargo(&["bench", "-p", "schema-core", "--bench", "core"])?;
    cargo(&["bench", "-p", "schema-core", "--bench", "docs"])?;
    cargo(&["bench", "-p", "schema-core", "--bench", "validate"])
}

/// The generated tables are checked by the workspace's tests, as
/// `cargo xtask k8s-markers --check` and `cargo xtask k8s-types --check`
/// check them: a table that differs from what its sources give fails.
#[cfg(test)]
mod generated_tables {
    /// `schema-core/src/rust/k8s/markers.rs` against the shared marker
    /// data (`SCHEMA_GEN_K8S_MARKERS_DIR` or `../shared` beside the
    /// workspace; without it a notice, unless `SCHEMA_GEN_REQUIRE_SHARED=1`)
    /// and the k8s-openapi sources the lock file pins.
    #[test]
    fn k8s_markers_table_is_current() -> anyhow::Result<()> {
        crate::k8s_markers::run(true)
    }

    /// `schema-core/src/rust/k8s/types.rs` against the k8s-openapi sources
    /// the lock file pins.
    #[test]
    fn k8s_types_table_is_current() -> anyhow::Result<()> {
        crate::k8s_types::run(true)
    }
}
