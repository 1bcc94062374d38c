//! The command line's arguments: the subcommands, their options and the
//! value enums, as clap parses them.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::lint::RuleSet;
use schema_core::KubeVersion;

/// `--version`: the release and the Kubernetes releases it reproduces
/// (`--kube-version`), and whose built-in kinds `validate` knows.
#[cfg(feature = "builtin-kinds")]
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (Kubernetes 1.30 to 1.37; built-in kinds: Kubernetes 1.35)"
);
/// `--version`: the release and the Kubernetes releases it reproduces
/// (`--kube-version`).
#[cfg(not(feature = "builtin-kinds"))]
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (Kubernetes 1.30 to 1.37)");

/// Kubernetes structural schemas, offline.
#[derive(Parser, Debug)]
#[command(name = "schema-gen", version = VERSION, about, long_about = None)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// Output formats of diagnostics.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiagnosticsFormat {
    /// Human-readable lines.
    Text,
    /// One JSON document on stdout.
    Json,
}

/// Output formats of `validate`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ValidateFormat {
    /// Human-readable lines: errors on stdout, warnings, verdicts and the
    /// summary on stderr.
    Text,
    /// One JSON document on stdout: each object as stored, its pruned
    /// fields and errors; what was not validated; the counts.
    Json,
    /// JUnit XML on stdout (GitLab, Jenkins): a test suite per file, a test
    /// case per object.
    Junit,
    /// SARIF 2.1.0 on stdout (GitHub code scanning): a result per problem,
    /// with its rule, file, line and column.
    Sarif,
}

/// When text output is colored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Output formats of documents.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DocumentFormat {
    /// YAML (multi-document with `---`).
    Yaml,
    /// JSON (a `List` for several documents).
    Json,
}

/// Formats of `explain`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ExplainFormat {
    /// kubectl's plaintext, with what kubectl does not show (defaults,
    /// bounds, list semantics, CEL rules, ...) on lines starting `~ `.
    Plaintext,
    /// Exactly what `kubectl explain` prints.
    Kubectl,
    /// The same explanation as JSON, every field with its facts.
    Json,
}

/// Formats of `diff`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// One finding a line: `severity[rule] crd/version path: message`.
    Text,
    /// `{"findings": [...], "errors", "warnings", "infos"}`.
    Json,
    /// A SARIF 2.1.0 log (GitHub code scanning).
    Sarif,
}

/// The severity from which `diff` fails.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Exit 1 when a finding is an error.
    Error,
    /// Exit 1 when a finding is a warning or an error.
    Warning,
}

/// Formats of `docs`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DocsFormat {
    /// Markdown: `README.md` (the index) and `<group>.md` per API group.
    Markdown,
    /// A static HTML site: `index.html`, `<group>/<version>/<Kind>.html`
    /// per kind and version, with search; no network needed.
    Html,
}

/// The rule sets of `lint`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum LintRuleSet {
    /// Giant Swarm's cluster-app requirements, as the reference linter
    /// (schemalint) checks them.
    ClusterApp,
    /// `cluster-app` plus required properties, enumerated string values and
    /// non-empty defaults.
    ClusterAppStrict,
}

impl LintRuleSet {
    /// The linter's rule set.
    pub(super) fn rule_set(self) -> RuleSet {
        match self {
            LintRuleSet::ClusterApp => RuleSet::ClusterApp,
            LintRuleSet::ClusterAppStrict => RuleSet::ClusterAppStrict,
        }
    }
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check CRDs or bare schemas exactly as the API server does on create.
    Check {
        /// Files to check: files, directories (their `*.yaml`, `*.yml` and
        /// `*.json` files, recursively) or `-` for stdin; YAML or JSON, one
        /// or more documents each.
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<PathBuf>,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = DiagnosticsFormat::Text)]
        output: DiagnosticsFormat,
        /// The Kubernetes release whose API server to reproduce, 1.30 to
        /// 1.37 (see the table in the README).
        #[command(flatten)]
        kube: KubeArgs,
    },
    /// Read a CRD or schema through the wire model and write it back in canonical order.
    Fmt {
        /// The file (`-` for stdin).
        file: PathBuf,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = DocumentFormat::Yaml)]
        output: DocumentFormat,
    },
    /// Print the OpenAPI the API server publishes for CRDs (or a bare
    /// schema): one Swagger 2.0 document with `--v2`, the document of the
    /// group-version with `--v3` (a JSON object keyed by
    /// `apis/<group>/<version>` when the input spans several).
    #[command(group(clap::ArgGroup::new("publish").required(true).args(["v2", "v3"])))]
    Openapi {
        /// The file (`-` for stdin).
        file: PathBuf,
        /// Publish OpenAPI v2 (Swagger 2.0).
        #[arg(long)]
        v2: bool,
        /// Publish OpenAPI v3.
        #[arg(long)]
        v3: bool,
        /// Only these CRD versions (repeatable).
        #[arg(long)]
        version: Vec<String>,
        /// The Kubernetes release whose API server to reproduce, 1.30 to
        /// 1.37 (see the table in the README).
        #[command(flatten)]
        kube: KubeArgs,
    },
    /// Prune objects as the API server does before storing them: unknown
    /// fields removed, then nulls the schema neither allows nor defaults.
    #[command(group(clap::ArgGroup::new("schema_source").required(true).args(["schema", "crd"])))]
    // `mut_arg` adds the argument again at the end: `kube_version` is
    // added again after it, so that completions list them in this order.
    #[command(
        mut_arg("output", |a| a.help("Output format; `json` also lists the pruned fields")),
        mut_arg("kube_version", |a| a)
    )]
    Prune {
        /// The schema, the objects and how to print them.
        #[command(flatten)]
        input: ObjectsArgs,
    },
    /// Print the shell completion script for `shell` (`schema-gen
    /// completions bash > /etc/bash_completion.d/schema-gen`, or
    /// `source <(schema-gen completions bash)`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Convert a schema written for another tool into this toolchain's
    /// outputs.
    Convert {
        /// The kind of source.
        #[command(subcommand)]
        source: ConvertSource,
    },
    /// Apply schema defaults to objects with the API server's defaulting
    /// algorithm.
    #[command(group(clap::ArgGroup::new("schema_source").required(true).args(["schema", "crd"])))]
    Default {
        /// The schema, the objects and how to print them.
        #[command(flatten)]
        input: ObjectsArgs,
    },
    /// Admit objects as the API server does on create: prune, default, then
    /// validate (kind, metadata, values, scale paths, embedded resources,
    /// list sets and maps, then the x-kubernetes-validations CEL rules),
    /// printing every error in the server's words. With --old, admit them
    /// as updates of the old objects.
    Validate {
        /// The schema to process objects with.
        #[command(flatten)]
        schema: SchemaArgs,
        /// Objects: files, directories (their `*.yaml`, `*.yml` and `*.json`
        /// files, recursively) or `-` for stdin; YAML or JSON, one or more
        /// documents each. A `List` (any kind ending in `List` with
        /// `items`) is validated item by item; empty documents are passed
        /// over.
        #[arg(required = true, value_name = "FILE|DIR")]
        objects: Vec<PathBuf>,
        /// Leave out objects of these kinds (`Deployment`) or
        /// apiVersion/kinds (`apps/v1/Deployment`); repeatable or
        /// comma-separated. They are counted as skipped.
        #[arg(long, value_name = "KIND", value_delimiter = ',')]
        skip: Vec<String>,
        /// Count an object whose kind no CRD defines as skipped instead of
        /// an error (a document without apiVersion or kind stays an error).
        #[arg(long)]
        ignore_missing: bool,
        /// Unknown fields are errors (`unknown field "spec.foo"`), as with
        /// the API server's strict field validation (`kubectl
        /// --validate=strict`); by default they are warnings and pruned, as
        /// the server's default does.
        #[arg(long)]
        strict: bool,
        /// Leave out the files of the object directories whose path below
        /// the directory matches this glob (`charts/**`, `*.json`;
        /// repeatable).
        #[arg(long, value_name = "GLOB")]
        exclude: Vec<String>,
        /// Old objects (`-` for stdin): validate each object as an update of
        /// the old object at the same position (documents counted across
        /// the files in order; the counts must match). Transition rules
        /// (`oldSelf`) run, and failures of values left unchanged are
        /// ratcheted into warnings.
        #[arg(long, value_name = "FILE")]
        old: Option<PathBuf>,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = ValidateFormat::Text)]
        output: ValidateFormat,
        /// Files validated at once (default: one per core); the output
        /// keeps the order of the files.
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
        /// Color in text output.
        #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
        color: ColorChoice,
        /// The Kubernetes release whose API server to reproduce, 1.30 to
        /// 1.37 (see the table in the README).
        #[command(flatten)]
        kube: KubeArgs,
    },
    /// Generate Rust types from CRDs or a bare schema: one module per
    /// version (every version unless `--version` is given), types
    /// that `#[derive(StructuralSchema)]` turns back into the same schema,
    /// and `pub fn crds()` rebuilding the CRDs from them.
    Rust {
        /// The file (`-` for stdin), YAML or JSON, one or more documents.
        file: PathBuf,
        /// Only these versions (repeatable).
        #[arg(long)]
        version: Vec<String>,
        /// Write to this file instead of stdout (only when the content
        /// changed). (`-o` means the output format in every command.)
        #[arg(long, value_name = "OUT.rs")]
        out: Option<PathBuf>,
        /// Extra derives on every type (repeatable), e.g. `Clone`.
        #[arg(long)]
        derive: Vec<String>,
        /// Descriptions as `description` attributes instead of doc comments.
        #[arg(long)]
        no_docs: bool,
        /// Map int-or-string, quantities, times and metadata to serde_json
        /// and plain types instead of k8s-openapi's.
        #[arg(long)]
        no_k8s_openapi: bool,
        /// Name nested types by their property alone where that name is
        /// free (`IssuerRef`) instead of by their path
        /// (`CertificateSpecIssuerRef`).
        #[arg(long)]
        short_names: bool,
        /// The Kubernetes release (1.30 to 1.37) whose API server the
        /// generated `crds()` validates the rebuilt CRDs as (default: the
        /// newest).
        #[arg(long = "kube-version", value_name = "1.N", value_parser = KubeVersion::parse)]
        kube_version: Option<KubeVersion>,
    },
    /// Explain a resource or field of CRDs as `kubectl explain` does,
    /// offline, from the OpenAPI v3 the API server publishes for them,
    /// plus what kubectl does not show (defaults, enum values, bounds,
    /// pattern, list types and map keys, CEL rules, immutability,
    /// nullable, preserve-unknown-fields) on lines starting `~ `.
    #[command(override_usage = "schema-gen explain <FILE|DIR>... [RESOURCE[.FIELD...]] [OPTIONS]")]
    Explain {
        /// CRD files or directories (`-` for stdin), then optionally the
        /// resource to explain (kind, plural, singular or short name,
        /// case-insensitive; `plural.group` when ambiguous) and a field
        /// path: `widgets`, `Widget.spec.size`, `wdg.spec.ports.port`.
        /// Without it, the input's only resource.
        #[arg(required = true, value_name = "FILE|DIR... [RESOURCE[.FIELD...]]")]
        args: Vec<String>,
        /// The group/version to explain (default: the served version the
        /// API server prefers).
        #[arg(long, value_name = "GROUP/VERSION")]
        api_version: Option<String>,
        /// Every field below, names and types only.
        #[arg(long)]
        recursive: bool,
        /// How many levels `--recursive` prints (0: all).
        #[arg(long, default_value_t = 0, requires = "recursive")]
        max_depth: usize,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = ExplainFormat::Plaintext)]
        output: ExplainFormat,
        /// The Kubernetes release whose API server to reproduce, 1.30 to
        /// 1.37 (see the table in the README).
        #[command(flatten)]
        kube: KubeArgs,
    },
    /// Whether a change of CRDs is safe to roll out: the CRDs of OLD and
    /// NEW paired by name and compared (versions, names and scope, fields,
    /// value validations and CEL rules, defaults, list and map semantics,
    /// printer columns, selectable fields, subresources), each finding an
    /// error, a warning or an info with a stable rule id. Exits 1 when a
    /// finding reaches `--fail-on`.
    Diff {
        /// The CRDs before: a file, a directory (its `*.yaml`, `*.yml` and
        /// `*.json` files, recursively), `-`, or `git:REV:PATH` (the file
        /// or directory at a revision of the repository schema-gen runs
        /// in).
        #[arg(value_name = "OLD")]
        old: String,
        /// The CRDs after, as OLD.
        #[arg(value_name = "NEW")]
        new: String,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = DiffFormat::Text)]
        output: DiffFormat,
        /// The severity from which the command exits 1.
        #[arg(long, value_enum, default_value_t = FailOn::Error)]
        fail_on: FailOn,
        /// The versions that hold data in the cluster
        /// (`status.storedVersions` there), comma-separated; default: OLD's
        /// `status.storedVersions`, else its storage version.
        #[arg(long, value_name = "V1,V2", value_delimiter = ',')]
        stored_versions: Option<Vec<String>>,
        /// Stored objects (files or directories, repeatable): each is
        /// stored under OLD, then under NEW read back, written back
        /// unchanged and created anew; what breaks, is pruned or reads back
        /// differently is reported at the object.
        #[arg(long, value_name = "FILE|DIR")]
        objects: Vec<PathBuf>,
    },
    /// Write API reference documents for CRDs: per kind and served
    /// version its names, scope, versions, subresources, printer columns
    /// and every field with its type, description, defaults, bounds, list
    /// semantics and CEL rules.
    Docs {
        /// CRD files: files, directories (their `*.yaml`, `*.yml` and
        /// `*.json` files, recursively) or `-` for stdin; documents that
        /// are not CRDs are passed over with a warning.
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = DocsFormat::Markdown)]
        format: DocsFormat,
        /// The directory to write the documents into (created if missing;
        /// files of the same names are replaced, others left alone).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Lint a Helm values schema (JSON Schema, YAML or JSON) with a rule
    /// set: one finding per line (rule, severity, location, message).
    /// Exits 1 when a finding is an error; recommendations do not fail.
    Lint {
        /// The schema file (`-` for stdin). Relative `$ref`s are read from
        /// the file's directory.
        file: PathBuf,
        /// The rule set.
        #[arg(long, value_enum, default_value_t = LintRuleSet::ClusterApp)]
        rule_set: LintRuleSet,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = DiagnosticsFormat::Text)]
        output: DiagnosticsFormat,
    },
}

/// The sources `convert` reads.
#[derive(Subcommand, Debug)]
pub enum ConvertSource {
    /// A Carvel ytt data-values schema (a YAML document annotated
    /// `#@data/values-schema`).
    Ytt {
        /// The schema file (`-` for stdin).
        file: PathBuf,
        /// What to print: `openapi-v3` (exactly what `ytt
        /// --data-values-schema-inspect -o openapi-v3` prints), `crd` (a
        /// CustomResourceDefinition whose resources hold the data values in
        /// `spec`) or `defaults` (the default data values).
        #[arg(long)]
        to: Option<String>,
        /// API group of the CRD (`--to crd`).
        #[arg(long, default_value = "values.example.com")]
        group: String,
        /// Kind of the CRD (`--to crd`); the plural is its lowercase form
        /// plus `s` (unless it ends in `s`).
        #[arg(long, default_value = "DataValues")]
        kind: String,
        /// Version of the CRD (`--to crd`).
        #[arg(long = "crd-version", default_value = "v1alpha1")]
        crd_version: String,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = DocumentFormat::Yaml)]
        output: DocumentFormat,
    },
}

/// The Kubernetes release whose API server is reproduced.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct KubeArgs {
    /// The Kubernetes release whose API server to reproduce (1.30 to 1.37):
    /// its CEL libraries for rules, its feature gates, what it publishes.
    #[arg(
        long = "kube-version",
        value_name = "1.N",
        default_value_t = KubeVersion::NEWEST,
        value_parser = KubeVersion::parse
    )]
    pub(super) kube_version: KubeVersion,
}

impl KubeArgs {
    /// The options every `schema_core` entry point the command calls
    /// takes.
    pub(super) fn options(&self) -> schema_core::Options {
        schema_core::Options::new().with_kube_version(self.kube_version)
    }
}

/// The objects `prune` and `default` process, their schema, how they are
/// printed (`prune` says more of `--output` in its help) and the release.
#[derive(clap::Args, Debug)]
pub struct ObjectsArgs {
    /// The schema to process objects with.
    #[command(flatten)]
    pub(super) schema: SchemaArgs,
    /// Objects (`-` for stdin), YAML or JSON, one or more documents each.
    #[arg(required = true)]
    pub(super) objects: Vec<PathBuf>,
    /// Output format.
    #[arg(long, short, value_enum, default_value_t = DocumentFormat::Yaml)]
    pub(super) output: DocumentFormat,
    /// The Kubernetes release whose API server to reproduce.
    #[command(flatten)]
    pub(super) kube: KubeArgs,
}

/// Where the schema for objects comes from.
#[derive(clap::Args, Debug)]
#[group(required = false, multiple = false)]
pub struct SchemaArgs {
    /// A bare structural schema (the content of `openAPIV3Schema`).
    #[arg(long)]
    pub(super) schema: Option<PathBuf>,
    /// CustomResourceDefinitions (repeatable): files, directories (their
    /// `*.yaml`, `*.yml` and `*.json` files, recursively) or `-`. Each
    /// object gets the CRD of its group and kind, and the version of its
    /// `apiVersion` unless `--version` is given.
    #[arg(long, value_name = "FILE|DIR")]
    pub(super) crd: Vec<PathBuf>,
    /// The CRD version to use.
    #[arg(long, requires = "crd")]
    pub(super) version: Option<String>,
}
