"""Validates instances against schema files with Python's jsonschema (Debian's python3-jsonschema).

Reads a JSON list of cases from the file named on the command line, each
{"schema": path, "dialect": "2020-12" | "draft-07", "instance": path}, and prints a JSON list of
{"valid": bool, "error": str | null} in the same order. The schema files are self-contained
(service-contract bundle), so no resolver beyond the file itself is needed.
"""
import json
import sys

import jsonschema

VALIDATORS = {"2020-12": jsonschema.Draft202012Validator, "draft-07": jsonschema.Draft7Validator}


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = json.load(f)
    schemas = {}
    results = []
    for case in cases:
        key = (case["schema"], case["dialect"])
        if key not in schemas:
            with open(case["schema"], encoding="utf-8") as f:
                schema = json.load(f)
            cls = VALIDATORS[case["dialect"]]
            # The schema itself must be valid for its dialect's meta-schema.
            cls.check_schema(schema)
            schemas[key] = cls(schema, format_checker=cls.FORMAT_CHECKER if hasattr(cls, "FORMAT_CHECKER") else jsonschema.FormatChecker())
        with open(case["instance"], encoding="utf-8") as f:
            instance = json.load(f)
        error = jsonschema.exceptions.best_match(schemas[key].iter_errors(instance))
        results.append({"valid": error is None, "error": None if error is None else f"{'/'.join(map(str, error.absolute_path))}: {error.message}"[:300]})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
