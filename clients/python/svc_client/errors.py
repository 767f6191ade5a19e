"""Typed errors: every refused or failed call raises one of these; none returns None or an empty result."""
from __future__ import annotations

from typing import Any, Dict, Optional, Type

import httpx


class SvcError(Exception):
    """Base of every error the client raises."""


class SvcConfigError(SvcError):
    """The client was built without a deployment address (argument or SVC_BASE_URL)."""


class SvcConnectionError(SvcError):
    """The deployment could not be reached."""


class SvcTimeoutError(SvcError):
    """A request, or a wait for an install job, took longer than allowed."""

    def __init__(self, message: str, last: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.last = last


class SvcProtocolError(SvcError):
    """A success status whose body is not the service's success envelope."""


class SvcApiError(SvcError):
    """The service answered with an error envelope: HTTP status, stable code, message, and hint when given."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        hint: Optional[str] = None,
        field: Optional[str] = None,
        request_id: Optional[str] = None,
        body: Any = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}" + (f" (hint: {hint})" if hint else ""))
        self.status = status
        self.code = code
        self.message = message
        self.hint = hint
        self.field = field
        self.request_id = request_id
        self.body = body


class SvcBadRequestError(SvcApiError):
    """400: invalid input; `field` names it."""


class SvcAuthenticationError(SvcApiError):
    """401: no credentials, or a token that is not valid (revoked, expired, malformed)."""


class SvcForbiddenError(SvcApiError):
    """403: the token lacks the scope the operation needs (or a console session lacks its CSRF token)."""


class SvcNotFoundError(SvcApiError):
    """404: unknown id, or one of another tenant."""


class SvcConflictError(SvcApiError):
    """409: conflicts with existing state."""


class SvcGateError(SvcApiError):
    """424: a deployment gate; `reason`, `remediation` and `link` say what an admin must set."""

    def __init__(self, *args: Any, gate: Optional[Dict[str, str]] = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        gate = gate or {}
        self.gate = gate
        self.reason: Optional[str] = gate.get("reason")
        self.remediation: Optional[str] = gate.get("remediation") or self.hint
        self.link: Optional[str] = gate.get("link")
        if self.hint is None:
            self.hint = self.remediation


class SvcRateLimitError(SvcApiError):
    """429: rate limited; `retry_after` is the wait in seconds the service asked for."""

    def __init__(self, *args: Any, retry_after: Optional[float] = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.retry_after = retry_after


class SvcServerError(SvcApiError):
    """5xx: the service failed; the request id is in `request_id`."""


_BY_STATUS: Dict[int, Type[SvcApiError]] = {
    400: SvcBadRequestError,
    401: SvcAuthenticationError,
    403: SvcForbiddenError,
    404: SvcNotFoundError,
    409: SvcConflictError,
    424: SvcGateError,
    429: SvcRateLimitError,
}


def error_from_response(response: httpx.Response) -> SvcApiError:
    """The typed error for a non-2xx answer, read from the `{ok: false, error: {...}}` envelope."""
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    error = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), dict) else {}
    status = response.status_code
    code = str(error.get("code") or f"http_{status}")
    message = str(error.get("message") or (body if isinstance(body, str) and body else response.reason_phrase or "request failed"))
    cls = _BY_STATUS.get(status, SvcServerError if status >= 500 else SvcApiError)
    kwargs: Dict[str, Any] = {
        "hint": error.get("hint"),
        "field": error.get("field"),
        "request_id": response.headers.get("x-request-id"),
        "body": body,
    }
    if cls is SvcGateError:
        kwargs["gate"] = error.get("gate")
    if cls is SvcRateLimitError:
        raw = response.headers.get("retry-after")
        kwargs["retry_after"] = float(raw) if raw and raw.replace(".", "", 1).isdigit() else None
    return cls(status, code, message, **kwargs)
