//! Go, for the tests that run upstream's own code (the API server's schema
//! packages, controller-gen) beside ours. Without Go those tests print a
//! notice and skip, as the shared-data tests do, unless
//! `SCHEMA_GEN_REQUIRE_GO=1` (set by CI) makes a missing Go a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether a missing Go toolchain must fail the run
/// (`SCHEMA_GEN_REQUIRE_GO=1`).
pub fn go_required() -> bool {
    std::env::var("SCHEMA_GEN_REQUIRE_GO").is_ok_and(|v| v == "1")
}

/// The `go` command (`SCHEMA_GEN_GO`, else `go` on `PATH`) when it runs.
/// Prints one notice naming `what` and returns `None` when it does not and
/// Go is optional; panics when it is required.
pub fn go_command(what: &str) -> Option<PathBuf> {
    let go = std::env::var_os("SCHEMA_GEN_GO").map_or_else(|| PathBuf::from("go"), PathBuf::from);
    let runs = Command::new(&go)
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if runs {
        return Some(go);
    }
    assert!(
        !go_required(),
        "{} does not run and SCHEMA_GEN_REQUIRE_GO=1 ({what} needs Go)",
        go.display()
    );
    crate::notice(&format!(
        "notice: Go not found ({} does not run; set SCHEMA_GEN_GO); {what} skipped",
        go.display()
    ));
    None
}

/// The workspace's `oracle/` folder: the Go harnesses.
pub fn oracle_dir() -> PathBuf {
    crate::workspace_root().join("oracle")
}

/// Where built Go binaries go: `target/oracle/`.
pub fn go_target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| crate::workspace_root().join("target"), PathBuf::from)
        .join("oracle")
}

/// Builds the Go main package `package` of the module at `module_dir` into
/// `out` (`go build -o out package`, plus `extra` flags), with the module
/// proxy only and the committed go.sum (`-mod=readonly`). Go's build cache
/// makes a rebuild of unchanged sources cheap.
pub fn go_build(
    go: &Path,
    module_dir: &Path,
    package: &str,
    out: &Path,
    extra: &[&str],
) -> Result<(), String> {
    let o = Command::new(go)
        .current_dir(module_dir)
        .env("GOFLAGS", "-mod=readonly")
        .env("CGO_ENABLED", "0")
        .arg("build")
        .args(extra)
        .arg("-o")
        .arg(out)
        .arg(package)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", go.display()))?;
    if o.status.success() {
        Ok(())
    } else {
        Err(format!(
            "go build {package} in {} failed:\n{}",
            module_dir.display(),
            String::from_utf8_lossy(&o.stderr)
        ))
    }
}
