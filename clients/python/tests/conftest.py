"""Live tests run against the service that scripts/test-clients.mjs starts (SVC_BASE_URL, SVC_TOKEN)."""
import os
import uuid

import pytest

from svc_client import Client


@pytest.fixture(scope="session")
def base_url() -> str:
    url = os.environ.get("SVC_BASE_URL")
    if not url:
        pytest.fail("SVC_BASE_URL is not set: run the suite through `npm run test:clients`")
    return url


@pytest.fixture(scope="session")
def token() -> str:
    value = os.environ.get("SVC_TOKEN")
    if not value:
        pytest.fail("SVC_TOKEN is not set: run the suite through `npm run test:clients`")
    return value


@pytest.fixture()
def client(base_url: str, token: str):
    with Client(base_url, token, timeout=30) as c:
        yield c


@pytest.fixture()
def workspace(client: Client):
    ws = client.create_workspace({"name": f"pytest {uuid.uuid4().hex[:8]}"})
    yield ws
    try:
        client.delete_workspace(ws["id"])
    except Exception:  # a running install may hold it; the service's data dir is thrown away anyway
        pass
