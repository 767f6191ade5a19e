"""The Python client against a running service: SPEC.md's operations, errors, paging, install and wait."""
import asyncio
import time
import uuid

import httpx

import pytest

from svc_client import (
    AsyncClient,
    Client,
    Page,
    SvcAuthenticationError,
    SvcBadRequestError,
    SvcConfigError,
    SvcConflictError,
    SvcForbiddenError,
    SvcGateError,
    SvcNotFoundError,
)

REFUSED_TOKEN = "svc_pat_" + "0" * 16 + "_" + "A" * 48


def test_whoami_names_the_token_caller(client: Client) -> None:
    me = client.whoami()
    assert me["authMethod"] == "token"
    assert "admin" in me["scopes"]
    assert me["tenantId"] and me["userId"] and me["tokenId"]
    assert "ok" not in me


def test_create_workspace_and_item_return_the_resources(client: Client, workspace: dict) -> None:
    assert workspace["id"] and workspace["name"].startswith("pytest ")
    item = client.create_item(workspace["id"], {"itemType": "notebook", "displayName": "Daily load"})
    assert item["id"] and item["itemType"] == "notebook" and item["workspaceId"] == workspace["id"]
    assert client.get_item(workspace["id"], item["id"])["displayName"] == "Daily load"
    renamed = client.update_item(workspace["id"], item["id"], {"displayName": "Nightly load"})
    assert renamed["displayName"] == "Nightly load"
    content = client.get_item_content(workspace["id"], item["id"])
    etag = client.put_item_content(workspace["id"], item["id"], {"content": {"cells": []}}, if_match=content["etag"])
    assert etag and etag != content["etag"]
    assert client.delete_item(workspace["id"], item["id"]) == item["id"]
    with pytest.raises(SvcNotFoundError):
        client.get_item(workspace["id"], item["id"])


def test_an_empty_listing_is_an_empty_list_only_when_the_call_succeeded(base_url: str, client: Client, workspace: dict) -> None:
    items = client.list_items(workspace["id"])
    assert items == [] and isinstance(items, Page) and items.next_cursor is None
    with pytest.raises(SvcAuthenticationError):
        Client(base_url, REFUSED_TOKEN).list_items(workspace["id"])
    with pytest.raises(SvcNotFoundError):
        client.list_items("no-such-workspace")


def test_paged_lists_iterate_every_page(client: Client, workspace: dict) -> None:
    for n in range(5):
        client.create_item(workspace["id"], {"itemType": "lakehouse", "displayName": f"lake {n}"})
    first = client.list_items(workspace["id"], limit=2)
    assert len(first) == 2 and first.next_cursor
    names = [i["displayName"] for i in client.iter_items(workspace["id"], limit=2)]
    assert sorted(names) == [f"lake {n}" for n in range(5)]
    assert any(ws["id"] == workspace["id"] for ws in client.iter_workspaces(limit=1))


def test_unknown_workspace_raises_not_found(client: Client) -> None:
    with pytest.raises(SvcNotFoundError) as caught:
        client.get_workspace("no-such-workspace")
    assert caught.value.status == 404 and caught.value.code == "not_found"
    assert "no-such-workspace" in caught.value.message


def test_conflict_and_invalid_input_raise_typed_errors(client: Client, workspace: dict) -> None:
    client.create_item(workspace["id"], {"itemType": "report", "displayName": "Twice"})
    with pytest.raises(SvcConflictError) as conflict:
        client.create_item(workspace["id"], {"itemType": "report", "displayName": "Twice"})
    assert conflict.value.status == 409 and conflict.value.field == "displayName"
    with pytest.raises(SvcBadRequestError) as bad:
        client.create_workspace({"name": ""})
    assert bad.value.status == 400 and bad.value.field == "name"


def test_refused_tokens_raise(monkeypatch: pytest.MonkeyPatch, base_url: str, client: Client) -> None:
    with pytest.raises(SvcAuthenticationError) as caught:
        Client(base_url, REFUSED_TOKEN).whoami()
    assert caught.value.status == 401
    with pytest.raises(SvcAuthenticationError):
        Client(base_url, "not-a-token").list_workspaces()
    monkeypatch.delenv("SVC_TOKEN", raising=False)
    with pytest.raises(SvcAuthenticationError):
        Client(base_url).list_workspaces()  # no token at all

    created = client.create_token({"name": "pytest read-only", "scopes": ["read"], "expiresInDays": 1})
    reader = Client(base_url, created["secret"])
    assert reader.whoami()["scopes"] == ["read"]
    with pytest.raises(SvcForbiddenError) as forbidden:
        reader.create_workspace({"name": "not allowed"})
    assert forbidden.value.code == "missing_scope"
    assert client.revoke_token(created["token"]["id"]) == created["token"]["id"]
    with pytest.raises(SvcAuthenticationError):
        reader.whoami()


def test_svc_base_url_is_honoured(monkeypatch: pytest.MonkeyPatch, base_url: str, token: str) -> None:
    monkeypatch.setenv("SVC_BASE_URL", base_url)
    with Client(token=token) as c:
        assert c.base_url == base_url.rstrip("/")
        assert c.whoami()["authMethod"] == "token"
    monkeypatch.delenv("SVC_BASE_URL")
    with pytest.raises(SvcConfigError):
        Client(token=token)


def test_install_an_app_and_wait_for_it(client: Client, workspace: dict) -> None:
    apps = client.list_apps()
    app = next(a for a in apps if a["id"] == "app-lakehouse-inspector")
    handle = client.install_app(app["id"], {"workspaceId": workspace["id"], "deploy": True})
    assert handle["jobId"] and handle["totalItems"] == app["totalItems"]
    job = handle.wait(interval=0.2, timeout=180)
    assert job["id"] == handle.job_id
    assert job["status"] in ("done", "partial", "failed") and job["status"] != "running"
    assert job["finishedAt"] is not None
    if job["status"] == "done":
        assert job["percentComplete"] == 100 and job["phase"] == "done"
        assert len(job["installed"]) == app["totalItems"]
    items = list(client.iter_items(workspace["id"]))
    assert {i["id"] for i in items} >= {i["id"] for i in job["installed"]}
    jobs = list(client.iter_install_jobs(workspace_id=workspace["id"]))
    assert [j["id"] for j in jobs] == [job["id"]]
    events = [e.event for e in client.stream_install_job_events(job["id"])]
    assert events and events[-1] in ("done", "failed")


def test_plan_before_and_after_an_install(client: Client, workspace: dict) -> None:
    body = {"workspaceId": workspace["id"]}
    before = client.plan("app-lakehouse-inspector", body)
    assert before["appId"] == "app-lakehouse-inspector" and before["version"]
    live = [i for i in before["items"] if i["action"] != "stored"]
    # The suite's tests share one sandbox platform workspace: another test may have created these items already.
    assert live and all(i["action"] in ("create", "no-change") for i in live), before
    assert all(i["calls"] for i in live)
    client.install_app("app-lakehouse-inspector", body).wait(interval=0.2, timeout=180)
    after = client.plan("app-lakehouse-inspector", body)
    assert [i["action"] for i in after["items"] if i["action"] != "stored"] == ["no-change"] * len(live), after
    assert all(i.get("resourceId") for i in after["items"] if i["action"] == "no-change")
    with pytest.raises(SvcNotFoundError):
        client.plan("app-no-such-app", body)
    with pytest.raises(SvcBadRequestError):
        client.plan("app-lakehouse-inspector", {"workspaceId": workspace["id"], "targetOverrides": {"kqlDatabase": "x"}})


def test_retry_a_step_and_wait_for_the_job(client: Client, workspace: dict) -> None:
    job = client.install_app("app-lakehouse-inspector", {"workspaceId": workspace["id"]}).wait(interval=0.2, timeout=180)
    step = job["provision"]["steps"][0]
    handle = client.retry_install_step(job["id"], str(step["stepIndex"]))
    assert (handle.job_id, handle["status"], handle["phase"]) == (job["id"], "running", "provisioning")
    assert "provision" not in handle
    retried = handle.wait(interval=0.2, timeout=180)
    assert retried["status"] != "running" and retried["finishedAt"] is not None
    assert [s["stepIndex"] for s in retried["provision"]["steps"]] == [s["stepIndex"] for s in job["provision"]["steps"]]
    events = [e.event for e in client.stream_install_job_events(job["id"])]
    assert events[events.index("step-retried"):] == ["step-retried", "phase", "step", "phase", "done"]
    with pytest.raises(SvcNotFoundError):
        client.retry_install_step(job["id"], "99")


def test_installed_apps_of_a_workspace(client: Client, workspace: dict) -> None:
    assert list(client.list_installed_apps(workspace["id"])) == []
    first = client.install_app("app-pipeline-designer", {"workspaceId": workspace["id"], "deploy": False}).wait(interval=0.2, timeout=180)
    second = client.install_app("app-finops-cost", {"workspaceId": workspace["id"], "deploy": False}).wait(interval=0.2, timeout=180)
    page = client.list_installed_apps(workspace["id"], limit=1)
    assert [a["appId"] for a in page] == ["app-pipeline-designer"] and page.next_cursor
    apps = list(client.iter_installed_apps(workspace["id"], limit=1))
    assert [(a["appId"], a["status"], a["lastJobId"]) for a in apps] == [
        ("app-pipeline-designer", "installed", first["id"]),
        ("app-finops-cost", "installed", second["id"]),
    ]
    app = client.get_installed_app(workspace["id"], "app-finops-cost")
    assert app["version"] == app["catalogVersion"] and app["mode"] == "shared"
    assert [i["itemId"] for i in app["items"]] == [i["id"] for i in second["installed"]]
    assert "ok" not in app
    with pytest.raises(SvcNotFoundError):
        client.get_installed_app(workspace["id"], "app-iot-realtime")
    with pytest.raises(SvcNotFoundError):
        client.list_installed_apps("no-such-workspace")


def test_apply_an_edited_item_and_wait_for_the_job(client: Client, workspace: dict) -> None:
    job = client.install_app("app-lakehouse-inspector", {"workspaceId": workspace["id"]}).wait(interval=0.2, timeout=180)
    assert job["status"] == "done", job
    app = client.get_installed_app(workspace["id"], "app-lakehouse-inspector")
    notebook = next(i for i in app["items"] if i["key"] == "profile-notebook")
    content = client.get_item_content(workspace["id"], notebook["itemId"])
    cells = content["content"]["cells"] + [{"kind": "code", "source": "print('from the Python client')"}]
    client.put_item_content(workspace["id"], notebook["itemId"], {"content": {**content["content"], "cells": cells}}, if_match=content["etag"])
    assert client.get_item(workspace["id"], notebook["itemId"])["liveState"] == "changed"
    handle = client.apply_item(workspace["id"], notebook["itemId"])
    assert (handle["kind"], handle["status"]) == ("apply", "running")
    applied = handle.wait(interval=0.2, timeout=180)
    assert applied["status"] == "done" and applied["steps"][0]["result"]["status"] == "updated", applied
    assert "from the Python client" in applied["steps"][0]["result"]["diff"]
    assert client.get_item(workspace["id"], notebook["itemId"])["liveState"] == "created"
    assert client.wait_for_job(applied["id"], interval=0.2)["id"] == applied["id"]
    assert [j["id"] for j in client.iter_workspace_jobs(workspace["id"], kind="apply")] == [applied["id"]]
    with pytest.raises(SvcNotFoundError):
        client.get_job("no-such-job")


def test_drift_upgrade_guard_and_uninstall_through_the_client(client: Client, workspace: dict) -> None:
    job = client.install_app("app-pipeline-designer", {"workspaceId": workspace["id"]}).wait(interval=0.2, timeout=180)
    assert job["status"] == "done", job
    drift = client.check_drift(workspace["id"]).wait(interval=0.2, timeout=180)
    assert drift["kind"] == "drift" and drift["status"] == "done", drift
    last = client.last_drift(workspace["id"])
    assert last["job"]["id"] == drift["id"] and [i["status"] for i in last["items"] if i["status"] != "in-sync"] == [], [(i["key"], i["status"], i.get("diff", "")[:3000], i.get("message")) for i in last["items"]]
    with pytest.raises(SvcConflictError):
        client.upgrade(workspace["id"], "app-pipeline-designer")  # the installed version is the catalog's
    with pytest.raises(SvcConflictError):
        client.delete_workspace(workspace["id"])  # installed apps: uninstall them first, or force
    plan = client.plan("app-pipeline-designer", {"workspaceId": workspace["id"], "operation": "uninstall"})
    assert {i["action"] for i in plan["items"]} <= {"delete", "keep"}
    gone = client.uninstall(workspace["id"], "app-pipeline-designer").wait(interval=0.2, timeout=180)
    assert gone["kind"] == "uninstall" and gone["status"] == "done", gone
    with pytest.raises(SvcNotFoundError):
        client.get_installed_app(workspace["id"], "app-pipeline-designer")
    scratch = client.create_item(workspace["id"], {"itemType": "notebook", "displayName": "Scratch", "content": {"language": "python", "cells": [{"kind": "code", "source": "print(1)"}]}, "deploy": True})
    client.wait_for_job(scratch["provisioning"]["jobId"], interval=0.2)
    deleted = client.delete_item_live(workspace["id"], scratch["id"]).wait(interval=0.2, timeout=180)
    assert deleted["steps"][0]["result"]["status"] == "deleted", deleted


def test_unknown_install_job_and_app_raise_not_found(client: Client, workspace: dict) -> None:
    with pytest.raises(SvcNotFoundError):
        client.get_install_job("no-such-job")
    with pytest.raises(SvcNotFoundError):
        client.install_app("app-no-such-app", {"workspaceId": workspace["id"]})
    with pytest.raises(SvcNotFoundError):
        client.stream_install_job_events("no-such-job")


def test_async_client(base_url: str, token: str) -> None:
    async def scenario() -> None:
        async with AsyncClient(base_url, token) as c:
            me = await c.whoami()
            assert me["authMethod"] == "token"
            ws = await c.create_workspace({"name": f"async {uuid.uuid4().hex[:6]}"})
            assert await c.list_items(ws["id"]) == []
            await c.create_item(ws["id"], {"itemType": "notebook", "displayName": "a"})
            assert [i["displayName"] async for i in c.iter_items(ws["id"], limit=1)] == ["a"]
            handle = await c.install_app("app-data-steward", {"workspaceId": ws["id"], "deploy": False})
            job = await handle.wait(interval=0.2, timeout=120)
            assert job["status"] == "done"
            with pytest.raises(SvcNotFoundError):
                await c.get_workspace("no-such-workspace")
        async with AsyncClient(base_url, REFUSED_TOKEN) as refused:
            with pytest.raises(SvcAuthenticationError):
                await refused.list_workspaces()

    asyncio.run(scenario())


def test_the_deployment_serves_the_document_the_client_was_generated_from(client: Client) -> None:
    import json
    import pathlib

    from svc_client import OPERATIONS

    doc = client.get_open_api_document()
    live = {op["operationId"] for path in doc["paths"].values() for op in path.values() if isinstance(op, dict) and "operationId" in op}
    assert live == set(OPERATIONS)
    committed = json.loads((pathlib.Path(__file__).parents[3] / "openapi" / "openapi.json").read_text())
    assert committed["paths"].keys() == doc["paths"].keys()
    assert client.get_health()["status"] == "ok"
    assert "svc_" in client.get_metrics()


def test_a_live_deployment_gate_raises_svc_gate_error_with_the_hint(client: Client, workspace: dict) -> None:
    """A tenant setting switched off in the sandbox's reporting service: the service answers 424 and the client raises."""
    admin = client.get_health()["sandbox"]["admin"]
    assert client.list_paginated_reports(workspace_id=workspace["id"]), "the sandbox seeds paginated reports"
    httpx.put(f"{admin}/_sandbox/switches/reporting.servicePrincipalsEnabled", json={"value": False}).raise_for_status()
    try:
        with pytest.raises(SvcGateError) as caught:
            client.list_paginated_reports(workspace_id=workspace["id"])
    finally:
        httpx.put(f"{admin}/_sandbox/switches/reporting.servicePrincipalsEnabled", json={"value": True}).raise_for_status()
    gate = caught.value
    assert gate.status == 424 and gate.code == "deployment_gate"
    assert "Service principals can use Fabric APIs" in (gate.hint or "")
    assert gate.remediation == gate.hint and gate.reason and gate.link
    assert "PowerBINotAuthorizedException" in gate.message, "the reporting service's text is passed on"


def test_export_a_paginated_report_to_a_pdf_file(client: Client, workspace: dict) -> None:
    """Start an export, poll it, and fetch the file as bytes (the generated method of a binary answer)."""
    report = next(r for r in client.list_paginated_reports(workspace_id=workspace["id"]) if r["name"] == "Sales by Region")
    job = client.start_paginated_report_export(report["id"], {"format": "PDF"}, workspace_id=workspace["id"])
    for _ in range(120):
        if job["status"] in ("Succeeded", "Failed"):
            break
        time.sleep(0.5)
        job = client.get_paginated_report_export(report["id"], job["id"], workspace_id=workspace["id"])
    assert job["status"] == "Succeeded"
    data = client.get_paginated_report_export_file(report["id"], job["id"], workspace_id=workspace["id"])
    assert isinstance(data, bytes) and data.startswith(b"%PDF-")
    csv = client.export_paginated_report(report["id"], {"format": "CSV", "parameterValues": [{"name": "Region", "value": "Central"}]}, workspace_id=workspace["id"])
    assert b"Chicago" in csv and b"Seattle" not in csv, "the helper waits for the export and the parameter applies"


def test_audit_events_after_creating_and_deleting_a_workspace(client: Client) -> None:
    ws = client.create_workspace({"name": f"py audit {uuid.uuid4().hex[:8]}"})
    client.delete_workspace(ws["id"])
    events = client.list_audit_events(workspace_id=ws["id"])
    assert [(e["kind"], e["outcome"], e["target"]["id"]) for e in events] == [
        ("workspace.deleted", "succeeded", ws["id"]),
        ("workspace.created", "succeeded", ws["id"]),
    ]
    me = client.whoami()
    assert all(e["actor"]["userId"] == me["userId"] and e["tenantId"] == me["tenantId"] for e in events)
    assert [e["id"] for e in client.iter_audit_events(workspace_id=ws["id"], kind="workspace.*", limit=1)] == [e["id"] for e in events]
    with pytest.raises(SvcBadRequestError):
        client.list_audit_events(kind="not a kind")
