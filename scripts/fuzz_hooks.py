"""Schemathesis hooks of scripts/fuzz.sh: the fuzzer's own corrections and the documented
exclusions (docs/decisions.md, "Fuzzing the operator API").

Loaded through SCHEMATHESIS_HOOKS. `python3 fuzz_hooks.py` prints the exclusions, which
the script does when a run starts.
"""

import json
import re
import sys

# Refusals the document cannot announce, each by the check it would fail, the operations
# it applies to, the problem it answers with, and why no schema can say it. A refusal
# with any other problem still fails the run.
EXCLUSIONS = [
    {
        "check": "positive_data_acceptance",
        "operations": r"^GET /api/(operator|public)/.*$",
        "query": "cursor",
        "code": "invalid_cursor",
        "detail": "",
        "reason": "a cursor must come from a previous page of the same list; "
        "it is an opaque signed value no pattern describes",
    },
    {
        "check": "positive_data_acceptance",
        "operations": r"^GET /api/operator/.*$",
        "query": None,
        "code": "validation_failed",
        "detail": r"must be later than `(from|createdFrom)`$",
        "reason": "the start of a time range must be before its end, a relation between "
        "two query parameters that JSON Schema cannot state",
    },
    {
        "check": "positive_data_acceptance",
        "operations": r"^POST /api/operator/api-keys$",
        "query": None,
        "code": "validation_failed",
        "detail": r"^`expiresAt` must be in the future$",
        "reason": "an expiry must be later than the moment of the request",
    },
    {
        "check": "positive_data_acceptance",
        "operations": r"^POST /api/operator/launch$",
        "query": None,
        "code": "validation_failed",
        "detail": r"is not one of the operator's launch hosts",
        "reason": "`host` must be one the operator configured in /api/operator/launch-settings",
    },
    {
        "check": "positive_data_acceptance",
        "operations": r"^PATCH /api/operator/webhooks/endpoints/\{id\}$",
        "query": None,
        "code": "validation_failed",
        "detail": r"^`secret` must differ from the endpoint's current secret$",
        "reason": "a rotation to the endpoint's current secret is refused; which secret "
        "that is, only the earlier requests know",
    },
    {
        "check": "positive_data_acceptance",
        "operations": r"^POST /api/operator/simulator/(users/\{id\}/)?operations$",
        "query": None,
        "code": "validation_failed",
        "detail": "is required for this operation|give either `shares` or `amount`"
        "|goes with `slow_answer` only|does not apply to `[a-z_]+`$",
        "reason": "which fields an operation, a scenario or a fault needs or takes depends "
        "on its name or kind; the flat body schema lists them all as optional",
    },
]


def print_exclusions():
    for exclusion in EXCLUSIONS:
        print(
            f"fuzz: excluded: {exclusion['check']} on {exclusion['operations']} "
            f"answered `{exclusion['code']}` ({exclusion['reason']})"
        )


def _problem(response):
    try:
        problem = json.loads(response.content)
    except (ValueError, TypeError):
        return {}
    return problem if isinstance(problem, dict) else {}


def _excluded(failure, case, response):
    checks = getattr(type(failure), "checks", ())
    label = f"{case.operation.method.upper()} {case.operation.path}"
    problem = _problem(response)
    for exclusion in EXCLUSIONS:
        if exclusion["check"] not in checks or not re.match(exclusion["operations"], label):
            continue
        if exclusion["query"] is not None and exclusion["query"] not in (case.query or {}):
            continue
        if problem.get("code") != exclusion["code"]:
            continue
        if exclusion["detail"] and not re.search(exclusion["detail"], problem.get("detail", "")):
            continue
        return True
    return False


def _whole_floats_as_integers(value):
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_whole_floats_as_integers(item) for item in value]
    if isinstance(value, dict):
        return {key: _whole_floats_as_integers(item) for key, item in value.items()}
    return value


if __name__ == "__main__":
    print_exclusions()
    sys.exit(0)

import schemathesis  # noqa: E402  (only under schemathesis; the listing above runs without it)


@schemathesis.hook
def filter_failure(context, failure, case, response):
    """Drops the failures of the exclusions above, and only those."""
    return not _excluded(failure, case, response)


@schemathesis.hook
def before_call(context, case, kwargs):
    """Sends `60` for a generated `60.0`. JSON Schema counts 60.0 as an integer, but the
    service reads integers strictly (serde refuses 60.0 with 400 `invalid_body`), as
    docs/decisions.md says; this is the fuzzer's spelling, not the API's contract."""
    if isinstance(case.body, (dict, list)):
        case.body = _whole_floats_as_integers(case.body)
