"""Judges a schemathesis NDJSON report for `cargo xtask contract`.

Passes when there is no failure except schema-valid requests refused for a reason listed in
allowed-refusals.toml (rules a schema cannot express: an unknown identifier, a resource's state,
a duplicate). Server errors, responses that break their schema and every other check are never
allowed. Prints the number of cases generated and each kind of failure once.

usage: judge.py REPORT.ndjson ALLOWED.toml
"""
import base64
import json
import re
import sys
import tomllib


def decode(content):
    if isinstance(content, dict) and "$base64" in content:
        return base64.b64decode(content["$base64"]).decode("utf-8", "replace")
    return content


def main(report_path, allowed_path):
    with open(allowed_path, "rb") as f:
        allowed = tomllib.load(f)["refusal"]
    used = [0] * len(allowed)
    cases = 0
    operations = set()
    failures = {}
    for line in open(report_path):
        event = json.loads(line)
        if "ScenarioFinished" not in event:
            continue
        recorder = event["ScenarioFinished"]["recorder"]
        operations.add(recorder["label"])
        cases += len(recorder.get("cases", {}))
        for case_id, checks in recorder.get("checks", {}).items():
            for check in checks:
                if check["status"] != "failure":
                    continue
                # Stateful scenarios span operations: each case names its own.
                case = recorder["cases"][case_id]["value"]
                label = f'{case["method"]} {case["path"]}' if "method" in case and "path" in case else recorder["label"]
                interaction = recorder["interactions"].get(case_id) or {}
                response = interaction.get("response") or {}
                request = interaction.get("request") or {}
                body = decode(response.get("content")) or ""
                try:
                    problem = json.loads(body)
                except (ValueError, TypeError):
                    problem = {}
                errors = [(re.sub(r"\[\d+\]", "[]", e.get("field", "")), e.get("message", "")) for e in problem.get("errors") or []]
                if not errors and problem.get("code"):
                    errors = [("", problem.get("detail", ""))]
                allowed_all = check["name"] == "positive_data_acceptance" and errors
                for field, message in errors:
                    hit = next(
                        (
                            i
                            for i, entry in enumerate(allowed)
                            if entry["operation"] == label
                            and re.fullmatch(entry["field"], field)
                            and re.search(entry["message"], message)
                        ),
                        None,
                    )
                    if hit is None:
                        allowed_all = False
                    else:
                        used[hit] += 1
                key = (label, check["name"], response.get("status_code"), tuple(sorted(set(errors))) or body[:200])
                entry = failures.setdefault(key, {"count": 0, "allowed": bool(allowed_all), "example": None})
                entry["count"] += 1
                if entry["example"] is None:
                    entry["example"] = f'{request.get("method")} {request.get("uri")} {str(decode(request.get("body")))[:300]}'
    bad = {k: v for k, v in failures.items() if not v["allowed"]}
    print(f"contract: {cases} cases over {len(operations)} operations; "
          f"{sum(v['count'] for v in failures.values() if v['allowed'])} refusals allowed by the list, "
          f"{sum(v['count'] for v in bad.values())} failures not allowed")
    for (label, check, status, errors), entry in sorted(bad.items(), key=lambda kv: str(kv[0])):
        print(f"  NOT ALLOWED {label} | {check} | {status} | x{entry['count']}\n    {errors}\n    e.g. {entry['example']}")
    for i, entry in enumerate(allowed):
        if not used[i]:
            print(f"  (allowed, not seen this run) {entry['operation']} {entry['field']}: {entry['message']}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
