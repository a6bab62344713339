"""Schemathesis hooks for Launchdir's contract run.

Every well-formed Idempotency-Key gets a fresh value: the generator reuses simple values such
as "0" across different requests, and the server rightly answers a reused key with another
body as 400 idempotency_key_mismatch. Malformed keys (the negative tests of the header) are
left as generated.
"""
import itertools
import re

import schemathesis

_counter = itertools.count(1)
_WELL_FORMED = re.compile(r"^[\x21-\x7E]{1,255}$")


@schemathesis.hook
def before_call(context, case, kwargs):
    headers = case.headers
    if headers and isinstance(headers.get("Idempotency-Key"), str) and _WELL_FORMED.match(headers["Idempotency-Key"]):
        headers["Idempotency-Key"] = f"contract-{next(_counter)}"
