//! Generates Rust types with schema-gen's build-script API
//! (`Config::compile`), one module per input file, for this crate's
//! `generated` test: the types must compile, the CRDs their derive
//! rebuilds must equal the input, and sample objects must survive a serde
//! round trip through them. Three sets of inputs, each a table in
//! `OUT_DIR/generated.rs`:
//!
//! - `FIXTURES`, always: the small CRDs of `fixtures/`, of shapes the API
//!   server accepts that need care to map;
//! - `RANDOM`, always: random CRDs the API server accepts
//!   (`build_random.rs`), written to `OUT_DIR/random-input` first;
//! - `FILES`: the corpus, read from `SCHEMA_GEN_CORPUS_DIR` or from
//!   `shared/corpus/crds` beside the workspace; without it, nothing of it
//!   is generated (the test says so) and `FILES` is empty. Only this
//!   crate reads the corpus at build time, so a build with the corpus
//!   rebuilds this crate alone.
//!
//! A file the generator rejects becomes an entry holding the error, which
//! the test reports, so one bad file does not hide the others.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[path = "build_random.rs"]
mod random;
#[path = "../src/walk.rs"]
mod walk;

fn main() {
    println!("cargo:rerun-if-env-changed=SCHEMA_GEN_CORPUS_DIR");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build_random.rs");
    println!("cargo:rerun-if-env-changed=SCHEMA_GEN_RANDOM_SEED");
    println!("cargo:rerun-if-env-changed=SCHEMA_GEN_RANDOM_CRDS");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let corpus = std::env::var_os("SCHEMA_GEN_CORPUS_DIR")
        .map(PathBuf::from)
        // `tests/generated` is two levels below the workspace.
        .unwrap_or_else(|| manifest.join("../../../shared/corpus/crds"));
    let fixtures = manifest.join("fixtures");
    let mut index = String::new();
    for (dir, sub, table) in [
        (&corpus, "corpus", "FILES"),
        (&fixtures, "fixtures", "FIXTURES"),
    ] {
        let files = if dir.is_dir() {
            println!("cargo:rerun-if-changed={}", dir.display());
            walk::files_below(dir, &["yaml", "yml"])
        } else {
            Vec::new()
        };
        generate(&files, dir, &out, sub, table, Watch::Yes, &mut index);
    }
    let random_dir = out.join("random-input");
    let random_files = write_random(&random_dir);
    // The random inputs are this script's own output: cargo must not watch
    // them (written on every run, they would make every build rerun it).
    generate(
        &random_files,
        &random_dir,
        &out,
        "random",
        "RANDOM",
        Watch::No,
        &mut index,
    );
    if let Err(e) = schema_gen::rustgen::write_if_changed(&out.join("generated.rs"), &index) {
        println!("cargo:warning={e}");
    }
}

/// Generates `files` (below `dir`) into `out/sub`, one module each inside
/// `pub mod sub`, and the table `table` of what was generated.
/// Whether cargo reruns the build script when an input file changes.
#[derive(Clone, Copy)]
enum Watch {
    /// Files of the repository or the shared data: `Config::compile`, which
    /// prints `cargo:rerun-if-changed` for each.
    Yes,
    /// Files this script wrote: read and generated without that line.
    No,
}

fn generate(
    files: &[PathBuf],
    dir: &Path,
    out: &Path,
    sub: &str,
    table: &str,
    watch: Watch,
    index: &mut String,
) {
    let mut modules = String::new();
    let mut rows = String::new();
    for file in files {
        let rel = file.strip_prefix(dir).unwrap_or(file).display().to_string();
        let mut config = schema_gen::Config::new();
        config.out_dir(out.join(sub));
        let generated = match watch {
            Watch::Yes => config.compile(std::slice::from_ref(file)),
            Watch::No => compile_unwatched(&config, file, &out.join(sub)),
        };
        match generated {
            Ok(generated) => {
                for (module, roots) in &generated.roots {
                    let _ = writeln!(
                        modules,
                        "    pub mod {module} {{ ::schema_core::include_generated!(\"{sub}/{module}\"); }}"
                    );
                    let mut entries = String::new();
                    for r in roots {
                        let _ = write!(
                            entries,
                            "Root {{ crd: {:?}, version: {:?}, round_trip: round_trip::<{sub}::{module}::{}> }}, ",
                            r.crd, r.version, r.path
                        );
                    }
                    let _ = writeln!(
                        rows,
                        "    ({rel:?}, ::core::result::Result::Ok(Generated {{ crds: {sub}::{module}::crds, roots: &[{entries}] }})),"
                    );
                }
            }
            Err(e) => {
                let _ = writeln!(
                    rows,
                    "    ({rel:?}, ::core::result::Result::Err({:?})),",
                    e.to_string()
                );
            }
        }
    }
    let _ = writeln!(
        index,
        "pub mod {sub} {{\n{modules}}}\n\
         /// Every file of `{sub}`: what was generated for it, or why nothing was.\n\
         pub const {table}: &[(&str, ::core::result::Result<Generated, &str>)] = &[\n{rows}];"
    );
}

/// Writes the random CRDs into `dir`, one file each (JSON, which the YAML
/// reader takes), and returns their paths.
fn write_random(dir: &Path) -> Vec<PathBuf> {
    let (seed, count) = random::settings();
    let (crds, drawn) = random::crds(seed, count);
    if crds.len() < count {
        println!(
            "cargo:warning=only {} of {count} random CRDs passed the API server's checks in {drawn} draws",
            crds.len()
        );
    }
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::create_dir_all(dir);
    let mut files = Vec::new();
    for (i, crd) in crds.iter().enumerate() {
        let path = dir.join(format!("random_{i:03}.yaml"));
        let text = serde_json::to_string_pretty(crd).unwrap_or_default();
        if std::fs::write(&path, text).is_ok() {
            files.push(path);
        }
    }
    files
}

/// [`schema_gen::Config::compile`] of one file without the
/// `cargo:rerun-if-changed` line: read, generate, write each module into
/// `dir` (only when its content changed).
fn compile_unwatched(
    config: &schema_gen::Config,
    file: &Path,
    dir: &Path,
) -> Result<schema_gen::Generated, schema_gen::GenError> {
    let name = file.display().to_string();
    let bytes = std::fs::read(file)
        .map_err(|e| schema_gen::GenError::at(name.clone(), format!("cannot read: {e}")))?;
    let input = schema_gen::InputFile::parse(&name, &bytes)?;
    let generated = config.generate(std::slice::from_ref(&input))?;
    for (module, source) in &generated.files {
        schema_gen::rustgen::write_if_changed(&dir.join(format!("{module}.rs")), source)?;
    }
    Ok(generated)
}
