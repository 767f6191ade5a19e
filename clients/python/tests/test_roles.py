"""Workspace roles through the Python client: a second user signs in through the service's sandbox identity provider."""
import html
import re
import uuid

import httpx
import pytest

from svc_client import Client, SvcForbiddenError, SvcNotFoundError


def sign_in_and_mint(base_url: str, user: str) -> str:
    """Signs `user` in as a browser would (the sandbox's sign-in page) and mints a token with the session."""
    with httpx.Client(base_url=base_url, follow_redirects=False, timeout=30) as http:
        login = http.get("/api/auth/login", params={"returnTo": "/"})
        assert login.status_code == 302, login.text
        authorize = login.headers["location"]
        page = httpx.get(authorize, timeout=30).text
        form = {name: html.unescape(value) for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page)}
        account = re.search(rf'<button name="user" value="([^"]+)" data-upn="{user}@', page)
        assert account, f"the sign-in page offers {user}"
        form["user"] = account.group(1)
        picked = httpx.post(authorize, data=form, follow_redirects=False, timeout=30)
        assert picked.status_code == 302, picked.text
        back = http.get(picked.headers["location"])  # the client keeps the state cookie, then the session's
        assert back.status_code == 302, back.text
        me = http.get("/api/whoami").json()
        assert me["authMethod"] == "session"
        minted = http.post("/api/tokens", json={"name": "pytest roles", "scopes": ["read", "write"]}, headers={"x-csrf-token": me["csrfToken"]})
        assert minted.status_code == 201, minted.text
        return minted.json()["secret"]


def test_an_admin_adds_a_viewer_who_reads_but_cannot_create_then_removes_it(base_url: str, client: Client) -> None:
    workspace = client.create_workspace({"name": f"pytest roles {uuid.uuid4().hex[:8]}"})
    viewer = Client(base_url, sign_in_and_mint(base_url, "ari"), timeout=30)
    viewer_id = viewer.whoami()["userId"]
    with pytest.raises(SvcNotFoundError):
        viewer.get_workspace(workspace["id"])

    assert any(p["id"] == viewer_id and p["type"] == "User" for p in client.search_principals(search="ari"))
    added = client.add_role_assignment(workspace["id"], {"principal": {"type": "User", "id": viewer_id}, "role": "Viewer"})
    assert added["role"] == "Viewer" and added["principal"]["id"] == viewer_id and added["workspaceId"] == workspace["id"]

    listed = [w for w in viewer.list_workspaces(limit=200) if w["id"] == workspace["id"]]
    assert [(w["role"], w["roleSource"]) for w in listed] == [("Viewer", "user")]
    with pytest.raises(SvcForbiddenError) as refused:
        viewer.create_item(workspace["id"], {"itemType": "notebook", "displayName": "not allowed"})
    assert refused.value.code == "workspace_role_required"
    assert "needs the Contributor role" in refused.value.message
    assert viewer.list_items(workspace["id"]) == []

    assert client.remove_role_assignment(workspace["id"], added["id"]) is True
    assert [a["role"] for a in client.list_role_assignments(workspace["id"])] == ["Admin"]
    with pytest.raises(SvcNotFoundError):
        viewer.get_workspace(workspace["id"])
    viewer.close()
    client.delete_workspace(workspace["id"])
