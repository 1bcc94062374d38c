"""Validates published OpenAPI documents with openapi-spec-validator.

Usage: validate.py FILE...

Each FILE holds what `schema-gen openapi` prints: a Swagger 2.0 document, an
OpenAPI 3.0 document, or a JSON object of OpenAPI 3.0 documents keyed by
`apis/<group>/<version>`. Every document must pass the validator, with one
exception that the Kubernetes API server's own documents share: the
validator also checks each `default` against its schema, and the API
server's apimachinery definitions carry `default: {}` on `allOf`-wrapped
references to objects with required properties (ObjectMeta.ownerReferences
items, ManagedFieldsEntry ...). Such an error is tolerated only when the
schema it fails is one of the document's `io.k8s.apimachinery.` definitions;
any other error fails the run.

Patterns are Go RE2 expressions for the API server, while the validator
checks them with Python's `re`; a pattern `re` cannot compile (such as
`^(?i)(abort|warn)?$`, which the API server accepts) is counted and replaced
by `^$` before validation, so the rest of the document is still checked.

Prints one line per document and exits 1 if any is invalid.
"""

import json
import re
import sys

from openapi_spec_validator import OpenAPIV2SpecValidator, OpenAPIV30SpecValidator


def documents(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if "swagger" in doc or "openapi" in doc:
        yield path, doc
    else:
        for key, sub in doc.items():
            yield f"{path}#{key}", sub


def apimachinery_defs(doc):
    defs = doc.get("definitions") or doc.get("components", {}).get("schemas", {})
    return [v for k, v in defs.items() if k.startswith("io.k8s.apimachinery.")]


def neutralize_patterns(node):
    """Replaces patterns Python's `re` rejects; returns how many."""
    count = 0
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                try:
                    re.compile(value)
                except re.error:
                    node[key] = "^$"
                    count += 1
            else:
                count += neutralize_patterns(value)
    elif isinstance(node, list):
        for value in node:
            count += neutralize_patterns(value)
    return count


def main(paths):
    bad = 0
    for path in paths:
        for name, doc in documents(path):
            validator = OpenAPIV2SpecValidator if "swagger" in doc else OpenAPIV30SpecValidator
            rewritten = neutralize_patterns(doc)
            tolerated = apimachinery_defs(doc)
            errors, quirks = [], 0
            for e in validator(doc).iter_errors():
                if getattr(e, "validator", None) == "required" and e.schema in tolerated:
                    quirks += 1
                else:
                    errors.append(str(e).splitlines()[0])
            if errors:
                bad += 1
                print(f"INVALID {name}: {errors[0]} ({len(errors)} errors)")
            else:
                print(
                    f"valid {name} (apimachinery default quirks: {quirks}, "
                    f"RE2-only patterns: {rewritten})"
                )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
