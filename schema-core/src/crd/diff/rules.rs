//! The rules of [`diff`](super::diff): one stable kebab-case id per kind of
//! change, each with a fixed severity. The doc comment of each rule says
//! why it has that severity.
//!
//! The severities follow one scale:
//!
//! - **error**: the change loses or corrupts stored data, breaks clients
//!   of the API, or is refused by the API server;
//! - **warning**: the change can break some clients or requests (a
//!   tightened validation, which the server ratchets for unchanged values),
//!   or changes what objects read back as; it needs a look before rollout;
//! - **info**: nothing existing breaks (additions, loosened validations).

use super::Severity;

/// A rule: its id, severity and a one-line summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The stable kebab-case id.
    pub id: &'static str,
    /// The severity of every finding of the rule.
    pub severity: Severity,
    /// What the rule finds, in one line.
    pub summary: &'static str,
}

macro_rules! rules {
    ($($(#[$doc:meta])* $name:ident = ($id:literal, $sev:ident, $summary:literal);)*) => {
        $(
            $(#[$doc])*
            pub const $name: Rule = Rule {
                id: $id,
                severity: Severity::$sev,
                summary: $summary,
            };
        )*

        /// Every rule, in the order of this module.
        pub const ALL: &[Rule] = &[$($name),*];
    };
}

rules! {
    // ----- CRDs -----

    /// Error: deleting a CRD deletes every object of its kind, and every
    /// client of the API fails.
    CRD_REMOVED = ("crd-removed", Error, "a CRD of OLD is not in NEW");
    /// Error: the API server refuses to update OLD to NEW
    /// (`ValidateCustomResourceDefinitionUpdate`: immutable fields, stored
    /// versions, and everything a create checks); the path is the CRD's
    /// own field, the message the server's.
    UPDATE_REJECTED = ("update-rejected", Error, "the API server refuses the update");
    /// Info: a new API; nothing existing changes.
    CRD_ADDED = ("crd-added", Info, "a CRD of NEW is not in OLD");
    /// Warning: an input names the same CRD twice; which definition is
    /// applied depends on the tool applying it, so the comparison may not
    /// be the one that matters.
    DUPLICATE_CRD = ("duplicate-crd", Warning, "a CRD name is defined twice on one side");
    /// Error: `spec.scope` is immutable once the CRD is established (the
    /// server refuses the update), and namespaced and cluster-scoped
    /// objects live under different storage keys and URLs.
    SCOPE_CHANGED = ("scope-changed", Error, "spec.scope changed");
    /// Error: the group is part of the CRD's name and immutable; every
    /// client's `apiVersion` names it.
    GROUP_CHANGED = ("group-changed", Error, "spec.group changed");
    /// Error: `names.kind` is immutable once established, and every
    /// object and client names the kind.
    KIND_CHANGED = ("kind-changed", Error, "spec.names.kind changed");
    /// Error: the plural is part of the CRD's name, immutable, and the
    /// resource's URL path.
    PLURAL_CHANGED = ("plural-changed", Error, "spec.names.plural changed");
    /// Error: the server accepts it, but `kubectl get <singular>`, RBAC
    /// tooling and scripts naming the resource by its singular break.
    SINGULAR_CHANGED = ("singular-changed", Error, "spec.names.singular changed");
    /// Error: the server accepts it, but list responses change their
    /// `kind`, which typed clients decode by.
    LIST_KIND_CHANGED = ("list-kind-changed", Error, "spec.names.listKind changed");
    /// Warning: `kubectl get <short name>` stops working for people and
    /// scripts using it; the API itself is unchanged.
    SHORT_NAME_REMOVED = ("short-name-removed", Warning, "a short name is removed");
    /// Warning: `kubectl get <category>` (such as `all`) no longer lists
    /// the kind; the API itself is unchanged.
    CATEGORY_REMOVED = ("category-removed", Warning, "a category is removed");
    /// Error: with `spec.preserveUnknownFields` turned off the server
    /// prunes unknown fields: data not in the schema is dropped from stored
    /// objects on their next write.
    PRESERVE_UNKNOWN_FIELDS_DISABLED = ("preserve-unknown-fields-disabled", Error, "spec.preserveUnknownFields turned off");

    // ----- Versions -----

    /// Error: clients using the version get 404s, controllers watching it
    /// stop.
    VERSION_REMOVED_SERVED = ("version-removed-served", Error, "a served version is removed");
    /// Error: the server refuses to remove a version listed in
    /// `status.storedVersions`: objects stored at it must first be
    /// migrated (read and written back at the storage version) and the
    /// version dropped from `status.storedVersions`.
    VERSION_REMOVED_STORED = ("version-removed-stored", Error, "a version that holds data is removed");
    /// Info: the version was neither served nor stored; nobody can use it.
    VERSION_REMOVED = ("version-removed", Info, "an unused version is removed");
    /// Warning: new writes are stored at the new version, existing objects
    /// stay at the old one until rewritten; the old version must keep being
    /// served or converted until a storage migration is done, and a
    /// rollback must still know the new version.
    STORAGE_VERSION_CHANGED = ("storage-version-changed", Warning, "the storage version moved");
    /// Warning: clients of the version get 404s, but the data and the
    /// version stay and serving can be turned on again.
    VERSION_UNSERVED = ("version-unserved", Warning, "a version is no longer served");
    /// Info: clients of the version get deprecation warnings; nothing
    /// breaks.
    VERSION_DEPRECATED = ("version-deprecated", Info, "a version is marked deprecated");
    /// Info: a new version; nothing existing changes.
    VERSION_ADDED = ("version-added", Info, "a version is added");
    /// Error: without a schema nothing is validated, and a v1 CRD
    /// without one is refused.
    SCHEMA_REMOVED = ("schema-removed", Error, "a version's schema is removed");
    /// Warning: a schema where there was none prunes every field it does
    /// not list and validates the rest.
    SCHEMA_ADDED = ("schema-added", Warning, "a version gets a schema");

    // ----- Fields -----

    /// Error: the server prunes fields not in the schema: values stored
    /// there are dropped on the next write of each object, and clients
    /// setting the field lose it silently.
    FIELD_REMOVED = ("field-removed", Error, "a field is removed");
    /// Warning: the field leaves the schema but its object keeps unknown
    /// fields, so values are kept; they are no longer validated nor
    /// defaulted, and published OpenAPI (kubectl explain, client
    /// generators) loses the field.
    FIELD_REMOVED_PRESERVED = ("field-removed-preserved", Warning, "a field is removed under x-kubernetes-preserve-unknown-fields");
    /// Info: a new optional field; existing objects and clients are
    /// unaffected.
    FIELD_ADDED = ("field-added", Info, "a field is added");
    /// Error: stored values of the old type fail validation on every
    /// update, and clients decoding the old type fail on new values.
    TYPE_CHANGED = ("type-changed", Error, "a field's type changed");
    /// Warning: `integer` to `number` still accepts every stored value, but
    /// typed clients holding an integer fail to decode fractional values.
    TYPE_WIDENED = ("type-widened", Warning, "a field's type widened from integer to number");
    /// Error: creates and updates without the field are refused; the check
    /// is on the parent object, which rarely stays unchanged on update, so
    /// ratcheting does not help.
    FIELD_REQUIRED = ("field-required", Error, "a field became required");
    /// Info: a required field became optional; clients reading it must
    /// cope with its absence in new objects.
    FIELD_OPTIONAL = ("field-optional", Info, "a field is no longer required");
    /// Warning: explicit `null`s are dropped from requests (or refused),
    /// and clients sending them get different results.
    NULLABLE_REMOVED = ("nullable-removed", Warning, "nullable removed");
    /// Error: unknown fields under this node are pruned: data the schema
    /// does not list is dropped from stored objects on their next write.
    PRESERVE_UNKNOWN_FIELDS_REMOVED = ("preserve-unknown-fields-removed", Error, "x-kubernetes-preserve-unknown-fields removed");
    /// Info: unknown fields are now kept instead of pruned.
    PRESERVE_UNKNOWN_FIELDS_ADDED = ("preserve-unknown-fields-added", Info, "x-kubernetes-preserve-unknown-fields added");
    /// Error: an embedded resource gets (or loses) the `apiVersion`,
    /// `kind` and `metadata` checks and metadata pruning: stored values
    /// can fail validation or lose fields.
    EMBEDDED_RESOURCE_CHANGED = ("embedded-resource-changed", Error, "x-kubernetes-embedded-resource changed");
    /// Error: int-or-string changes the accepted JSON types: stored values
    /// fail validation, typed clients fail to decode.
    INT_OR_STRING_CHANGED = ("int-or-string-changed", Error, "x-kubernetes-int-or-string changed");

    // ----- Value validations: tightened (ratcheted) or loosened -----

    /// Warning, ratcheted: values outside the new enum are refused on create
    /// and when changed; unchanged values pass on update.
    ENUM_ADDED = ("enum-added", Warning, "an enum restricts a field");
    /// Warning, ratcheted: the removed values are refused on create and when
    /// changed; unchanged values pass on update.
    ENUM_VALUES_REMOVED = ("enum-values-removed", Warning, "enum values are removed");
    /// Info: more values are accepted.
    ENUM_VALUES_ADDED = ("enum-values-added", Info, "enum values are added");
    /// Info: any value is accepted.
    ENUM_REMOVED = ("enum-removed", Info, "an enum is removed");
    /// Warning, ratcheted: a lower (or new, or newly exclusive) maximum.
    MAXIMUM_LOWERED = ("maximum-lowered", Warning, "maximum lowered, added or made exclusive");
    /// Info: a higher, removed or no longer exclusive maximum.
    MAXIMUM_RAISED = ("maximum-raised", Info, "maximum raised or removed");
    /// Warning, ratcheted: a higher (or new, or newly exclusive) minimum.
    MINIMUM_RAISED = ("minimum-raised", Warning, "minimum raised, added or made exclusive");
    /// Info: a lower, removed or no longer exclusive minimum.
    MINIMUM_LOWERED = ("minimum-lowered", Info, "minimum lowered or removed");
    /// Warning, ratcheted: longer strings are refused.
    MAX_LENGTH_LOWERED = ("max-length-lowered", Warning, "maxLength lowered or added");
    /// Info: longer strings are accepted.
    MAX_LENGTH_RAISED = ("max-length-raised", Info, "maxLength raised or removed");
    /// Warning, ratcheted: shorter strings are refused.
    MIN_LENGTH_RAISED = ("min-length-raised", Warning, "minLength raised or added");
    /// Info: shorter strings are accepted.
    MIN_LENGTH_LOWERED = ("min-length-lowered", Info, "minLength lowered or removed");
    /// Warning, ratcheted: longer lists are refused.
    MAX_ITEMS_LOWERED = ("max-items-lowered", Warning, "maxItems lowered or added");
    /// Info: longer lists are accepted.
    MAX_ITEMS_RAISED = ("max-items-raised", Info, "maxItems raised or removed");
    /// Warning, ratcheted: shorter lists are refused.
    MIN_ITEMS_RAISED = ("min-items-raised", Warning, "minItems raised or added");
    /// Info: shorter lists are accepted.
    MIN_ITEMS_LOWERED = ("min-items-lowered", Info, "minItems lowered or removed");
    /// Warning, ratcheted: objects with more properties are refused.
    MAX_PROPERTIES_LOWERED = ("max-properties-lowered", Warning, "maxProperties lowered or added");
    /// Info: objects with more properties are accepted.
    MAX_PROPERTIES_RAISED = ("max-properties-raised", Info, "maxProperties raised or removed");
    /// Warning, ratcheted: objects with fewer properties are refused.
    MIN_PROPERTIES_RAISED = ("min-properties-raised", Warning, "minProperties raised or added");
    /// Info: objects with fewer properties are accepted.
    MIN_PROPERTIES_LOWERED = ("min-properties-lowered", Info, "minProperties lowered or removed");
    /// Warning, ratcheted: a new or different pattern can refuse strings
    /// accepted before (two regular expressions are not compared for
    /// inclusion).
    PATTERN_CHANGED = ("pattern-changed", Warning, "pattern added or changed");
    /// Info: any string is accepted.
    PATTERN_REMOVED = ("pattern-removed", Info, "pattern removed");
    /// Warning, ratcheted: a format the server validates is added or
    /// changed: strings not in that format are refused.
    FORMAT_CHANGED = ("format-changed", Warning, "a validated format added or changed");
    /// Info: the new format is one the server does not validate, so no
    /// value is refused for it.
    FORMAT_CHANGED_UNCHECKED = ("format-changed-unchecked", Info, "a format the server does not validate added or changed");
    /// Info: no format check any more.
    FORMAT_REMOVED = ("format-removed", Info, "format removed");
    /// Warning, ratcheted: numbers that are not multiples of the new value
    /// are refused.
    MULTIPLE_OF_CHANGED = ("multiple-of-changed", Warning, "multipleOf added or changed");
    /// Info: `multipleOf` removed, or changed to a divisor of the old value:
    /// every value accepted before still is.
    MULTIPLE_OF_LOOSENED = ("multiple-of-loosened", Info, "multipleOf removed or loosened");
    /// Warning, ratcheted unless it reads `oldSelf`: a new CEL rule can
    /// refuse values accepted before (transition rules are not ratcheted).
    VALIDATION_RULE_ADDED = ("validation-rule-added", Warning, "a CEL validation rule is added");
    /// Warning, ratcheted unless it reads `oldSelf`: a changed CEL rule
    /// expression can refuse values accepted before.
    VALIDATION_RULE_CHANGED = ("validation-rule-changed", Warning, "a CEL validation rule expression changed");
    /// Info: one check less.
    VALIDATION_RULE_REMOVED = ("validation-rule-removed", Info, "a CEL validation rule is removed");
    /// Warning, ratcheted: the value validations under `allOf`, `anyOf`,
    /// `oneOf` or `not` changed; they may refuse values accepted before.
    JUNCTOR_CHANGED = ("junctor-changed", Warning, "allOf/anyOf/oneOf/not changed");

    // ----- Defaults -----

    /// Warning: the server defaults on every read from storage too, so
    /// existing objects without the field read back with the new value and
    /// get it stored on their next write.
    DEFAULT_ADDED = ("default-added", Warning, "a default is added");
    /// Warning: objects created from now on, and existing objects without
    /// the field when read, get the new value; controllers see a
    /// different effective configuration.
    DEFAULT_CHANGED = ("default-changed", Warning, "a default changed");
    /// Info: new objects without the field keep it absent; values already
    /// defaulted and stored stay.
    DEFAULT_REMOVED = ("default-removed", Info, "a default is removed");

    // ----- List and map semantics -----

    /// Error: list types are the merge semantics of server-side apply and
    /// a validation. From `set`/`map` to `atomic` the list becomes one
    /// value owned by every manager that owned an item, so further applies
    /// conflict; from `atomic` to `set`/`map` duplicates and items without
    /// unique keys are refused and the server cannot infer per-item
    /// ownership; between `set` and `map` both happen. No change of list
    /// type only loosens.
    LIST_TYPE_CHANGED = ("list-type-changed", Error, "x-kubernetes-list-type changed");
    /// Info: the list type is spelled out or dropped, but means the same
    /// (unset is `atomic`).
    LIST_TYPE_EQUIVALENT = ("list-type-equivalent", Info, "x-kubernetes-list-type written differently, same meaning");
    /// Error: map-list items are identified by their keys: uniqueness is
    /// checked on the new keys (fewer keys refuse lists accepted before)
    /// and server-side apply's ownership of items is keyed by the old ones.
    LIST_MAP_KEYS_CHANGED = ("list-map-keys-changed", Error, "x-kubernetes-list-map-keys changed");
    /// Warning: from `granular` to `atomic` the map or struct becomes one
    /// value owned by every manager that owned a member, so server-side
    /// applies of several managers to it conflict. No stored data is lost
    /// and nothing is refused, and it is how Kubernetes itself marked
    /// selector structs atomic: a look before rollout, not a break.
    MAP_TYPE_CHANGED = ("map-type-changed", Warning, "x-kubernetes-map-type changed from granular to atomic");
    /// Warning: from `atomic` to `granular` nothing is refused and nothing
    /// conflicts, but the server cannot infer per-member ownership, so
    /// later applies by one manager may not remove members another set.
    MAP_TYPE_MADE_GRANULAR = ("map-type-made-granular", Warning, "x-kubernetes-map-type changed from atomic to granular");
    /// Info: the map type is spelled out or dropped, but means the same
    /// (unset is `granular`).
    MAP_TYPE_EQUIVALENT = ("map-type-equivalent", Info, "x-kubernetes-map-type written differently, same meaning");

    // ----- Printer columns, selectable fields, subresources -----

    /// Warning: `kubectl get` no longer shows the column; scripts parsing
    /// its output break.
    PRINTER_COLUMN_REMOVED = ("printer-column-removed", Warning, "a printer column is removed");
    /// Info: the column shows something else; only human-facing output
    /// changes.
    PRINTER_COLUMN_CHANGED = ("printer-column-changed", Info, "a printer column changed");
    /// Info: `kubectl get` shows one more column.
    PRINTER_COLUMN_ADDED = ("printer-column-added", Info, "a printer column is added");
    /// Warning: list and watch requests with a field selector on it are
    /// refused.
    SELECTABLE_FIELD_REMOVED = ("selectable-field-removed", Warning, "a selectable field is removed");
    /// Info: one more field selector is accepted.
    SELECTABLE_FIELD_ADDED = ("selectable-field-added", Info, "a selectable field is added");
    /// Error: the `/status` endpoint disappears, so controllers writing
    /// status there fail, and writes to the main resource change status
    /// again.
    STATUS_SUBRESOURCE_REMOVED = ("status-subresource-removed", Error, "the status subresource is removed");
    /// Warning: writes to the main resource now ignore `status`, and
    /// status writes to `/status` ignore everything else: controllers
    /// that write status with the object silently lose it.
    STATUS_SUBRESOURCE_ADDED = ("status-subresource-added", Warning, "the status subresource is added");
    /// Error: the `/scale` endpoint disappears: `kubectl scale`, the
    /// HorizontalPodAutoscaler and PodDisruptionBudgets using it fail.
    SCALE_SUBRESOURCE_REMOVED = ("scale-subresource-removed", Error, "the scale subresource is removed");
    /// Error: `/scale` reads and writes other fields: autoscalers and
    /// `kubectl scale` act on a different field than before.
    SCALE_PATH_CHANGED = ("scale-path-changed", Error, "a scale subresource path changed");
    /// Info: a new `/scale` endpoint.
    SCALE_SUBRESOURCE_ADDED = ("scale-subresource-added", Info, "the scale subresource is added");

    // ----- stored objects (`evidence`) -----

    /// Error: NEW has no CRD for the object's kind: it is deleted with the
    /// CRD.
    OBJECT_KIND_REMOVED = ("object-kind-removed", Error, "a stored object's kind is not in NEW");
    /// Error: NEW does not serve the object's version: clients that read
    /// or write it there get 404s.
    OBJECT_VERSION_NOT_SERVED = ("object-version-not-served", Error, "a stored object's version is not served by NEW");
    /// Error: the object as stored, written back unchanged (a controller's
    /// routine update), is refused under NEW even with ratcheting (a
    /// transition rule, which reads `oldSelf`, is not ratcheted).
    OBJECT_UPDATE_REJECTED = ("object-update-rejected", Error, "an unchanged update of a stored object is refused");
    /// Warning: the object would be refused if created under NEW; an
    /// update that leaves the values alone passes (ratcheting), one that
    /// changes them must fix them.
    OBJECT_INVALID = ("object-invalid", Warning, "a stored object is invalid under NEW (ratcheted on update)");
    /// Error: fields of the object leave the schema: the server prunes
    /// them on its next write, and the data is lost.
    OBJECT_FIELDS_PRUNED = ("object-fields-pruned", Error, "fields of a stored object are pruned under NEW");
    /// Warning: NEW's defaults change what the object reads back as.
    OBJECT_DEFAULTED = ("object-defaulted", Warning, "a stored object reads back differently under NEW");
}

/// The rule with `id`, if any.
pub fn by_id(id: &str) -> Option<&'static Rule> {
    ALL.iter().find(|r| r.id == id)
}
