"""The hand-written core under the generated operations: configuration, requests over httpx, results and errors."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, AsyncIterator, Dict, Generic, Iterable, Iterator, List, Mapping, NamedTuple, Optional, TypeVar, Union
from urllib.parse import quote

import httpx

from .errors import SvcConfigError, SvcConnectionError, SvcProtocolError, SvcTimeoutError, error_from_response

T = TypeVar("T")
DEFAULT_TIMEOUT = 30.0
USER_AGENT = "svc-client-python/0.1.0"


class Operation(NamedTuple):
    """One row of the operation table."""

    operation_id: str
    method: str
    path: str
    name: str
    pager: Optional[str]
    kind: str  # json, text, binary (a file: the result is its bytes), sse or redirect (a browser step: the result is the Location it redirects to)
    envelope: bool  # the body is {ok: true, ...}
    unwrap: Optional[str]  # the one payload key the method returns
    paged: bool  # the payload is a list with nextCursor


class Page(List[T], Generic[T]):
    """One page of a list; `next_cursor` is None on the last page."""

    def __init__(self, entries: Iterable[T] = (), next_cursor: Optional[str] = None) -> None:
        super().__init__(entries)
        self.next_cursor = next_cursor


@dataclass(frozen=True)
class ServerSentEvent:
    """One event of a stream: its id, kind and JSON data."""

    id: Optional[str]
    event: str
    data: Any


def _resolve_base_url(base_url: Optional[str]) -> str:
    url = base_url or os.environ.get("SVC_BASE_URL")
    if not url:
        raise SvcConfigError("No deployment address: pass it as the first argument or set SVC_BASE_URL")
    if not url.startswith(("http://", "https://")):
        raise SvcConfigError(f"The deployment address must start with http:// or https://, got {url!r}")
    return url.rstrip("/")


def _auth_headers(token: Optional[str], headers: Optional[Mapping[str, str]]) -> Dict[str, str]:
    out = {"user-agent": USER_AGENT, "accept": "application/json"}
    if token:
        out["authorization"] = f"Bearer {token}"
    out.update(headers or {})
    return out


def _query(query: Optional[Mapping[str, Any]]) -> Dict[str, str]:
    return {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in (query or {}).items() if v is not None}


def _headers(headers: Optional[Mapping[str, Any]]) -> Dict[str, str]:
    return {k: str(v) for k, v in (headers or {}).items() if v is not None}


def _path(op: Operation, params: Mapping[str, Any]) -> str:
    path = op.path
    for name, value in params.items():
        if value is None or str(value) == "":
            raise ValueError(f"{op.name}: {name} is required")
        path = path.replace("{" + name + "}", quote(str(value), safe=""))
    return path


def _result(op: Operation, response: httpx.Response) -> Any:
    """The method's result from a 2xx answer (a redirect's Location for kind redirect); anything else raises."""
    if op.kind == "redirect" and response.is_redirect:
        return response.headers["location"]
    if not response.is_success:
        raise error_from_response(response)
    if op.kind == "text":
        return response.text
    if op.kind == "binary":
        return response.content
    try:
        body = response.json()
    except ValueError as err:
        raise SvcProtocolError(f"{op.operation_id}: the answer is not JSON ({response.status_code})") from err
    if not op.envelope:
        if not isinstance(body, dict):
            raise SvcProtocolError(f"{op.operation_id}: expected a JSON object")
        return body
    if not isinstance(body, dict) or body.get("ok") is not True:
        raise SvcProtocolError(f"{op.operation_id}: the answer is not a success envelope")
    if op.unwrap is None:
        return {k: v for k, v in body.items() if k != "ok"}
    if body.get(op.unwrap) is None:
        # An operation with two successes answers one payload key each (a delete: 200 `deleted`, or 202 `job`).
        rest = [k for k in body if k != "ok"]
        if len(rest) == 1 and not op.paged:
            return body[rest[0]]
        raise SvcProtocolError(f"{op.operation_id}: the answer has no {op.unwrap!r}")
    if op.paged:
        return Page(body[op.unwrap], body.get("nextCursor"))
    return body[op.unwrap]


def _parse_sse(lines: Iterable[str]) -> Iterator[ServerSentEvent]:
    event_id: Optional[str] = None
    kind = "message"
    data: List[str] = []
    for line in lines:
        if line == "":
            if data:
                text = "\n".join(data)
                try:
                    value: Any = json.loads(text)
                except ValueError:
                    value = text
                yield ServerSentEvent(event_id, kind, value)
            kind, data = "message", []
            continue
        field, _, value_text = line.partition(":")
        value_text = value_text[1:] if value_text.startswith(" ") else value_text
        if field == "id":
            event_id = value_text
        elif field == "event":
            kind = value_text
        elif field == "data":
            data.append(value_text)


class _Base:
    OPERATIONS: Dict[str, Operation] = {}

    def _settings(
        self,
        base_url: Optional[str],
        token: Optional[str],
        timeout: Union[float, httpx.Timeout, None],
        headers: Optional[Mapping[str, str]],
    ) -> Dict[str, Any]:
        self.base_url = _resolve_base_url(base_url)
        self.token = token if token is not None else os.environ.get("SVC_TOKEN")
        return {
            "base_url": self.base_url,
            "headers": _auth_headers(self.token, headers),
            "timeout": timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout if timeout is not None else DEFAULT_TIMEOUT),
        }

    def _op(self, operation_id: str) -> Operation:
        return self.OPERATIONS[operation_id]


class SyncCore(_Base):
    """Synchronous core: `Client(base_url=None, token=None, *, timeout=30.0, headers=None, transport=None)`."""

    def __init__(
        self,
        base_url: Optional[str] = None,
        token: Optional[str] = None,
        *,
        timeout: Union[float, httpx.Timeout, None] = DEFAULT_TIMEOUT,
        headers: Optional[Mapping[str, str]] = None,
        transport: Optional[httpx.BaseTransport] = None,
    ) -> None:
        self._http = httpx.Client(transport=transport, **self._settings(base_url, token, timeout, headers))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "SyncCore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(self, op: Operation, path_params: Mapping[str, Any], query: Any, headers: Any, body: Any, stream: bool = False) -> httpx.Response:
        request = self._http.build_request(
            op.method, _path(op, path_params), params=_query(query), headers=_headers(headers), json=body if body is not None else None
        )
        try:
            return self._http.send(request, stream=stream)
        except httpx.TimeoutException as err:
            raise SvcTimeoutError(f"{op.operation_id}: timed out: {err}") from err
        except httpx.TransportError as err:
            raise SvcConnectionError(f"{op.operation_id}: cannot reach {self.base_url}: {err}") from err

    def _call(self, operation_id: str, path_params: Mapping[str, Any], *, query: Any = None, headers: Any = None, body: Any = None) -> Any:
        op = self._op(operation_id)
        return _result(op, self._send(op, path_params, query, headers, body))

    def _paginate(self, operation_id: str, path_params: Mapping[str, Any], *, query: Any = None) -> Iterator[Any]:
        cursor: Optional[str] = None
        while True:
            page = self._call(operation_id, path_params, query={**(query or {}), "cursor": cursor})
            yield from page
            cursor = page.next_cursor
            if not cursor:
                return

    def _stream(self, operation_id: str, path_params: Mapping[str, Any], *, headers: Any = None) -> Iterator[ServerSentEvent]:
        op = self._op(operation_id)
        response = self._send(op, path_params, None, {"accept": "text/event-stream", **(headers or {})}, None, stream=True)
        if not response.is_success:
            response.read()
            raise error_from_response(response)

        def events() -> Iterator[ServerSentEvent]:
            try:
                yield from _parse_sse(response.iter_lines())
            finally:
                response.close()

        return events()


class AsyncCore(_Base):
    """Asynchronous core: `AsyncClient(base_url=None, token=None, *, timeout=30.0, headers=None, transport=None)`."""

    def __init__(
        self,
        base_url: Optional[str] = None,
        token: Optional[str] = None,
        *,
        timeout: Union[float, httpx.Timeout, None] = DEFAULT_TIMEOUT,
        headers: Optional[Mapping[str, str]] = None,
        transport: Optional[httpx.AsyncBaseTransport] = None,
    ) -> None:
        self._http = httpx.AsyncClient(transport=transport, **self._settings(base_url, token, timeout, headers))

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> "AsyncCore":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _send(self, op: Operation, path_params: Mapping[str, Any], query: Any, headers: Any, body: Any, stream: bool = False) -> httpx.Response:
        request = self._http.build_request(
            op.method, _path(op, path_params), params=_query(query), headers=_headers(headers), json=body if body is not None else None
        )
        try:
            return await self._http.send(request, stream=stream)
        except httpx.TimeoutException as err:
            raise SvcTimeoutError(f"{op.operation_id}: timed out: {err}") from err
        except httpx.TransportError as err:
            raise SvcConnectionError(f"{op.operation_id}: cannot reach {self.base_url}: {err}") from err

    async def _call(self, operation_id: str, path_params: Mapping[str, Any], *, query: Any = None, headers: Any = None, body: Any = None) -> Any:
        op = self._op(operation_id)
        return _result(op, await self._send(op, path_params, query, headers, body))

    async def _paginate(self, operation_id: str, path_params: Mapping[str, Any], *, query: Any = None) -> AsyncIterator[Any]:
        cursor: Optional[str] = None
        while True:
            page = await self._call(operation_id, path_params, query={**(query or {}), "cursor": cursor})
            for entry in page:
                yield entry
            cursor = page.next_cursor
            if not cursor:
                return

    async def _stream(self, operation_id: str, path_params: Mapping[str, Any], *, headers: Any = None) -> AsyncIterator[ServerSentEvent]:
        op = self._op(operation_id)
        response = await self._send(op, path_params, None, {"accept": "text/event-stream", **(headers or {})}, None, stream=True)
        if not response.is_success:
            await response.aread()
            raise error_from_response(response)

        async def events() -> AsyncIterator[ServerSentEvent]:
            try:
                buffer: List[str] = []
                async for line in response.aiter_lines():
                    buffer.append(line)
                    if line == "":
                        for event in _parse_sse(buffer):
                            yield event
                        buffer = []
            finally:
                await response.aclose()

        return events()
