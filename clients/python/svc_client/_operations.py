# Generated from openapi/openapi.json by scripts/gen-clients.ts. Do not edit: run `npm run gen:clients`.
# fmt: off
"""Operations of the Analytics Workspace Service: models, one method per operationId, and the operation table."""
from __future__ import annotations

from typing import Any, AsyncIterator, Dict, Iterator, List, Literal, NotRequired, Optional, TypedDict, Union

from ._core import AsyncCore, Operation, Page, ServerSentEvent, SyncCore

API_VERSION = "1.0.0"

# Models

ApiToken = TypedDict("ApiToken", {
    "createdAt": "str",
    "expiresAt": "str",
    "id": "str",
    "lastUsedAt": "Union[str, None]",
    "name": "str",
    "scopes": "List[str]",
    "userId": "str",
})

AppSummary = TypedDict("AppSummary", {
    "description": "str",
    "displayName": "str",
    "id": "str",
    "liveItems": "int",
    "liveTypes": "List[str]",
    "storedItems": "int",
    "storedTypes": "List[str]",
    "summary": "str",
    "totalItems": "int",
    "version": "str",
})

ErrorEnvelopeErrorGate = TypedDict("ErrorEnvelopeErrorGate", {
    "link": "str",
    "reason": "str",
    "remediation": "str",
})
ErrorEnvelopeErrorGate.__doc__ = "a deployment gate: the setting an admin must fix"

ErrorEnvelopeError = TypedDict("ErrorEnvelopeError", {
    "code": "str",
    "field": NotRequired["str"],
    "gate": NotRequired["ErrorEnvelopeErrorGate"],
    "hint": NotRequired["str"],
    "message": "str",
})

ErrorEnvelope = TypedDict("ErrorEnvelope", {
    "error": "ErrorEnvelopeError",
    "ok": "Literal[False]",
})
ErrorEnvelope.__doc__ = "Every failure: ok false and an error with a code and a message"

InstallJobInstalledItem = TypedDict("InstallJobInstalledItem", {
    "displayName": "str",
    "id": "str",
    "itemType": "str",
    "status": "Literal[\"created\"]",
})

InstallJob = TypedDict("InstallJob", {
    "appId": "str",
    "createdAt": "str",
    "createdItems": "int",
    "deploy": "bool",
    "finishedAt": "Union[str, None]",
    "id": "str",
    "installed": "List[InstallJobInstalledItem]",
    "mode": "Literal[\"shared\", \"dedicated\"]",
    "percentComplete": "int",
    "phase": "Literal[\"creating-items\", \"provisioning\", \"finalizing\", \"done\"]",
    "provision": NotRequired["ProvisionReport"],
    "status": "Literal[\"running\", \"done\", \"partial\", \"failed\"]",
    "totalItems": "int",
    "updatedAt": "str",
    "workspaceId": "str",
})

Item = TypedDict("Item", {
    "appId": "Union[str, None]",
    "contentSource": "str",
    "createdAt": "str",
    "description": "str",
    "displayName": "str",
    "id": "str",
    "itemType": "str",
    "provisioning": "Union[Any, None]",
    "updatedAt": "str",
    "workspaceId": "str",
})

ProvisionReportStepsItem = TypedDict("ProvisionReportStepsItem", {
    "cosmosItemId": "str",
    "displayName": "str",
    "itemType": "str",
    "result": "StepResult",
    "stepIndex": "int",
})

ProvisionReport = TypedDict("ProvisionReport", {
    "mode": "Literal[\"shared\", \"dedicated\"]",
    "outcome": "Literal[\"all-created\", \"partial\", \"all-remediation\", \"skipped\"]",
    "steps": "List[ProvisionReportStepsItem]",
    "target": "Dict[str, str]",
})

RemediationGate = TypedDict("RemediationGate", {
    "link": "str",
    "reason": "str",
    "remediation": "str",
})

StepResult = TypedDict("StepResult", {
    "diagnosis": NotRequired["str"],
    "error": NotRequired["str"],
    "gate": NotRequired["RemediationGate"],
    "resourceId": NotRequired["str"],
    "secondaryIds": NotRequired["Dict[str, str]"],
    "status": "Literal[\"created\", \"exists\", \"skipped\", \"remediation\", \"failed\"]",
    "steps": "List[str]",
})

ThreadEdge = TypedDict("ThreadEdge", {
    "createdAt": "str",
    "fromItemId": "str",
    "id": "str",
    "kind": "str",
    "source": "str",
    "toItemId": "str",
})

Workspace = TypedDict("Workspace", {
    "createdAt": "str",
    "description": "str",
    "id": "str",
    "name": "str",
    "platformWorkspaceId": "Union[str, None]",
    "updatedAt": "str",
})

CreateItemBody = TypedDict("CreateItemBody", {
    "content": NotRequired["Any"],
    "description": NotRequired["str"],
    "displayName": "str",
    "itemType": "str",
})

CreateSessionBody = TypedDict("CreateSessionBody", {
    "token": "str",
})

CreateSessionResult = TypedDict("CreateSessionResult", {
    "csrfToken": "str",
    "expiresAt": "str",
    "tenantId": "str",
    "userName": "str",
})

CreateThreadEdgeBody = TypedDict("CreateThreadEdgeBody", {
    "fromItemId": "str",
    "kind": "Literal[\"feeds\", \"reads-from\", \"visualizes\", \"triggers-on\", \"runs\"]",
    "toItemId": "str",
})

CreateTokenBody = TypedDict("CreateTokenBody", {
    "expiresInDays": NotRequired["int"],
    "name": "str",
    "scopes": "List[Literal[\"read\", \"write\", \"install\", \"reports\", \"tokens\", \"admin\"]]",
})

CreateTokenResult = TypedDict("CreateTokenResult", {
    "secret": "str",
    "token": "ApiToken",
})

CreateWorkspaceBody = TypedDict("CreateWorkspaceBody", {
    "description": NotRequired["str"],
    "name": "str",
})

DeleteSessionResult = TypedDict("DeleteSessionResult", {})

GetAppResultEdgesItem = TypedDict("GetAppResultEdgesItem", {
    "from": "str",
    "kind": "str",
    "to": "str",
})

GetAppResultItemsItem = TypedDict("GetAppResultItemsItem", {
    "action": "str",
    "backing": NotRequired["str"],
    "displayName": "str",
    "itemType": "str",
    "key": "str",
    "provisioning": "Literal[\"live\", \"stored\"]",
})

GetAppResult = TypedDict("GetAppResult", {
    "description": "str",
    "displayName": "str",
    "edges": "List[GetAppResultEdgesItem]",
    "id": "str",
    "items": "List[GetAppResultItemsItem]",
    "liveItems": "int",
    "liveTypes": "List[str]",
    "storedItems": "int",
    "storedTypes": "List[str]",
    "summary": "str",
    "totalItems": "int",
    "version": "str",
})

GetHealthResultSandbox = TypedDict("GetHealthResultSandbox", {
    "admin": "str",
})

GetHealthResult = TypedDict("GetHealthResult", {
    "cloud": NotRequired["str"],
    "sandbox": NotRequired["GetHealthResultSandbox"],
    "status": "Literal[\"ok\"]",
    "store": "str",
    "version": "str",
})

GetItemContentResult = TypedDict("GetItemContentResult", {
    "content": "Any",
    "etag": "str",
})

GetOpenApiDocumentResult = TypedDict("GetOpenApiDocumentResult", {
    "openapi": "str",
})

InstallAppBodyTargetOverrides = TypedDict("InstallAppBodyTargetOverrides", {
    "kqlClusterUri": NotRequired["str"],
    "kqlDatabase": NotRequired["str"],
    "lakeAccount": NotRequired["str"],
    "lakeContainer": NotRequired["str"],
    "platformWorkspaceId": NotRequired["str"],
    "searchService": NotRequired["str"],
    "warehouseDatabase": NotRequired["str"],
    "warehouseServer": NotRequired["str"],
    "warehouseWorkspace": NotRequired["str"],
})
InstallAppBodyTargetOverrides.__doc__ = "dedicated mode only; every address must be under the cloud’s allowed DNS suffixes"

InstallAppBody = TypedDict("InstallAppBody", {
    "deploy": NotRequired["bool"],
    "mode": NotRequired["Literal[\"shared\", \"dedicated\"]"],
    "targetOverrides": NotRequired["InstallAppBodyTargetOverrides"],
    "workspaceId": "str",
})

InstallAppResult = TypedDict("InstallAppResult", {
    "jobId": "str",
    "totalItems": "int",
})

ListItemTypesResultItem = TypedDict("ListItemTypesResultItem", {
    "backing": NotRequired["str"],
    "description": "str",
    "displayName": "str",
    "id": "str",
    "provisionedLive": "bool",
    "provisioning": "Literal[\"live\", \"stored\"]",
})

PutItemContentBody = TypedDict("PutItemContentBody", {
    "content": "Any",
})

UpdateItemBody = TypedDict("UpdateItemBody", {
    "description": NotRequired["str"],
    "displayName": NotRequired["str"],
})

UpdateWorkspaceBody = TypedDict("UpdateWorkspaceBody", {
    "description": NotRequired["str"],
    "name": NotRequired["str"],
    "platformWorkspaceId": NotRequired["Union[str, None]"],
})

WhoamiResult = TypedDict("WhoamiResult", {
    "authMethod": "Literal[\"token\", \"session\"]",
    "csrfToken": NotRequired["str"],
    "scopes": "List[str]",
    "tenantId": "str",
    "tokenId": "Union[str, None]",
    "userId": "str",
    "userName": "str",
})

# The operation table: operationId → (method, path, Python method, pager, kind, envelope, unwrapped key, paged).
OPERATIONS: Dict[str, Operation] = {
    "createItem": Operation("createItem", "POST", "/api/workspaces/{workspaceId}/items", "create_item", None, "json", True, "item", False),
    "createSession": Operation("createSession", "POST", "/api/session", "create_session", None, "json", True, None, False),
    "createThreadEdge": Operation("createThreadEdge", "POST", "/api/workspaces/{workspaceId}/thread/edges", "create_thread_edge", None, "json", True, "edge", False),
    "createToken": Operation("createToken", "POST", "/api/tokens", "create_token", None, "json", True, None, False),
    "createWorkspace": Operation("createWorkspace", "POST", "/api/workspaces", "create_workspace", None, "json", True, "workspace", False),
    "deleteItem": Operation("deleteItem", "DELETE", "/api/workspaces/{workspaceId}/items/{itemId}", "delete_item", None, "json", True, "deleted", False),
    "deleteSession": Operation("deleteSession", "DELETE", "/api/session", "delete_session", None, "json", True, None, False),
    "deleteThreadEdge": Operation("deleteThreadEdge", "DELETE", "/api/workspaces/{workspaceId}/thread/edges/{edgeId}", "delete_thread_edge", None, "json", True, "deleted", False),
    "deleteWorkspace": Operation("deleteWorkspace", "DELETE", "/api/workspaces/{workspaceId}", "delete_workspace", None, "json", True, "deleted", False),
    "getApp": Operation("getApp", "GET", "/api/apps/{appId}", "get_app", None, "json", True, "app", False),
    "getHealth": Operation("getHealth", "GET", "/api/health", "get_health", None, "json", True, None, False),
    "getInstallJob": Operation("getInstallJob", "GET", "/api/apps/install-jobs/{jobId}", "get_install_job", None, "json", True, "job", False),
    "getItem": Operation("getItem", "GET", "/api/workspaces/{workspaceId}/items/{itemId}", "get_item", None, "json", True, "item", False),
    "getItemContent": Operation("getItemContent", "GET", "/api/workspaces/{workspaceId}/items/{itemId}/content", "get_item_content", None, "json", True, None, False),
    "getMetrics": Operation("getMetrics", "GET", "/metrics", "get_metrics", None, "text", False, None, False),
    "getOpenApiDocument": Operation("getOpenApiDocument", "GET", "/api/openapi.json", "get_open_api_document", None, "json", False, None, False),
    "getWorkspace": Operation("getWorkspace", "GET", "/api/workspaces/{workspaceId}", "get_workspace", None, "json", True, "workspace", False),
    "installApp": Operation("installApp", "POST", "/api/apps/{appId}/install", "install_app", None, "json", True, None, False),
    "listApps": Operation("listApps", "GET", "/api/apps", "list_apps", None, "json", True, "apps", False),
    "listInstallJobs": Operation("listInstallJobs", "GET", "/api/apps/install-jobs", "list_install_jobs", "iter_install_jobs", "json", True, "jobs", True),
    "listItems": Operation("listItems", "GET", "/api/workspaces/{workspaceId}/items", "list_items", "iter_items", "json", True, "items", True),
    "listItemTypes": Operation("listItemTypes", "GET", "/api/item-types", "list_item_types", None, "json", True, "itemTypes", False),
    "listThreadEdges": Operation("listThreadEdges", "GET", "/api/workspaces/{workspaceId}/thread/edges", "list_thread_edges", None, "json", True, "edges", False),
    "listTokens": Operation("listTokens", "GET", "/api/tokens", "list_tokens", "iter_tokens", "json", True, "tokens", True),
    "listWorkspaces": Operation("listWorkspaces", "GET", "/api/workspaces", "list_workspaces", "iter_workspaces", "json", True, "workspaces", True),
    "putItemContent": Operation("putItemContent", "PUT", "/api/workspaces/{workspaceId}/items/{itemId}/content", "put_item_content", None, "json", True, "etag", False),
    "retryInstallStep": Operation("retryInstallStep", "POST", "/api/apps/install-jobs/{jobId}/steps/{stepIndex}/retry", "retry_install_step", None, "json", True, "job", False),
    "revokeToken": Operation("revokeToken", "DELETE", "/api/tokens/{tokenId}", "revoke_token", None, "json", True, "revoked", False),
    "streamInstallJobEvents": Operation("streamInstallJobEvents", "GET", "/api/apps/install-jobs/{jobId}/events", "stream_install_job_events", None, "sse", False, None, False),
    "updateItem": Operation("updateItem", "PATCH", "/api/workspaces/{workspaceId}/items/{itemId}", "update_item", None, "json", True, "item", False),
    "updateWorkspace": Operation("updateWorkspace", "PATCH", "/api/workspaces/{workspaceId}", "update_workspace", None, "json", True, "workspace", False),
    "whoami": Operation("whoami", "GET", "/api/whoami", "whoami", None, "json", True, None, False),
}


class Operations(SyncCore):
    """Every documented operation, synchronous."""

    OPERATIONS = OPERATIONS

    def create_item(self, workspace_id: str, body: CreateItemBody) -> Item:
        """Create an item in a workspace (POST /api/workspaces/{workspaceId}/items)."""
        return self._call("createItem", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def create_session(self, body: CreateSessionBody) -> CreateSessionResult:
        """Sign in to the console with an API token; sets the session cookie (POST /api/session)."""
        return self._call("createSession", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def create_thread_edge(self, workspace_id: str, body: CreateThreadEdgeBody) -> ThreadEdge:
        """Add a lineage edge between two items of the workspace (POST /api/workspaces/{workspaceId}/thread/edges)."""
        return self._call("createThreadEdge", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def create_token(self, body: CreateTokenBody) -> CreateTokenResult:
        """Create a scoped API token; the secret is shown only in this answer (POST /api/tokens)."""
        return self._call("createToken", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def create_workspace(self, body: CreateWorkspaceBody) -> Workspace:
        """Create a workspace (POST /api/workspaces)."""
        return self._call("createWorkspace", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def delete_item(self, workspace_id: str, item_id: str) -> str:
        """Delete an item (DELETE /api/workspaces/{workspaceId}/items/{itemId})."""
        return self._call("deleteItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def delete_session(self) -> DeleteSessionResult:
        """Sign out: end the console session (DELETE /api/session)."""
        return self._call("deleteSession", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def delete_thread_edge(self, workspace_id: str, edge_id: str) -> str:
        """Remove a lineage edge (DELETE /api/workspaces/{workspaceId}/thread/edges/{edgeId})."""
        return self._call("deleteThreadEdge", {"workspaceId": workspace_id, "edgeId": edge_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def delete_workspace(self, workspace_id: str) -> str:
        """Delete a workspace and its items (DELETE /api/workspaces/{workspaceId})."""
        return self._call("deleteWorkspace", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_app(self, app_id: str) -> GetAppResult:
        """One app: its items, what installing it provisions (live or stored, and where), its thread (GET /api/apps/{appId})."""
        return self._call("getApp", {"appId": app_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_health(self) -> GetHealthResult:
        """Liveness, the store, the cloud and (in the sandbox) its admin address (GET /api/health)."""
        return self._call("getHealth", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_install_job(self, job_id: str) -> InstallJob:
        """Poll an install job (every 5 s); provision is present once provisioning completes (GET /api/apps/install-jobs/{jobId})."""
        return self._call("getInstallJob", {"jobId": job_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_item(self, workspace_id: str, item_id: str) -> Item:
        """Read an item (GET /api/workspaces/{workspaceId}/items/{itemId})."""
        return self._call("getItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_item_content(self, workspace_id: str, item_id: str) -> GetItemContentResult:
        """Read an item’s stored content; the ETag header versions it (GET /api/workspaces/{workspaceId}/items/{itemId}/content)."""
        return self._call("getItemContent", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_metrics(self) -> str:
        """Prometheus text metrics (GET /metrics)."""
        return self._call("getMetrics", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_open_api_document(self) -> GetOpenApiDocumentResult:
        """This OpenAPI 3.1 document; servers[0] is this deployment (GET /api/openapi.json)."""
        return self._call("getOpenApiDocument", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_workspace(self, workspace_id: str) -> Workspace:
        """Read a workspace (GET /api/workspaces/{workspaceId})."""
        return self._call("getWorkspace", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def install_app(self, app_id: str, body: InstallAppBody) -> InstallAppResult:
        """Install a curated app into a workspace; answers 202 at once with the job id to poll (POST /api/apps/{appId}/install)."""
        return self._call("installApp", {"appId": app_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def list_apps(self) -> List[AppSummary]:
        """The curated apps (GET /api/apps)."""
        return self._call("listApps", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_install_jobs(self, *, cursor: Optional[str] = None, limit: Optional[Union[int, str]] = None, workspace_id: Optional[str] = None) -> Page[InstallJob]:
        """List install jobs, optionally of one workspace (GET /api/apps/install-jobs)."""
        return self._call("listInstallJobs", {}, query={"cursor": cursor, "limit": limit, "workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_install_jobs(self, *, limit: Optional[Union[int, str]] = None, workspace_id: Optional[str] = None) -> Iterator[InstallJob]:
        """Every entry of list_install_jobs, page after page."""
        return self._paginate("listInstallJobs", {}, query={"limit": limit, "workspaceId": workspace_id})

    def list_items(self, workspace_id: str, *, cursor: Optional[str] = None, limit: Optional[Union[int, str]] = None, item_type: Optional[str] = None) -> Page[Item]:
        """List the items of a workspace (GET /api/workspaces/{workspaceId}/items)."""
        return self._call("listItems", {"workspaceId": workspace_id}, query={"cursor": cursor, "limit": limit, "itemType": item_type}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_items(self, workspace_id: str, *, limit: Optional[Union[int, str]] = None, item_type: Optional[str] = None) -> Iterator[Item]:
        """Every entry of list_items, page after page."""
        return self._paginate("listItems", {"workspaceId": workspace_id}, query={"limit": limit, "itemType": item_type})

    def list_item_types(self) -> List[ListItemTypesResultItem]:
        """Every item type, and whether an install provisions it live (GET /api/item-types)."""
        return self._call("listItemTypes", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_thread_edges(self, workspace_id: str) -> List[ThreadEdge]:
        """The lineage edges of a workspace (GET /api/workspaces/{workspaceId}/thread/edges)."""
        return self._call("listThreadEdges", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_tokens(self, *, cursor: Optional[str] = None, limit: Optional[Union[int, str]] = None) -> Page[ApiToken]:
        """List the tenant’s live API tokens (never their secrets) (GET /api/tokens)."""
        return self._call("listTokens", {}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_tokens(self, *, limit: Optional[Union[int, str]] = None) -> Iterator[ApiToken]:
        """Every entry of list_tokens, page after page."""
        return self._paginate("listTokens", {}, query={"limit": limit})

    def list_workspaces(self, *, cursor: Optional[str] = None, limit: Optional[Union[int, str]] = None) -> Page[Workspace]:
        """List the workspaces of the caller’s tenant (GET /api/workspaces)."""
        return self._call("listWorkspaces", {}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_workspaces(self, *, limit: Optional[Union[int, str]] = None) -> Iterator[Workspace]:
        """Every entry of list_workspaces, page after page."""
        return self._paginate("listWorkspaces", {}, query={"limit": limit})

    def put_item_content(self, workspace_id: str, item_id: str, body: PutItemContentBody, *, if_match: Optional[str] = None) -> str:
        """Save an item’s content; If-Match must carry the ETag read (412 when it is stale) (PUT /api/workspaces/{workspaceId}/items/{itemId}/content)."""
        return self._call("putItemContent", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers={"if-match": if_match}, body=body)  # type: ignore[no-any-return]

    def retry_install_step(self, job_id: str, step_index: str) -> InstallJob:
        """Re-run one provisioning step (after fixing its gate) and recompute the report (POST /api/apps/install-jobs/{jobId}/steps/{stepIndex}/retry)."""
        return self._call("retryInstallStep", {"jobId": job_id, "stepIndex": step_index}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def revoke_token(self, token_id: str) -> str:
        """Revoke a token; effective on the next request (DELETE /api/tokens/{tokenId})."""
        return self._call("revokeToken", {"tokenId": token_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def stream_install_job_events(self, job_id: str, *, last_event_id: Optional[str] = None) -> Iterator[ServerSentEvent]:
        """Server-sent events of a job (phase, item-created, step, done); replays after Last-Event-ID (GET /api/apps/install-jobs/{jobId}/events)."""
        return self._stream("streamInstallJobEvents", {"jobId": job_id}, headers={"last-event-id": last_event_id})

    def update_item(self, workspace_id: str, item_id: str, body: UpdateItemBody) -> Item:
        """Rename or redescribe an item (PATCH /api/workspaces/{workspaceId}/items/{itemId})."""
        return self._call("updateItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def update_workspace(self, workspace_id: str, body: UpdateWorkspaceBody) -> Workspace:
        """Rename a workspace, or bind it to a platform workspace (admin scope) (PATCH /api/workspaces/{workspaceId})."""
        return self._call("updateWorkspace", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def whoami(self) -> WhoamiResult:
        """The current caller: tenant, user, how it authenticated, scopes (GET /api/whoami)."""
        return self._call("whoami", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]


class AsyncOperations(AsyncCore):
    """Every documented operation, asynchronous."""

    OPERATIONS = OPERATIONS

    async def create_item(self, workspace_id: str, body: CreateItemBody) -> Item:
        """Create an item in a workspace (POST /api/workspaces/{workspaceId}/items)."""
        return await self._call("createItem", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def create_session(self, body: CreateSessionBody) -> CreateSessionResult:
        """Sign in to the console with an API token; sets the session cookie (POST /api/session)."""
        return await self._call("createSession", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def create_thread_edge(self, workspace_id: str, body: CreateThreadEdgeBody) -> ThreadEdge:
        """Add a lineage edge between two items of the workspace (POST /api/workspaces/{workspaceId}/thread/edges)."""
        return await self._call("createThreadEdge", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def create_token(self, body: CreateTokenBody) -> CreateTokenResult:
        """Create a scoped API token; the secret is shown only in this answer (POST /api/tokens)."""
        return await self._call("createToken", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def create_workspace(self, body: CreateWorkspaceBody) -> Workspace:
        """Create a workspace (POST /api/workspaces)."""
        return await self._call("createWorkspace", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def delete_item(self, workspace_id: str, item_id: str) -> str:
        """Delete an item (DELETE /api/workspaces/{workspaceId}/items/{itemId})."""
        return await self._call("deleteItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def delete_session(self) -> DeleteSessionResult:
        """Sign out: end the console session (DELETE /api/session)."""
        return await self._call("deleteSession", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def delete_thread_edge(self, workspace_id: str, edge_id: str) -> str:
        """Remove a lineage edge (DELETE /api/workspaces/{workspaceId}/thread/edges/{edgeId})."""
        return await self._call("deleteThreadEdge", {"workspaceId": workspace_id, "edgeId": edge_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def delete_workspace(self, workspace_id: str) -> str:
        """Delete a workspace and its items (DELETE /api/workspaces/{workspaceId})."""
        return await self._call("deleteWorkspace", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_app(self, app_id: str) -> GetAppResult:
        """One app: its items, what installing it provisions (live or stored, and where), its thread (GET /api/apps/{appId})."""
        return await self._call("getApp", {"appId": app_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_health(self) -> GetHealthResult:
        """Liveness, the store, the cloud and (in the sandbox) its admin address (GET /api/health)."""
        return await self._call("getHealth", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_install_job(self, job_id: str) -> InstallJob:
        """Poll an install job (every 5 s); provision is present once provisioning completes (GET /api/apps/install-jobs/{jobId})."""
        return await self._call("getInstallJob", {"jobId": job_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_item(self, workspace_id: str, item_id: str) -> Item:
        """Read an item (GET /api/workspaces/{workspaceId}/items/{itemId})."""
        return await self._call("getItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_item_content(self, workspace_id: str, item_id: str) -> GetItemContentResult:
        """Read an item’s stored content; the ETag header versions it (GET /api/workspaces/{workspaceId}/items/{itemId}/content)."""
        return await self._call("getItemContent", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_metrics(self) -> str:
        """Prometheus text metrics (GET /metrics)."""
        return await self._call("getMetrics", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_open_api_document(self) -> GetOpenApiDocumentResult:
        """This OpenAPI 3.1 document; servers[0] is this deployment (GET /api/openapi.json)."""
        return await self._call("getOpenApiDocument", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_workspace(self, workspace_id: str) -> Workspace:
        """Read a workspace (GET /api/workspaces/{workspaceId})."""
        return await self._call("getWorkspace", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def install_app(self, app_id: str, body: InstallAppBody) -> InstallAppResult:
        """Install a curated app into a workspace; answers 202 at once with the job id to poll (POST /api/apps/{appId}/install)."""
        return await self._call("installApp", {"appId": app_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def list_apps(self) -> List[AppSummary]:
        """The curated apps (GET /api/apps)."""
        return await self._call("listApps", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_install_jobs(self, *, cursor: Optional[str] = None, limit: Optional[Union[int, str]] = None, workspace_id: Optional[str] = None) -> Page[InstallJob]:
        """List install jobs, optionally of one workspace (GET /api/apps/install-jobs)."""
        return await self._call("listInstallJobs", {}, query={"cursor": cursor, "limit": limit, "workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_install_jobs(self, *, limit: Optional[Union[int, str]] = None, workspace_id: Optional[str] = None) -> AsyncIterator[InstallJob]:
        """Every entry of list_install_jobs, page after page."""
        return self._paginate("listInstallJobs", {}, query={"limit": limit, "workspaceId": workspace_id})

    async def list_items(self, workspace_id: str, *, cursor: Optional[str] = None, limit: Optional[Union[int, str]] = None, item_type: Optional[str] = None) -> Page[Item]:
        """List the items of a workspace (GET /api/workspaces/{workspaceId}/items)."""
        return await self._call("listItems", {"workspaceId": workspace_id}, query={"cursor": cursor, "limit": limit, "itemType": item_type}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_items(self, workspace_id: str, *, limit: Optional[Union[int, str]] = None, item_type: Optional[str] = None) -> AsyncIterator[Item]:
        """Every entry of list_items, page after page."""
        return self._paginate("listItems", {"workspaceId": workspace_id}, query={"limit": limit, "itemType": item_type})

    async def list_item_types(self) -> List[ListItemTypesResultItem]:
        """Every item type, and whether an install provisions it live (GET /api/item-types)."""
        return await self._call("listItemTypes", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_thread_edges(self, workspace_id: str) -> List[ThreadEdge]:
        """The lineage edges of a workspace (GET /api/workspaces/{workspaceId}/thread/edges)."""
        return await self._call("listThreadEdges", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_tokens(self, *, cursor: Optional[str] = None, limit: Optional[Union[int, str]] = None) -> Page[ApiToken]:
        """List the tenant’s live API tokens (never their secrets) (GET /api/tokens)."""
        return await self._call("listTokens", {}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_tokens(self, *, limit: Optional[Union[int, str]] = None) -> AsyncIterator[ApiToken]:
        """Every entry of list_tokens, page after page."""
        return self._paginate("listTokens", {}, query={"limit": limit})

    async def list_workspaces(self, *, cursor: Optional[str] = None, limit: Optional[Union[int, str]] = None) -> Page[Workspace]:
        """List the workspaces of the caller’s tenant (GET /api/workspaces)."""
        return await self._call("listWorkspaces", {}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_workspaces(self, *, limit: Optional[Union[int, str]] = None) -> AsyncIterator[Workspace]:
        """Every entry of list_workspaces, page after page."""
        return self._paginate("listWorkspaces", {}, query={"limit": limit})

    async def put_item_content(self, workspace_id: str, item_id: str, body: PutItemContentBody, *, if_match: Optional[str] = None) -> str:
        """Save an item’s content; If-Match must carry the ETag read (412 when it is stale) (PUT /api/workspaces/{workspaceId}/items/{itemId}/content)."""
        return await self._call("putItemContent", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers={"if-match": if_match}, body=body)  # type: ignore[no-any-return]

    async def retry_install_step(self, job_id: str, step_index: str) -> InstallJob:
        """Re-run one provisioning step (after fixing its gate) and recompute the report (POST /api/apps/install-jobs/{jobId}/steps/{stepIndex}/retry)."""
        return await self._call("retryInstallStep", {"jobId": job_id, "stepIndex": step_index}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def revoke_token(self, token_id: str) -> str:
        """Revoke a token; effective on the next request (DELETE /api/tokens/{tokenId})."""
        return await self._call("revokeToken", {"tokenId": token_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def stream_install_job_events(self, job_id: str, *, last_event_id: Optional[str] = None) -> AsyncIterator[ServerSentEvent]:
        """Server-sent events of a job (phase, item-created, step, done); replays after Last-Event-ID (GET /api/apps/install-jobs/{jobId}/events)."""
        return await self._stream("streamInstallJobEvents", {"jobId": job_id}, headers={"last-event-id": last_event_id})

    async def update_item(self, workspace_id: str, item_id: str, body: UpdateItemBody) -> Item:
        """Rename or redescribe an item (PATCH /api/workspaces/{workspaceId}/items/{itemId})."""
        return await self._call("updateItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def update_workspace(self, workspace_id: str, body: UpdateWorkspaceBody) -> Workspace:
        """Rename a workspace, or bind it to a platform workspace (admin scope) (PATCH /api/workspaces/{workspaceId})."""
        return await self._call("updateWorkspace", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def whoami(self) -> WhoamiResult:
        """The current caller: tenant, user, how it authenticated, scopes (GET /api/whoami)."""
        return await self._call("whoami", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]
