"""Python client of the Analytics Workspace Service."""
from ._core import Operation, Page, ServerSentEvent
from ._operations import API_VERSION, OPERATIONS
from .client import AsyncClient, AsyncInstallJobHandle, AsyncJobHandle, Client, InstallJobHandle, JobHandle, connect
from .errors import (
    SvcApiError,
    SvcAuthenticationError,
    SvcBadRequestError,
    SvcConfigError,
    SvcConflictError,
    SvcConnectionError,
    SvcError,
    SvcForbiddenError,
    SvcGateError,
    SvcNotFoundError,
    SvcProtocolError,
    SvcRateLimitError,
    SvcServerError,
    SvcTimeoutError,
)

__version__ = "0.1.0"

__all__ = [
    "API_VERSION",
    "OPERATIONS",
    "AsyncClient",
    "AsyncInstallJobHandle",
    "AsyncJobHandle",
    "Client",
    "InstallJobHandle",
    "JobHandle",
    "Operation",
    "Page",
    "ServerSentEvent",
    "SvcApiError",
    "SvcAuthenticationError",
    "SvcBadRequestError",
    "SvcConfigError",
    "SvcConflictError",
    "SvcConnectionError",
    "SvcError",
    "SvcForbiddenError",
    "SvcGateError",
    "SvcNotFoundError",
    "SvcProtocolError",
    "SvcRateLimitError",
    "SvcServerError",
    "SvcTimeoutError",
    "connect",
]
