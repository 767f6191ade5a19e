"""The clients users build: every generated operation, plus helpers that wait for a job (of any kind) and for a report export."""
from __future__ import annotations

import asyncio
import time
from typing import Any, Dict, Optional

from ._operations import AsyncOperations, InstallAppBody, InstallJob, InstallPlan, Job, Operations, StartPaginatedReportExportBody
from .errors import SvcError, SvcTimeoutError

POLL_INTERVAL = 5.0  # seconds between polls of an install job (SPEC.md: the client polls every 5 s)
WAIT_TIMEOUT = 600.0
EXPORT_POLL_INTERVAL = 1.0  # seconds between polls of a paginated-report export
FINISHED = ("Succeeded", "Failed")


class Client(Operations):
    """Synchronous client: `Client(base_url=None, token=None, *, timeout=30.0)`; base_url falls back to SVC_BASE_URL."""

    def install_app(self, app_id: str, body: InstallAppBody) -> "InstallJobHandle":  # type: ignore[override]
        """Start installing a curated app; `.wait()` on the answer polls the job until it finishes."""
        return InstallJobHandle(self, super().install_app(app_id, body), "jobId")

    def plan(self, app_id: str, body: InstallAppBody) -> InstallPlan:
        """What installing the app with this install body would do, per item (create, update with a diff, no-change, blocked with the gate); changes nothing."""
        return self.plan_install(app_id, body)  # type: ignore[arg-type]

    def retry_install_step(self, job_id: str, step_index: str) -> "InstallJobHandle":  # type: ignore[override]
        """Re-open one provisioning step for the service's worker (202): the job, running again; `.wait()` polls it until it finishes."""
        return InstallJobHandle(self, super().retry_install_step(job_id, step_index), "id")

    def apply_item(self, workspace_id: str, item_id: str) -> "JobHandle":  # type: ignore[override]
        """Push the item's stored content to its live resource (202): the apply job; `.wait()` polls it until it finishes."""
        return JobHandle(self, super().apply_item(workspace_id, item_id))

    def retry_job_step(self, job_id: str, step_index: str) -> "JobHandle":  # type: ignore[override]
        """Re-open a failed or remediation step of a finished job (202): the job, running again; `.wait()` polls it."""
        return JobHandle(self, super().retry_job_step(job_id, step_index))

    def check_drift(self, workspace_id: str) -> "JobHandle":  # type: ignore[override]
        """Check every live item of the workspace against its backing service (202): the drift job; `.wait()` polls it."""
        return JobHandle(self, super().check_drift(workspace_id))

    def upgrade(self, workspace_id: str, app_id: str, *, remove_dropped: bool = False) -> "JobHandle":
        """Upgrade the installed app to the catalog's version (202): the upgrade job; `.wait()` polls it until it finishes."""
        return JobHandle(self, self.upgrade_app(workspace_id, app_id, {"removeDropped": remove_dropped}))

    def uninstall(self, workspace_id: str, app_id: str, *, purge_data: bool = False) -> "JobHandle":
        """Uninstall the app (202): the uninstall job; data stores are kept unless `purge_data`; `.wait()` polls it."""
        return JobHandle(self, self.uninstall_app(workspace_id, app_id, purge_data="true" if purge_data else "false"))

    def delete_item_live(self, workspace_id: str, item_id: str) -> "JobHandle":
        """Delete the item and its live resource (202): the uninstall job of the item; `.wait()` polls it."""
        return JobHandle(self, self.delete_item(workspace_id, item_id, delete_live="true"))  # type: ignore[arg-type]

    def delete_workspace_with_apps(self, workspace_id: str, *, purge_data: bool = False) -> "JobHandle":
        """Uninstall every app of the workspace and delete it (force, 202): the job; `.wait()` polls it."""
        return JobHandle(self, self.delete_workspace(workspace_id, force="true", purge_data="true" if purge_data else "false"))  # type: ignore[arg-type]

    def wait_for_job(self, job_id: str, *, timeout: float = WAIT_TIMEOUT, interval: float = POLL_INTERVAL) -> Job:
        """Polls a job of any kind (install, upgrade, uninstall, apply, drift) every `interval` seconds until it is not running; returns the final job."""
        deadline = time.monotonic() + timeout
        while True:
            job = self.get_job(job_id)
            if job["status"] != "running":
                return job
            if time.monotonic() + interval > deadline:
                raise SvcTimeoutError(f"{job['kind']} job {job_id} still running after {timeout} s ({job['percentComplete']}%)", dict(job))
            time.sleep(interval)

    def wait_for_install_job(self, job_id: str, *, timeout: float = WAIT_TIMEOUT, interval: float = POLL_INTERVAL) -> InstallJob:
        """Polls the job every `interval` seconds until its status is not running; returns the final job."""
        deadline = time.monotonic() + timeout
        while True:
            job = self.get_install_job(job_id)
            if job["status"] != "running":
                return job
            if time.monotonic() + interval > deadline:
                raise SvcTimeoutError(f"install job {job_id} still running after {timeout} s ({job['percentComplete']}%)", dict(job))
            time.sleep(interval)

    def export_paginated_report(self, report_id: str, body: StartPaginatedReportExportBody, *, workspace_id: str, timeout: float = WAIT_TIMEOUT, interval: float = EXPORT_POLL_INTERVAL) -> bytes:
        """Starts an export of a paginated report, polls it until it ends, and answers the file's bytes; a Failed export raises SvcError."""
        job = self.start_paginated_report_export(report_id, body, workspace_id=workspace_id)
        deadline = time.monotonic() + timeout
        while job["status"] not in FINISHED:
            if time.monotonic() + interval > deadline:
                raise SvcTimeoutError(f"export {job['id']} still {job['status']} after {timeout} s ({job['percentComplete']}%)", dict(job))
            time.sleep(interval)
            job = self.get_paginated_report_export(report_id, job["id"], workspace_id=workspace_id)
        if job["status"] == "Failed":
            raise SvcError(f"export {job['id']} of report {report_id} failed in the reporting service")
        return self.get_paginated_report_export_file(report_id, job["id"], workspace_id=workspace_id)


class AsyncClient(AsyncOperations):
    """Asynchronous client: `AsyncClient(base_url=None, token=None, *, timeout=30.0)`; use `async with`."""

    async def install_app(self, app_id: str, body: InstallAppBody) -> "AsyncInstallJobHandle":  # type: ignore[override]
        """Start installing a curated app; `await handle.wait()` polls the job until it finishes."""
        return AsyncInstallJobHandle(self, await super().install_app(app_id, body), "jobId")

    async def plan(self, app_id: str, body: InstallAppBody) -> InstallPlan:
        """What installing the app with this install body would do, per item (create, update with a diff, no-change, blocked with the gate); changes nothing."""
        return await self.plan_install(app_id, body)  # type: ignore[arg-type]

    async def retry_install_step(self, job_id: str, step_index: str) -> "AsyncInstallJobHandle":  # type: ignore[override]
        """Re-open one provisioning step for the service's worker (202): the job, running again; `await handle.wait()` polls it until it finishes."""
        return AsyncInstallJobHandle(self, await super().retry_install_step(job_id, step_index), "id")

    async def apply_item(self, workspace_id: str, item_id: str) -> "AsyncJobHandle":  # type: ignore[override]
        """Push the item's stored content to its live resource (202): the apply job; `await .wait()` polls it until it finishes."""
        return AsyncJobHandle(self, await super().apply_item(workspace_id, item_id))

    async def retry_job_step(self, job_id: str, step_index: str) -> "AsyncJobHandle":  # type: ignore[override]
        """Re-open a failed or remediation step of a finished job (202): the job, running again; `await .wait()` polls it."""
        return AsyncJobHandle(self, await super().retry_job_step(job_id, step_index))

    async def check_drift(self, workspace_id: str) -> "AsyncJobHandle":  # type: ignore[override]
        """Check every live item of the workspace against its backing service (202): the drift job; `await .wait()` polls it."""
        return AsyncJobHandle(self, await super().check_drift(workspace_id))

    async def upgrade(self, workspace_id: str, app_id: str, *, remove_dropped: bool = False) -> "AsyncJobHandle":
        """Upgrade the installed app to the catalog's version (202): the upgrade job; `await .wait()` polls it."""
        return AsyncJobHandle(self, await self.upgrade_app(workspace_id, app_id, {"removeDropped": remove_dropped}))

    async def uninstall(self, workspace_id: str, app_id: str, *, purge_data: bool = False) -> "AsyncJobHandle":
        """Uninstall the app (202): the uninstall job; data stores are kept unless `purge_data`; `await .wait()` polls it."""
        return AsyncJobHandle(self, await self.uninstall_app(workspace_id, app_id, purge_data="true" if purge_data else "false"))

    async def wait_for_job(self, job_id: str, *, timeout: float = WAIT_TIMEOUT, interval: float = POLL_INTERVAL) -> Job:
        """Polls a job of any kind every `interval` seconds until it is not running; returns the final job."""
        deadline = time.monotonic() + timeout
        while True:
            job = await self.get_job(job_id)
            if job["status"] != "running":
                return job
            if time.monotonic() + interval > deadline:
                raise SvcTimeoutError(f"{job['kind']} job {job_id} still running after {timeout} s ({job['percentComplete']}%)", dict(job))
            await asyncio.sleep(interval)

    async def wait_for_install_job(self, job_id: str, *, timeout: float = WAIT_TIMEOUT, interval: float = POLL_INTERVAL) -> InstallJob:
        """Polls the job every `interval` seconds until its status is not running; returns the final job."""
        deadline = time.monotonic() + timeout
        while True:
            job = await self.get_install_job(job_id)
            if job["status"] != "running":
                return job
            if time.monotonic() + interval > deadline:
                raise SvcTimeoutError(f"install job {job_id} still running after {timeout} s ({job['percentComplete']}%)", dict(job))
            await asyncio.sleep(interval)

    async def export_paginated_report(self, report_id: str, body: StartPaginatedReportExportBody, *, workspace_id: str, timeout: float = WAIT_TIMEOUT, interval: float = EXPORT_POLL_INTERVAL) -> bytes:
        """Starts an export of a paginated report, polls it until it ends, and answers the file's bytes; a Failed export raises SvcError."""
        job = await self.start_paginated_report_export(report_id, body, workspace_id=workspace_id)
        deadline = time.monotonic() + timeout
        while job["status"] not in FINISHED:
            if time.monotonic() + interval > deadline:
                raise SvcTimeoutError(f"export {job['id']} still {job['status']} after {timeout} s ({job['percentComplete']}%)", dict(job))
            await asyncio.sleep(interval)
            job = await self.get_paginated_report_export(report_id, job["id"], workspace_id=workspace_id)
        if job["status"] == "Failed":
            raise SvcError(f"export {job['id']} of report {report_id} failed in the reporting service")
        return await self.get_paginated_report_export_file(report_id, job["id"], workspace_id=workspace_id)


class InstallJobHandle(Dict[str, Any]):
    """An answer naming an install job (the install's `jobId` and `totalItems`, or a step retry's job) with `wait()`."""

    def __init__(self, client: Client, answer: Dict[str, Any], id_key: str) -> None:
        super().__init__(answer)
        self._client = client
        self._id_key = id_key

    @property
    def job_id(self) -> str:
        return str(self[self._id_key])

    def wait(self, timeout: float = WAIT_TIMEOUT, interval: float = POLL_INTERVAL) -> InstallJob:
        """Polls every `interval` seconds (default 5) until the job is done, partial or failed; returns the final job."""
        return self._client.wait_for_install_job(self.job_id, timeout=timeout, interval=interval)


class AsyncInstallJobHandle(Dict[str, Any]):
    """An answer naming an install job (the install's `jobId` and `totalItems`, or a step retry's job) with an awaitable `wait()`."""

    def __init__(self, client: AsyncClient, answer: Dict[str, Any], id_key: str) -> None:
        super().__init__(answer)
        self._client = client
        self._id_key = id_key

    @property
    def job_id(self) -> str:
        return str(self[self._id_key])

    async def wait(self, timeout: float = WAIT_TIMEOUT, interval: float = POLL_INTERVAL) -> InstallJob:
        """Polls every `interval` seconds (default 5) until the job is done, partial or failed; returns the final job."""
        return await self._client.wait_for_install_job(self.job_id, timeout=timeout, interval=interval)


class JobHandle(Dict[str, Any]):
    """A job of any kind as a start answered it (upgrade, uninstall, apply, drift, a step retry), with `wait()`."""

    def __init__(self, client: Client, job: Dict[str, Any]) -> None:
        super().__init__(job)
        self._client = client

    @property
    def job_id(self) -> str:
        return str(self["id"])

    def wait(self, timeout: float = WAIT_TIMEOUT, interval: float = POLL_INTERVAL) -> Job:
        """Polls every `interval` seconds (default 5) until the job is done, partial or failed; returns the final job."""
        return self._client.wait_for_job(self.job_id, timeout=timeout, interval=interval)


class AsyncJobHandle(Dict[str, Any]):
    """A job of any kind as a start answered it, with an awaitable `wait()`."""

    def __init__(self, client: AsyncClient, job: Dict[str, Any]) -> None:
        super().__init__(job)
        self._client = client

    @property
    def job_id(self) -> str:
        return str(self["id"])

    async def wait(self, timeout: float = WAIT_TIMEOUT, interval: float = POLL_INTERVAL) -> Job:
        """Polls every `interval` seconds (default 5) until the job is done, partial or failed; returns the final job."""
        return await self._client.wait_for_job(self.job_id, timeout=timeout, interval=interval)


def connect(base_url: Optional[str] = None, token: Optional[str] = None, **kwargs: Any) -> Client:
    """Shorthand for `Client(base_url, token, **kwargs)`."""
    return Client(base_url, token, **kwargs)
