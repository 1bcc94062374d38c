//! Inputs at a git revision: `git:REV:PATH` names a file (or every
//! `*.yaml`, `*.yml` and `*.json` file below a directory) as it is at
//! revision `REV` of the repository the command runs in, read with `git`.

use std::process::Command;

use super::input::{Loaded, parse_named, read_limited};

/// The prefix of an input at a git revision.
pub(super) const PREFIX: &str = "git:";

/// `REV` and `PATH` of `git:REV:PATH`, or `None` for another input.
pub(super) fn parse_spec(arg: &str) -> Option<Result<(&str, &str), String>> {
    let rest = arg.strip_prefix(PREFIX)?;
    Some(match rest.split_once(':') {
        Some((rev, path)) if !rev.is_empty() && !path.is_empty() => Ok((rev, path)),
        _ => Err(format!(
            "{arg}: expected git:REV:PATH (e.g. git:main:config/crd)"
        )),
    })
}

/// Runs `git args...` in the current directory: its stdout, or the
/// message saying why it failed.
fn git(args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        let msg = String::from_utf8_lossy(&out.stderr);
        return Err(msg.trim().to_string());
    }
    read_limited(out.stdout.as_slice()).map_err(|e| e.to_string())
}

/// The files `git:REV:PATH` names, each loaded (or why it cannot be),
/// named `git:REV:FILE`.
pub(super) fn load(rev: &str, path: &str) -> Result<Vec<Result<Loaded, String>>, String> {
    let spec = format!("{PREFIX}{rev}:{path}");
    git(&["rev-parse", "--is-inside-work-tree"]).map_err(|_| {
        format!("{spec}: not in a git repository (run schema-gen in the repository)")
    })?;
    let object = format!("{rev}:{path}");
    let kind = git(&["cat-file", "-t", &object]).map_err(|e| format!("{spec}: {e}"))?;
    let files: Vec<String> = match String::from_utf8_lossy(&kind).trim() {
        "blob" => vec![path.to_string()],
        "tree" => {
            let listing = git(&["ls-tree", "-r", "--name-only", rev, "--", path])
                .map_err(|e| format!("{spec}: {e}"))?;
            String::from_utf8_lossy(&listing)
                .lines()
                .filter(|f| [".yaml", ".yml", ".json"].iter().any(|e| f.ends_with(e)))
                .filter(|f| !f.split('/').any(|c| c.starts_with('.')))
                .map(str::to_string)
                .collect()
        }
        other => return Err(format!("{spec}: a git {other}, not a file or directory")),
    };
    Ok(files
        .into_iter()
        .map(|f| {
            let name = format!("{PREFIX}{rev}:{f}");
            let bytes =
                git(&["show", &format!("{rev}:{f}")]).map_err(|e| format!("{name}: {e}"))?;
            parse_named(name, &bytes)
        })
        .collect())
}
