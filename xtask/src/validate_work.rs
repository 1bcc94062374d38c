//! `cargo xtask bench-validate-work`: the instructions each side of the
//! `validate` bench runs at 1x, 10x and 100x the object size, counted by
//! valgrind (callgrind, `--toggle-collect` on the example's `measured`), so
//! the growth of the work shows apart from the caches'.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::workspace;

/// The sides, as `validate_work` names them.
const SIDES: [&str; 4] = ["admission", "value", "jsonschema", "floor"];
/// The bench's endpoint counts.
const ENDPOINTS: [u64; 3] = [300, 3_000, 30_000];

pub fn run() -> Result<()> {
    let valgrind = Command::new("valgrind").arg("--version").output();
    if !valgrind.is_ok_and(|o| o.status.success()) {
        bail!("valgrind is needed (for example `apt-get install valgrind`)");
    }
    crate::cargo(&[
        "build",
        "--release",
        "-p",
        "schema-core",
        "--example",
        "validate_work",
    ])?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map_or_else(|| workspace::root().map(|r| r.join("target")), Ok)?;
    let exe = target.join("release/examples/validate_work");
    let out = std::env::temp_dir().join(format!("validate-work-{}.out", std::process::id()));
    println!(
        "{:<11} {:>9} {:>11} {:>14} {:>11} {:>9}",
        "side", "endpoints", "JSON bytes", "instructions", "per byte", "growth"
    );
    for side in SIDES {
        let mut last: Option<u64> = None;
        for n in ENDPOINTS {
            let o = Command::new("valgrind")
                .arg("--tool=callgrind")
                .arg(format!("--callgrind-out-file={}", out.display()))
                .arg("--toggle-collect=validate_work::measured*")
                .arg(&exe)
                .arg(side)
                .arg(n.to_string())
                .output()
                .context("running valgrind")?;
            let stderr = String::from_utf8_lossy(&o.stderr);
            let stdout = String::from_utf8_lossy(&o.stdout);
            if !o.status.success() {
                bail!("validate_work {side} {n} failed:\n{stderr}");
            }
            let collected = number_after(&stderr, "Collected :")
                .with_context(|| format!("no instruction count in:\n{stderr}"))?;
            let bytes = number_after(&stdout, "bytes=")
                .with_context(|| format!("no size in:\n{stdout}"))?;
            let growth = last.map_or(String::new(), |l| {
                format!("{:.2}x", collected as f64 / l as f64)
            });
            println!(
                "{side:<11} {n:>9} {bytes:>11} {collected:>14} {:>11.2} {growth:>9}",
                collected as f64 / bytes as f64
            );
            last = Some(collected);
        }
    }
    let _ = std::fs::remove_file(&out);
    Ok(())
}

/// The number right after `label` in `text`.
fn number_after(text: &str, label: &str) -> Option<u64> {
    let rest = &text[text.find(label)? + label.len()..];
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}
