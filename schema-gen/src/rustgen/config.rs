//! [`Config`], the generator's configuration, and the build-script side:
//! reading the input files, the upgrade check against checked-in CRDs, and
//! writing the generated sources only when they changed.

use std::path::{Path, PathBuf};

use schema_core::KubeVersion;
use schema_core::crd::diff::{DiffOptions, Severity, diff};
use schema_core::model::source::{self, Limits};
use schema_core::model::wire::CustomResourceDefinition;
use schema_core::model::wire::input::{Input, read_input_owned};

use super::file::{generate_file, module_stem};
use super::{GenError, Generated, InputFile, Options, names};

/// The generator's configuration, prost-build style.
#[derive(Clone, Debug, Default)]
pub struct Config {
    opts: Options,
    out_dir: Option<PathBuf>,
    /// CRD files the inputs must be a safe upgrade of.
    upgrade_from: Vec<PathBuf>,
    /// From which severity a change against them fails the build.
    upgrade_fail_on: Option<Severity>,
}

impl Config {
    /// The defaults: every version, doc comments, k8s-openapi types.
    pub fn new() -> Self {
        Self::default()
    }

    /// Emits only this version (repeatable).
    pub fn version(&mut self, v: impl Into<String>) -> &mut Self {
        self.opts.versions.push(v.into());
        self
    }

    /// Adds a derive to every type (`"PartialEq"`, ...); `Clone`, `Debug`,
    /// serde's and `StructuralSchema` are always there.
    pub fn derive(&mut self, d: impl Into<String>) -> &mut Self {
        self.opts.derives.push(d.into());
        self
    }

    /// Renames a generated type.
    pub fn rename_type(&mut self, from: impl Into<String>, to: impl Into<String>) -> &mut Self {
        self.opts.type_names.insert(from.into(), to.into());
        self
    }

    /// Writes descriptions as doc comments (default) or as attributes.
    pub fn docs(&mut self, on: bool) -> &mut Self {
        self.opts.docs = on;
        self
    }

    /// Names nested types by their property alone where that name is free
    /// (`IssuerRef`) instead of by their path from the root
    /// (`CertificateSpecIssuerRef`, the default).
    pub fn short_names(&mut self, on: bool) -> &mut Self {
        self.opts.short_names = on;
        self
    }

    /// Uses k8s-openapi's types (default) or only serde_json's.
    pub fn k8s_openapi(&mut self, on: bool) -> &mut Self {
        self.opts.k8s_openapi = on;
        self
    }

    /// The Kubernetes release whose API server the generated `crds()`
    /// validates the rebuilt CRDs as (default: the newest supported; see
    /// [`KubeVersion`]).
    pub fn kube_version(&mut self, v: KubeVersion) -> &mut Self {
        self.opts.kube_version = Some(v);
        self
    }

    /// Checks in [`Config::compile`] that the CRDs compiled are a safe
    /// upgrade of the CRDs in `baseline` (files checked in as released, for
    /// instance): `schema-gen diff`'s findings from the baseline to the
    /// inputs fail the build from `error` (see
    /// [`Config::upgrade_fail_on`]) and are `cargo:warning` lines below it.
    pub fn upgrade_from<P: Into<PathBuf>>(
        &mut self,
        baseline: impl IntoIterator<Item = P>,
    ) -> &mut Self {
        self.upgrade_from
            .extend(baseline.into_iter().map(Into::into));
        self
    }

    /// The severity from which [`Config::upgrade_from`]'s findings fail the
    /// build (default: [`Severity::Error`]).
    pub fn upgrade_fail_on(&mut self, severity: Severity) -> &mut Self {
        self.upgrade_fail_on = Some(severity);
        self
    }

    /// Where [`Config::compile`] writes (default: `OUT_DIR`).
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Generates the sources of `inputs`, without any IO.
    ///
    /// # Errors
    ///
    /// A derive that is not a Rust path, or an input with no Rust mapping
    /// (the error names the file and the schema path).
    pub fn generate(&self, inputs: &[InputFile]) -> Result<Generated, GenError> {
        for d in &self.opts.derives {
            if syn::parse_str::<syn::Path>(d).is_err() {
                return Err(GenError::at(
                    "derive",
                    format!(
                        "{d:?} is not a Rust path (like `PartialEq` or `schemars::JsonSchema`)"
                    ),
                ));
            }
        }
        let mut out = Generated::default();
        let mut scope = names::Scope::default();
        for f in inputs {
            let module = scope.claim(&names::field_name(&module_stem(&f.name)));
            out.warnings.extend(f.warnings.iter().cloned());
            let mut roots = Vec::new();
            let source = generate_file(&self.opts, f, &mut out.warnings, &mut roots)?;
            out.roots.insert(module.clone(), roots);
            out.files.insert(module, source);
        }
        Ok(out)
    }

    /// For build scripts: reads `files`, generates, and writes one
    /// `<module>.rs` per file under the output directory (only when its
    /// content changed), printing `cargo:rerun-if-changed` for every file
    /// read. Include the result with `schema_core::include_generated!`.
    pub fn compile(&self, files: &[impl AsRef<Path>]) -> Result<Generated, GenError> {
        self.compile_logging(files, &mut std::io::stdout())
    }

    /// [`Config::compile`], writing the `cargo:` lines to `log`.
    pub(crate) fn compile_logging(
        &self,
        files: &[impl AsRef<Path>],
        log: &mut dyn std::io::Write,
    ) -> Result<Generated, GenError> {
        let mut inputs = Vec::new();
        for p in files {
            let p = p.as_ref();
            let _ = writeln!(log, "cargo:rerun-if-changed={}", p.display());
            let bytes = std::fs::read(p)
                .map_err(|e| GenError::at(p.display().to_string(), format!("cannot read: {e}")))?;
            inputs.push(InputFile::parse(&p.display().to_string(), &bytes)?);
        }
        let generated = self.generate(&inputs).map_err(|e| {
            // Located only now: the file is read again, with positions.
            let bytes = e.input().and_then(|name| {
                let p = files
                    .iter()
                    .map(AsRef::as_ref)
                    .find(|p| p.display().to_string() == name)?;
                std::fs::read(p).ok()
            });
            match bytes {
                Some(b) => e.locate(&b),
                None => e,
            }
        })?;
        if !self.upgrade_from.is_empty() {
            self.check_upgrade(files, log)?;
        }
        let dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    GenError::at(
                        "OUT_DIR",
                        "not set: call from a build script or set `out_dir`",
                    )
                })?,
        };
        for (module, source) in &generated.files {
            write_if_changed(&dir.join(format!("{module}.rs")), source)?;
        }
        Ok(generated)
    }
}

/// Generates with the default configuration (one-call shortcut for build
/// scripts).
pub fn compile_crds(files: &[impl AsRef<Path>]) -> Result<Generated, GenError> {
    Config::new().compile(files)
}

impl Config {
    /// [`Config::upgrade_from`]'s check of `files` against the baseline.
    fn check_upgrade(
        &self,
        files: &[impl AsRef<Path>],
        log: &mut dyn std::io::Write,
    ) -> Result<(), GenError> {
        for p in &self.upgrade_from {
            let _ = writeln!(log, "cargo:rerun-if-changed={}", p.display());
        }
        let old = crds_of_files(&self.upgrade_from)?;
        let current: Vec<&Path> = files.iter().map(AsRef::as_ref).collect();
        let new = crds_of_files(&current)?;
        let report = diff(&old, &new, &DiffOptions::default());
        let threshold = self.upgrade_fail_on.unwrap_or(Severity::Error);
        let mut breaking = Vec::new();
        for f in report.all() {
            if f.severity >= threshold {
                breaking.push(f.to_string());
            } else {
                let _ = writeln!(log, "cargo:warning={f}");
            }
        }
        if breaking.is_empty() {
            return Ok(());
        }
        let baseline: Vec<String> = self
            .upgrade_from
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        Err(GenError::at(
            current
                .first()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            format!(
                "not a safe upgrade of {}:\n{}",
                baseline.join(", "),
                breaking.join("\n")
            ),
        ))
    }
}

/// The CRDs of `files`, as written.
fn crds_of_files(files: &[impl AsRef<Path>]) -> Result<Vec<CustomResourceDefinition>, GenError> {
    let mut out = Vec::new();
    for p in files {
        let p = p.as_ref();
        let name = p.display().to_string();
        let bytes =
            std::fs::read(p).map_err(|e| GenError::at(&name, format!("cannot read: {e}")))?;
        let docs = source::parse_documents_unmapped(&name, &bytes, &Limits::default())
            .map_err(|e| GenError::at(&name, e.to_string()))?;
        for d in docs {
            match read_input_owned(d.value) {
                Ok((Input::CrdV1(c), _)) | Ok((Input::CrdV1Beta1 { v1: c, .. }, _)) => out.push(*c),
                Ok((Input::Schema(_), _)) => {}
                Err(e) => return Err(GenError::at(&name, e.to_string())),
            }
        }
    }
    Ok(out)
}

/// Writes `content` to `path` unless it is already there.
pub fn write_if_changed(path: &Path, content: &str) -> Result<(), GenError> {
    if std::fs::read(path).is_ok_and(|old| old == content.as_bytes()) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| GenError::at(dir.display().to_string(), format!("cannot create: {e}")))?;
    }
    std::fs::write(path, content)
        .map_err(|e| GenError::at(path.display().to_string(), format!("cannot write: {e}")))
}
