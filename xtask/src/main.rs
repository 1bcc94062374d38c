//! Project automation: `cargo xtask ci | bench | bench-derive | bless`.

mod derive_bench;

use std::process::Command;

use anyhow::{Context, Result, bail};

const USAGE: &str = "usage: cargo xtask <ci|bench|bench-derive|bless>
  ci     formatting, lints and every test, as CI runs them
  bench  the benchmarks (medians), side by side with the baselines
  bless  nothing to bless yet: expected outputs are checked in by hand";

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let task = args.first().cloned().unwrap_or_default();
    match task.as_str() {
        "ci" => ci(),
        "bench" => bench(),
        "bench-derive" => derive_bench::run(&args[1..]),
        "bless" => {
            println!("no snapshot suites to bless");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}\n{}", derive_bench::USAGE);
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
    cargo(&["bench", "-p", "schema-core", "--bench", "validate"])
}
