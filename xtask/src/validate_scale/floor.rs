//! The parse floor: every file of a folder read and parsed as `validate`
//! parses it, in-process on one thread, which is what validating can at best
//! cost. Timed in a release build of this xtask (`--parse-floor`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use schema_core::model::source::{Limits, parse_documents};

use crate::measure::{Stats, stats};
use crate::workspace::files_under;

/// The parse floor of the files under `dir` ([`parse_floor`]), in the
/// release build `exe` of this xtask when given, else here: the wall time
/// of each run and the documents.
pub(super) fn parse_floor_of(
    exe: Option<&Path>,
    runs: usize,
    dir: &Path,
) -> Result<(Stats, usize)> {
    let floor = match exe {
        Some(exe) => {
            let out = Command::new(exe)
                .args(["bench-validate-scale", "--parse-floor"])
                .arg(runs.to_string())
                .arg(dir)
                .stderr(Stdio::inherit())
                .output()
                .context("running the release xtask for the parse floor")?;
            if !out.status.success() {
                bail!("the parse floor failed");
            }
            serde_json::from_slice::<Value>(&out.stdout).context("reading the parse floor")?
        }
        None => parse_floor(runs, dir)?,
    };
    let secs: Vec<f64> = floor["secs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_f64)
        .collect();
    if secs.is_empty() {
        bail!("the parse floor timed nothing");
    }
    let documents = floor["documents"].as_u64().unwrap_or(0) as usize;
    Ok((stats(secs.into_iter()), documents))
}

/// `--parse-floor RUNS DIR`: [`parse_floor`] as JSON on stdout.
pub(super) fn parse_floor_main(args: &[String]) -> Result<()> {
    let [runs, dir] = args else {
        bail!("usage: bench-validate-scale --parse-floor RUNS DIR");
    };
    let runs: usize = runs.parse().context("RUNS is a number")?;
    let out = parse_floor(runs.max(1), Path::new(dir))?;
    println!("{out}");
    Ok(())
}

/// The YAML files under `dir` read and parsed (with source maps, as
/// `validate` parses them), one after the other, `runs` times: the wall
/// time of each run, and the documents, files and bytes of the last.
fn parse_floor(runs: usize, dir: &Path) -> Result<Value> {
    let files = yaml_files(dir)?;
    let limits = Limits::default();
    let mut secs = Vec::new();
    let (mut documents, mut bytes) = (0, 0);
    for _ in 0..runs {
        (documents, bytes) = (0, 0);
        let start = Instant::now();
        for f in &files {
            let text = fs::read(f).with_context(|| format!("reading {}", f.display()))?;
            let name = f.to_string_lossy();
            let docs =
                parse_documents(&name, &text, &limits).map_err(|e| anyhow::anyhow!("{e}"))?;
            documents += docs.len();
            bytes += text.len();
        }
        secs.push(start.elapsed().as_secs_f64());
    }
    Ok(json!({"secs": secs, "documents": documents, "files": files.len(), "bytes": bytes}))
}

/// The `.yaml` files under `dir`, sorted.
pub(super) fn yaml_files(dir: &Path) -> Result<Vec<PathBuf>> {
    files_under(dir, |p| p.extension().is_some_and(|e| e == "yaml"))
}
