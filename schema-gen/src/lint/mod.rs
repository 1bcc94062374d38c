//! `schema-gen lint`: rule sets for Helm values schemas (JSON Schema), as
//! Giant Swarm's cluster-app requirements define them.
//!
//! The `cluster-app` rule set has the rules, messages and locations of the
//! reference linter (giantswarm/schemalint): 28 rules, each an error or a
//! recommendation, with findings below a few locations left out
//! ([`RuleSet::excluded_locations`]). `cluster-app-strict` adds three
//! requirements of the rules document that the reference linter does not
//! check: required properties, enumerated string values and non-empty
//! defaults.
//!
//! The engine does no IO: files (the root and every file a `$ref` names)
//! are read through a [`Loader`]. Locations are *resolved locations*: the
//! JSON pointer of the schema in its file, with a `$ref` target re-rooted
//! at the schema holding the `$ref`; the root is `/`, and a few findings
//! about the whole schema have the empty location.

#![warn(clippy::indexing_slicing, clippy::expect_used)]

mod model;
mod rules;
mod walk;

#[cfg(test)]
mod tests;

use std::fmt;

use schema_core::model::source::{Location, SourceError};

use model::Model;
use walk::{Walk, is_child_location};

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// A requirement is broken; the schema does not pass.
    Error,
    /// A recommendation is not followed; the schema still passes.
    Recommendation,
}

impl Severity {
    /// `error` or `recommendation`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Recommendation => "recommendation",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! rules {
    ($($(#[$doc:meta])* $name:ident = $sev:ident,)*) => {
        /// A lint rule. The ids of the `cluster-app` rules are the reference
        /// linter's.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $($(#[$doc])* $name,)*
        }

        impl Rule {
            /// Every rule, in rule-set order.
            pub const ALL: &'static [Rule] = &[$(Rule::$name,)*];

            /// The rule's id.
            #[must_use]
            pub fn id(self) -> &'static str {
                match self {
                    $(Rule::$name => stringify!($name),)*
                }
            }

            /// The severity of the rule's findings.
            #[must_use]
            pub fn severity(self) -> Severity {
                match self {
                    $(Rule::$name => Severity::$sev,)*
                }
            }
        }
    };
}

rules! {
    /// Properties have a title (R5).
    TitleExists = Error,
    /// Titles start with a capital letter (R5).
    TitleMustBeSentenceCase = Error,
    /// Titles have no line breaks, tabs, double spaces, punctuation, or
    /// leading or trailing spaces (R5).
    TitleMustNotContainIllegalCharacters = Error,
    /// A title does not repeat the parent property's title (R5).
    TitleShouldNotContainParentsTitle = Recommendation,
    /// Properties have a description (R6).
    DescriptionExists = Recommendation,
    /// Descriptions have no line breaks, tabs, double spaces, or leading
    /// or trailing spaces (R6).
    DescriptionMustNotContainIllegalCharacters = Error,
    /// Descriptions start with a capital letter (R6).
    DescriptionMustBeSentenceCase = Error,
    /// Descriptions end with `.`, `!` or `?` (R6).
    DescriptionMustUsePunctuation = Error,
    /// A description does not repeat the title (R6).
    DescriptionShouldNotContainTitle = Recommendation,
    /// Descriptions are 50 to 200 bytes long (R6).
    DescriptionShouldHaveCorrectLength = Recommendation,
    /// The root declares draft 2020-12 (R1).
    MustUseCorrectDialect = Error,
    /// Objects set `additionalProperties: false` (R3).
    ShouldDisableAdditionalProperties = Recommendation,
    /// Arrays declare `items` (R4).
    ArraysMustHaveItems = Error,
    /// `anyOf`/`oneOf` only for constraints or deprecation (R10).
    AvoidXOf = Error,
    /// Strings are constrained (R8).
    StringsShouldBeConstrained = Recommendation,
    /// Numbers are constrained (R8).
    NumbersShouldBeConstrained = Recommendation,
    /// Restricted strings give examples (R7).
    ExampleExists = Recommendation,
    /// Deprecated properties explain themselves in `$comment` (R11).
    DeprecatedPropertiesShouldHaveComment = Recommendation,
    /// At most five examples (R7).
    ExamplesShouldNotBeTooMany = Recommendation,
    /// No `unevaluatedItems`/`unevaluatedProperties`, except
    /// `unevaluatedProperties: false` closing a `$ref` (R15).
    AvoidUnevaluated = Error,
    /// Properties have exactly one type, or are a `$ref` (R2).
    PropertiesMustHaveOneType = Error,
    /// No `if`/`then`/`else` (R14).
    AvoidLogicalConstruct = Error,
    /// The root has `internal` and `providerSpecific` (R17).
    AdheresToCommonSchemaStructureRecommendations = Recommendation,
    /// The root has the required properties, no others, and is closed
    /// (R17, R3).
    AdheresToCommonSchemaStructureRequirements = Error,
    /// No `additionalItems`, `contains` or `prefixItems` (R16).
    ArrayItemsMustHaveSingleType = Error,
    /// No schema references itself (R13).
    AvoidRecursion = Error,
    /// No `$dynamicAnchor`, `$dynamicRef`, `$recursiveRef` (R13).
    AvoidRecursionKeywords = Error,
    /// Objects define at least one property.
    ObjectsMustHaveProperties = Error,
    /// `required` names only defined properties, and none with a default
    /// (R9; `cluster-app-strict` only).
    RequiredPropertiesMustBeDefined = Error,
    /// Strings with a fixed set of values list them in `enum` (or `oneOf`
    /// entries of `const` and `title`) (R12; `cluster-app-strict` only).
    StringValuesShouldBeEnumerated = Recommendation,
    /// Defaults are not empty values (`false`, `""`, `0`, `[]`, `{}`)
    /// (R18; `cluster-app-strict` only).
    DefaultsMustNotBeEmpty = Error,
}

impl Rule {
    /// The rule with id `id`.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.id() == id)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The rules of `cluster-app-strict` that `cluster-app` does not have.
const STRICT_ONLY: &[Rule] = &[
    Rule::RequiredPropertiesMustBeDefined,
    Rule::StringValuesShouldBeEnumerated,
    Rule::DefaultsMustNotBeEmpty,
];

/// A named set of rules with the locations whose findings it drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The reference linter's `cluster-app` rule set.
    ClusterApp,
    /// `cluster-app` plus required properties, enumerated string values and
    /// non-empty defaults.
    ClusterAppStrict,
}

impl RuleSet {
    /// Every rule set.
    pub const ALL: &'static [RuleSet] = &[RuleSet::ClusterApp, RuleSet::ClusterAppStrict];

    /// The rule set's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::ClusterApp => "cluster-app",
            RuleSet::ClusterAppStrict => "cluster-app-strict",
        }
    }

    /// The rule set named `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<RuleSet> {
        RuleSet::ALL.iter().copied().find(|r| r.name() == name)
    }

    /// Its rules, in order.
    #[must_use]
    pub fn rules(self) -> Vec<Rule> {
        Rule::ALL
            .iter()
            .copied()
            .filter(|r| self == RuleSet::ClusterAppStrict || !STRICT_ONLY.contains(r))
            .collect()
    }

    /// Findings at these locations, or below them, are dropped. Findings
    /// with the empty location are always kept.
    #[must_use]
    pub fn excluded_locations(self) -> &'static [&'static str] {
        &[
            "/properties/global/properties/apps",
            "/properties/internal",
            "/properties/providerIntegration",
            "/properties/cluster",
            "/properties/cluster-shared",
        ]
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule.
    pub rule: Rule,
    /// The rule's severity.
    pub severity: Severity,
    /// The resolved location (see the module documentation).
    pub location: String,
    /// What is wrong.
    pub message: String,
}

/// Reads the files of a lint run: the root file, and each file a `$ref`
/// names (by its name joined to the referring file's directory).
pub trait Loader {
    /// The bytes of the file `name`, or why they cannot be read.
    ///
    /// # Errors
    ///
    /// A message saying why the file cannot be read.
    fn read(&mut self, name: &str) -> Result<Vec<u8>, String>;
}

impl<F: FnMut(&str) -> Result<Vec<u8>, String>> Loader for F {
    fn read(&mut self, name: &str) -> Result<Vec<u8>, String> {
        self(name)
    }
}

/// `file:line:column`, or just `file`.
fn at(file: &str, position: &Option<Location>) -> String {
    match position {
        Some(p) => format!("{file}:{p}"),
        None => file.to_string(),
    }
}

fn show_pointer(p: &str) -> &str {
    if p.is_empty() { "/" } else { p }
}

/// Why a schema cannot be linted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LintError {
    /// The loader could not read the root file.
    #[error("{file}: cannot read: {message}")]
    Read {
        /// The file.
        file: String,
        /// The loader's message.
        message: String,
    },
    /// A file is not valid YAML or JSON (or hits an input limit).
    #[error(transparent)]
    Source(#[from] SourceError),
    /// A file is not a JSON Schema the linter can read.
    #[error("{}: invalid schema at {}: {message}", at(.file, .position), show_pointer(.pointer))]
    Invalid {
        /// The file.
        file: String,
        /// Where in the file.
        position: Option<Location>,
        /// The JSON pointer of the offending value.
        pointer: String,
        /// What is wrong.
        message: String,
    },
    /// A `$ref` (or `$dynamicRef`, `$recursiveRef`) cannot be resolved.
    #[error("{}: {message} (in the schema at {})", at(.file, .position), show_pointer(.pointer))]
    Reference {
        /// The file with the reference.
        file: String,
        /// Where in the file.
        position: Option<Location>,
        /// The JSON pointer of the schema with the reference.
        pointer: String,
        /// What is wrong.
        message: String,
    },
    /// `$ref`s that lead back to where they started.
    #[error("{}: $ref cycle at {}: {cycle}", at(.file, .position), show_pointer(.pointer))]
    RefCycle {
        /// The file.
        file: String,
        /// Where in the file.
        position: Option<Location>,
        /// The JSON pointer of a schema on the cycle.
        pointer: String,
        /// The cycle, as `file#pointer -> ...`.
        cycle: String,
    },
    /// The schema is too large to lint.
    #[error("{0}")]
    Limit(String),
}

/// Lints the schema file `root` with `rules`, dropping findings at or
/// below the `excluded` locations. Findings come in rule order, each
/// rule's in walk order, and each (message, location) pair once per rule.
///
/// # Errors
///
/// A [`LintError`] when a file cannot be read or parsed, is not a schema,
/// or has a `$ref` that cannot be resolved or forms a cycle.
pub fn lint(
    root: &str,
    loader: &mut dyn Loader,
    rules: &[Rule],
    excluded: &[&str],
) -> Result<Vec<Finding>, LintError> {
    let model = Model::load(root, loader)?;
    let walk = Walk::new(&model)?;
    let mut findings = Vec::new();
    for &rule in rules {
        for (message, location) in rules::run(&walk, rule) {
            let dropped = excluded
                .iter()
                .any(|e| location == *e || is_child_location(e, &location));
            if !dropped {
                findings.push(Finding {
                    rule,
                    severity: rule.severity(),
                    location,
                    message,
                });
            }
        }
    }
    Ok(findings)
}

/// Lints the schema file `root` with a rule set (its rules and its
/// excluded locations).
///
/// # Errors
///
/// As [`lint`].
pub fn lint_with_rule_set(
    root: &str,
    loader: &mut dyn Loader,
    rule_set: RuleSet,
) -> Result<Vec<Finding>, LintError> {
    lint(
        root,
        loader,
        &rule_set.rules(),
        rule_set.excluded_locations(),
    )
}
