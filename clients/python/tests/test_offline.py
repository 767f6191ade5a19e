"""What needs no service: error mapping (gates, rate limits), timeouts, the operation table against the document."""
import json
import pathlib
import socket
import threading

import httpx
import pytest

from svc_client import (
    OPERATIONS,
    AsyncClient,
    Client,
    SvcApiError,
    SvcGateError,
    SvcProtocolError,
    SvcRateLimitError,
    SvcServerError,
    SvcTimeoutError,
)
from svc_client._operations import AsyncOperations, Operations

DOCUMENT = pathlib.Path(__file__).resolve().parents[3] / "openapi" / "openapi.json"
GATE = {
    "reason": "no bound platform workspace",
    "remediation": "bind a capacity to the workspace in the admin area, or set SVC_DEFAULT_PLATFORM_WORKSPACE",
    "link": "https://app.fabric.microsoft.com/admin-portal/capacities",
}


def answering(status: int, body: object, headers: dict | None = None) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json=body, headers={"x-request-id": "req-1", **(headers or {})})

    return httpx.MockTransport(handler)


def test_a_gate_raises_svc_gate_error_with_the_remediation_hint() -> None:
    body = {"ok": False, "error": {"code": "deployment_gate", "message": GATE["reason"], "hint": GATE["remediation"], "gate": GATE}}
    client = Client("http://svc.test", "t", transport=answering(424, body))
    with pytest.raises(SvcGateError) as caught:
        client.list_items("ws1")
    err = caught.value
    assert (err.status, err.code) == (424, "deployment_gate")
    assert (err.reason, err.remediation, err.link) == (GATE["reason"], GATE["remediation"], GATE["link"])
    assert err.hint == GATE["remediation"] and err.request_id == "req-1"
    assert GATE["remediation"] in str(err)


def test_rate_limit_carries_retry_after() -> None:
    body = {"ok": False, "error": {"code": "rate_limited", "message": "Too many requests; retry after 7 s"}}
    with pytest.raises(SvcRateLimitError) as caught:
        Client("http://svc.test", "t", transport=answering(429, body, {"retry-after": "7"})).whoami()
    assert caught.value.retry_after == 7.0 and caught.value.status == 429


def test_non_envelope_answers_raise_rather_than_return_nothing() -> None:
    with pytest.raises(SvcServerError):
        Client("http://svc.test", "t", transport=answering(502, "bad gateway")).list_workspaces()
    with pytest.raises(SvcProtocolError):
        Client("http://svc.test", "t", transport=answering(200, {"ok": False})).list_workspaces()
    with pytest.raises(SvcProtocolError):
        Client("http://svc.test", "t", transport=answering(200, {"ok": True})).list_workspaces()
    with pytest.raises(SvcApiError) as teapot:
        Client("http://svc.test", "t", transport=answering(418, {"ok": False, "error": {"code": "teapot", "message": "no"}})).whoami()
    assert teapot.value.code == "teapot"


def test_the_token_travels_in_the_authorization_header() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(201, json={"ok": True, "workspace": {"id": "w1", "name": "n"}})

    ws = Client("http://svc.test/", "svc_pat_abc", transport=httpx.MockTransport(handler)).create_workspace({"name": "n"})
    assert ws == {"id": "w1", "name": "n"}
    assert seen[0].headers["authorization"] == "Bearer svc_pat_abc"
    assert str(seen[0].url) == "http://svc.test/api/workspaces"
    assert json.loads(seen[0].content) == {"name": "n"}


def test_a_silent_server_times_out() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    held: list[socket.socket] = []
    threading.Thread(target=lambda: held.append(listener.accept()[0]), daemon=True).start()
    try:
        with pytest.raises(SvcTimeoutError):
            Client(f"http://127.0.0.1:{port}", "t", timeout=0.3).whoami()
    finally:
        for s in held:
            s.close()
        listener.close()


def test_the_operation_table_and_the_document_agree_in_both_directions() -> None:
    doc = json.loads(DOCUMENT.read_text())
    documented = {op["operationId"]: (method.upper(), path) for path, ops in doc["paths"].items() for method, op in ops.items()}
    assert set(OPERATIONS) == set(documented)
    for op_id, op in OPERATIONS.items():
        assert (op.method, op.path) == documented[op_id]
        for cls in (Client, AsyncClient):
            assert callable(getattr(cls, op.name)), f"{cls.__name__}.{op.name}"
            if op.pager:
                assert callable(getattr(cls, op.pager))
    generated = {n for cls in (Operations, AsyncOperations) for n, v in vars(cls).items() if callable(v) and not n.startswith("_")}
    table = {op.name for op in OPERATIONS.values()} | {op.pager for op in OPERATIONS.values() if op.pager}
    assert generated == table, "every generated method has a documented operation"
    for name in ("whoami", "create_workspace", "create_item"):
        assert name in table
