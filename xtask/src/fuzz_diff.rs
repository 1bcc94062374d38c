//! `cargo xtask fuzz-diff [--seconds N] [--seed S]`: the differential tests
//! against the oracle (`tests/tests/integration/oracle.rs`) with a random budget of N
//! seconds (default 1800), from seed S (default: the clock), built with
//! optimizations. Shrunk differences are written to
//! `tests/oracle-regressions/`.

use anyhow::{Context, Result, bail};

/// The usage line of this task.
pub const USAGE: &str = "  fuzz-diff [--seconds N] [--seed S]
             random schemas, CRDs, objects and rules through the oracle and
             schema-gen for N seconds (default 1800); needs Go";

pub fn run(args: &[String]) -> Result<()> {
    let mut seconds = "1800".to_string();
    let mut seed = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seconds" => seconds = it.next().context("--seconds needs a value")?.clone(),
            "--seed" => seed = Some(it.next().context("--seed needs a value")?.clone()),
            other => bail!("unknown argument {other:?}\n{USAGE}"),
        }
    }
    seconds
        .parse::<u64>()
        .with_context(|| format!("--seconds {seconds:?} is not a number"))?;
    let mut cmd = std::process::Command::new(env!("CARGO"));
    cmd.args([
        "test",
        "--release",
        "-p",
        "tests",
        "--test",
        "integration",
        "oracle::",
    ])
    .env("SCHEMA_GEN_FUZZ_SECONDS", &seconds)
    .env("SCHEMA_GEN_REQUIRE_GO", "1");
    if let Some(s) = &seed {
        s.parse::<u64>()
            .with_context(|| format!("--seed {s:?} is not a number"))?;
        cmd.env("SCHEMA_GEN_FUZZ_SEED", s);
    }
    let status = cmd.status().context("running cargo test")?;
    if !status.success() {
        bail!("differences found (see above; shrunk inputs are under tests/oracle-regressions/)");
    }
    Ok(())
}
