//! kubeconform, the JSON Schema validator the benchmarks compare with:
//! `go install`ed into `target/bench-tools/bin` at the version benchmarked.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::convert::SCHEMA_TEMPLATE;

/// The kubeconform command's module and the version benchmarked.
pub(crate) const KUBECONFORM_MODULE: &str = "github.com/yannh/kubeconform/cmd/kubeconform";

const KUBECONFORM_VERSION: &str = "v0.8.0";

/// The kubeconform binary and where it came from.
pub(crate) struct Kubeconform {
    pub(crate) path: PathBuf,
    pub(crate) version: String,
    pub(crate) go: String,
}

/// kubeconform from `target/bench-tools/bin` when it is the version
/// benchmarked, else installed there with Go; `None` without Go.
pub(crate) fn find_kubeconform(root: &Path) -> Result<Option<Kubeconform>> {
    let gobin = root.join("target").join("bench-tools").join("bin");
    let path = gobin.join("kubeconform");
    let go = match Command::new("go").arg("version").output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_string(),
        _ => {
            println!(
                "go not found on PATH: kubeconform cannot be installed, so only schema-gen runs \
                 (install Go 1.26 and run again for the comparison)"
            );
            return Ok(None);
        }
    };
    let installed = |path: &Path| -> Option<String> {
        let out = Command::new("go")
            .args(["version", "-m"])
            .arg(path)
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        text.lines().map(str::split_whitespace).find_map(|mut w| {
            (w.next() == Some("mod") && w.next() == Some("github.com/yannh/kubeconform"))
                .then(|| w.next().map(str::to_string))
                .flatten()
        })
    };
    if path.is_file() && installed(&path).as_deref() == Some(KUBECONFORM_VERSION) {
        return Ok(Some(Kubeconform {
            path,
            version: KUBECONFORM_VERSION.to_string(),
            go,
        }));
    }
    println!(
        "installing kubeconform: GOBIN={} go install {KUBECONFORM_MODULE}@{KUBECONFORM_VERSION}",
        gobin.display()
    );
    fs::create_dir_all(&gobin)?;
    let status = Command::new("go")
        .arg("install")
        .arg(format!("{KUBECONFORM_MODULE}@{KUBECONFORM_VERSION}"))
        .env("GOBIN", &gobin)
        .env("GOTOOLCHAIN", "local")
        .status()
        .context("running go install")?;
    if !status.success() {
        bail!("go install {KUBECONFORM_MODULE}@{KUBECONFORM_VERSION} failed");
    }
    let version = installed(&path).unwrap_or_else(|| KUBECONFORM_VERSION.to_string());
    Ok(Some(Kubeconform { path, version, go }))
}

/// `kubeconform -schema-location T -strict -summary` in the bench directory
/// `bench` (where [`SCHEMA_TEMPLATE`] finds the converted schemas); the
/// caller adds the rest of the command line.
pub(crate) fn command(kubeconform: &Path, bench: &Path) -> Command {
    let mut cmd = Command::new(kubeconform);
    cmd.current_dir(bench)
        .args(["-schema-location", SCHEMA_TEMPLATE])
        .args(["-strict", "-summary"]);
    cmd
}
