"""Schemathesis against the table API's own OpenAPI schema: whatever it generates, the server answers
with a documented status and body, never a 5xx, and a refused request leaves the table unchanged."""

from __future__ import annotations

import random

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from scorer.table import api
from scorer.table.service import TableService

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def make_app():
    import tempfile
    from pathlib import Path

    service = TableService(Path(tempfile.mkdtemp(prefix="tourpad-schema-")) / "tables.sqlite3")
    app = api.create_app(service)
    # generous: schemathesis sends many unknown codes on purpose
    app.state.table_failed_codes.per_minute = 10**6
    code, host_token = service.create_table("australia", 2, credential=service.host_credential)
    seat_token = service.claim_seat(code, 1, "Ann")
    return app, service, code, {"host": host_token, "seat": seat_token}


APP, SERVICE, CODE, TOKENS = make_app()
schema = schemathesis.openapi.from_asgi("/openapi.json", APP).exclude(path_regex="/events$")
RNG = random.Random(6)


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_schema_and_its_table(case):
    # Half the cases address the real table with a real token, so bodies reach the rules, not just 404.
    checks = [not_a_server_error, status_code_conformance, content_type_conformance,
              response_schema_conformance, negative_data_rejection]
    if "code" in (case.path_parameters or {}) and RNG.random() < 0.5:
        case.path_parameters["code"] = CODE
        token = TOKENS[RNG.choice(["host", "seat"])]
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        checks.remove(negative_data_rejection)  # the case is no longer the one schemathesis generated
    before = SERVICE.view(CODE)
    response = case.call()
    case.validate_response(response, checks=checks)
    if response.status_code >= 400:
        assert SERVICE.view(CODE) == before
