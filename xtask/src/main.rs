//! Project automation: `cargo xtask ci | bench | bless`.

use std::process::Command;

use anyhow::{Context, Result, bail};

const USAGE: &str = "usage: cargo xtask <ci|bench|bless>
  ci     formatting, lints and every test, as CI runs them
  bench  the benchmarks (medians), side by side with the baselines
  bless  nothing to bless yet: expected outputs are checked in by hand";

fn main() -> Result<()> {
    let task = std::env::args().nth(1).unwrap_or_default();
    match task.as_str() {
        "ci" => ci(),
        "bench" => bench(),
        "bless" => {
            println!("no snapshot suites to bless");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
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
