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
    "parentId": "Union[str, None]",
    "scopes": "List[str]",
    "userId": "str",
    "workspaceIds": "Union[List[str], None]",
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

AuditEventActor = TypedDict("AuditEventActor", {
    "method": "Union[str, None]",
    "tokenId": NotRequired["str"],
    "userId": "Union[str, None]",
    "userName": "Union[str, None]",
})

AuditEventTarget = TypedDict("AuditEventTarget", {
    "id": NotRequired["str"],
    "name": NotRequired["str"],
    "type": "str",
})

AuditEvent = TypedDict("AuditEvent", {
    "actor": "AuditEventActor",
    "at": "str",
    "detail": NotRequired["Dict[str, Any]"],
    "id": "str",
    "kind": "str",
    "outcome": "Literal[\"succeeded\", \"refused\", \"failed\", \"accepted\"]",
    "requestId": "str",
    "status": "int",
    "target": "AuditEventTarget",
    "tenantId": "str",
    "workspaceId": NotRequired["str"],
})

DriftItem = TypedDict("DriftItem", {
    "appId": "Union[str, None]",
    "code": NotRequired["str"],
    "diff": NotRequired["str"],
    "displayName": "str",
    "error": NotRequired["str"],
    "gate": NotRequired["RemediationGate"],
    "itemId": "str",
    "itemType": "str",
    "key": "str",
    "message": NotRequired["str"],
    "resourceId": NotRequired["str"],
    "status": "Union[Literal[\"in-sync\"], Literal[\"drifted\"], Literal[\"missing\"], Literal[\"remediation\"], Literal[\"failed\"], None]",
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
    "ok": "bool",
})
ErrorEnvelope.__doc__ = "Every failure: ok false and an error with a code and a message"

IdentityAlert = TypedDict("IdentityAlert", {
    "clientId": "str",
    "credentialId": "str",
    "daysRemaining": "int",
    "displayName": "str",
    "expiresAt": "str",
    "keyId": "str",
    "level": "Literal[\"notice\", \"warning\", \"critical\", \"expired\"]",
    "message": "str",
    "threshold": "Literal[90, 30, 7, 0]",
})

IdentityChange = TypedDict("IdentityChange", {
    "createdAt": "str",
    "createdBy": "str",
    "id": "str",
    "incidentId": NotRequired["str"],
    "inverse": "Dict[str, Any]",
    "kind": "str",
    "rolledBackAt": NotRequired["str"],
    "rolledBackBy": NotRequired["str"],
    "state": "Literal[\"applied\", \"rolled-back\"]",
    "summary": "str",
    "target": "Dict[str, Any]",
})

IdentityClaimCheck = TypedDict("IdentityClaimCheck", {
    "actual": NotRequired["Any"],
    "claim": "str",
    "expected": NotRequired["Any"],
    "status": "Literal[\"ok\", \"wrong\", \"missing\", \"unchecked\"]",
})

IdentityCredential = TypedDict("IdentityCredential", {
    "clientId": "str",
    "consumers": "List[str]",
    "createdAt": "str",
    "displayName": "str",
    "expiresAt": "str",
    "id": "str",
    "keyId": "str",
    "updatedAt": "str",
    "vaultSecretName": NotRequired["str"],
})
IdentityCredential.__doc__ = "a service-principal secret registered by metadata; the secret value is never kept"

IdentityDiagnosisActionsItem = TypedDict("IdentityDiagnosisActionsItem", {
    "action": "str",
    "command": "str",
})

IdentityDiagnosisSymptom = TypedDict("IdentityDiagnosisSymptom", {
    "id": "str",
    "text": "str",
})

IdentityDiagnosis = TypedDict("IdentityDiagnosis", {
    "actions": "List[IdentityDiagnosisActionsItem]",
    "firstChecks": "List[str]",
    "identityType": "Literal[\"workspace-identity\", \"service-principal\", \"system-assigned-managed-identity\", \"user-assigned-managed-identity\", \"user\", \"conditional-access\", \"ip-firewall\", \"cross-tenant-guest\"]",
    "identityTypeInferred": "bool",
    "likelyCauses": "List[str]",
    "matchedOn": "str",
    "requiredGrant": NotRequired["str"],
    "symptom": "IdentityDiagnosisSymptom",
})

IdentityIncidentApprovalsItem = TypedDict("IdentityIncidentApprovalsItem", {
    "approver": "str",
    "at": "str",
    "changeKind": "str",
    "changeRequestDueAt": NotRequired["str"],
    "changeRequestId": NotRequired["str"],
    "id": "str",
    "verbal": "bool",
})

IdentityIncidentChangeRequestsItem = TypedDict("IdentityIncidentChangeRequestsItem", {
    "approvalId": "str",
    "dueAt": "str",
    "overdue": "bool",
})

IdentityIncidentFacts = TypedDict("IdentityIncidentFacts", {
    "complianceReportingBlocked": NotRequired["bool"],
    "guestWithoutAccess": NotRequired["bool"],
    "noProductionImpact": NotRequired["bool"],
    "nonProduction": NotRequired["bool"],
    "primaryCicdIdentityBroken": NotRequired["bool"],
    "productionPipelineAuthFailingMinutes": NotRequired["float"],
    "productionPipelineHalted": NotRequired["bool"],
    "singleWorkspaceDown": NotRequired["bool"],
    "tenantWidePolicyMisconfiguration": NotRequired["bool"],
})

IdentityIncidentSnapshotsItem = TypedDict("IdentityIncidentSnapshotsItem", {
    "at": "str",
    "policy": "str",
})

IdentityIncidentVerification = TypedDict("IdentityIncidentVerification", {
    "at": "str",
    "checks": "List[IdentityProbeResult]",
    "passed": "bool",
})

IdentityIncident = TypedDict("IdentityIncident", {
    "approvals": "List[IdentityIncidentApprovalsItem]",
    "changeRequests": "List[IdentityIncidentChangeRequestsItem]",
    "changes": "List[IdentityChange]",
    "closedAt": NotRequired["str"],
    "createdBy": "str",
    "facts": "IdentityIncidentFacts",
    "id": "str",
    "identityType": NotRequired["Literal[\"workspace-identity\", \"service-principal\", \"system-assigned-managed-identity\", \"user-assigned-managed-identity\", \"user\", \"conditional-access\", \"ip-firewall\", \"cross-tenant-guest\"]"],
    "monitoringUntil": NotRequired["str"],
    "openedAt": "str",
    "principals": "List[str]",
    "severity": "Literal[\"SEV1\", \"SEV2\", \"SEV3\", \"SEV4\"]",
    "severityReasons": "List[str]",
    "snapshots": "List[IdentityIncidentSnapshotsItem]",
    "startedAt": "str",
    "status": "Literal[\"open\", \"monitoring\", \"closed\"]",
    "title": "str",
    "verification": NotRequired["IdentityIncidentVerification"],
    "verifiedAt": NotRequired["str"],
})

IdentityProbeResult = TypedDict("IdentityProbeResult", {
    "at": "str",
    "check": "Literal[\"token\", \"workspace-read\", \"lakehouse-count\", \"pipeline-run\", \"sign-ins\"]",
    "code": NotRequired["str"],
    "detail": "str",
    "diagnosis": NotRequired["str"],
    "gate": NotRequired["RemediationGate"],
    "ms": "int",
    "ok": "bool",
    "skipped": NotRequired["bool"],
    "status": NotRequired["int"],
})

IdentityRotationLogItem = TypedDict("IdentityRotationLogItem", {
    "at": "str",
    "detail": "str",
    "step": "str",
})

IdentityRotation = TypedDict("IdentityRotation", {
    "changeIds": "List[str]",
    "clientId": "str",
    "consumers": "List[str]",
    "createdAt": "str",
    "credentialId": "str",
    "done": "Dict[str, str]",
    "id": "str",
    "log": "List[IdentityRotationLogItem]",
    "newExpiresAt": NotRequired["str"],
    "newKeyId": NotRequired["str"],
    "nextStep": NotRequired["Literal[\"create-new-secret\", \"store-in-vault\", \"restart-consumers\", \"verify\", \"delete-old-secret\"]"],
    "oldKeyId": "str",
    "previousVaultVersion": NotRequired["Union[str, None]"],
    "state": "Literal[\"in-progress\", \"completed\", \"rolled-back\"]",
    "updatedAt": "str",
    "vaultSecretName": "str",
    "vaultVersion": NotRequired["str"],
})

IdentitySignal = TypedDict("IdentitySignal", {
    "at": "str",
    "code": NotRequired["str"],
    "id": "str",
    "path": "str",
    "principal": "str",
    "service": "str",
    "status": "int",
})

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

InstallPlan = TypedDict("InstallPlan", {
    "appId": "str",
    "fromVersion": NotRequired["str"],
    "items": "List[PlanItem]",
    "mode": "str",
    "version": "str",
    "workspaceId": "str",
})

InstalledAppItemsItem = TypedDict("InstalledAppItemsItem", {
    "displayName": "str",
    "itemId": "str",
    "itemType": "str",
    "key": "str",
    "resourceId": "Union[str, None]",
    "status": "Literal[\"created\", \"exists\", \"skipped\", \"remediation\", \"failed\", \"pending\", \"stored\"]",
})

InstalledApp = TypedDict("InstalledApp", {
    "appId": "str",
    "catalogVersion": "Union[str, None]",
    "displayName": "str",
    "installedAt": "str",
    "installedBy": "str",
    "items": "List[InstalledAppItemsItem]",
    "lastJobId": "str",
    "mode": "Literal[\"shared\", \"dedicated\"]",
    "status": "Literal[\"installed\", \"partial\", \"upgrading\", \"uninstalling\", \"failed\"]",
    "target": "Dict[str, str]",
    "updatedAt": "str",
    "updatedBy": "str",
    "version": "str",
})

ItemPortal0 = TypedDict("ItemPortal0", {
    "name": "str",
    "url": "str",
})

Item = TypedDict("Item", {
    "appId": "Union[str, None]",
    "backend": "Union[Literal[\"data-platform\", \"kql\", \"search\", \"warehouse\", \"reporting\", \"synapse\", \"lake\", \"event-hubs\", \"monitor\", \"stored\"], None]",
    "contentSource": "str",
    "createdAt": "str",
    "description": "str",
    "displayName": "str",
    "id": "str",
    "itemType": "str",
    "liveState": "Literal[\"stored-only\", \"not-provisioned\", \"created\", \"changed\", \"drifted\", \"missing\", \"deleted\", \"remediation\", \"failed\"]",
    "portal": "Union[ItemPortal0, None]",
    "provisioning": "Any",
    "updatedAt": "str",
    "workspaceId": "str",
})

JobOptions = TypedDict("JobOptions", {
    "deleteWorkspace": NotRequired["bool"],
    "fromVersion": NotRequired["str"],
    "itemId": NotRequired["str"],
    "purgeData": NotRequired["bool"],
    "removeDropped": NotRequired["bool"],
    "toVersion": NotRequired["str"],
})
JobOptions.__doc__ = "what the job was asked when it was accepted"

JobStepsItem = TypedDict("JobStepsItem", {
    "displayName": "str",
    "itemId": "Union[str, None]",
    "itemType": "str",
    "key": "str",
    "live": "bool",
    "result": "Union[JobStepResult, None]",
    "stepIndex": "int",
})

Job = TypedDict("Job", {
    "appId": "Union[str, None]",
    "createdAt": "str",
    "createdBy": "str",
    "finishedAt": "Union[str, None]",
    "id": "str",
    "kind": "Literal[\"install\", \"upgrade\", \"uninstall\", \"apply\", \"drift\"]",
    "options": "JobOptions",
    "percentComplete": "int",
    "phase": "str",
    "status": "Literal[\"running\", \"done\", \"partial\", \"failed\"]",
    "steps": "List[JobStepsItem]",
    "summary": "Dict[str, int]",
    "updatedAt": "str",
    "workspaceId": "str",
})

JobStepResultConflictsItem = TypedDict("JobStepResultConflictsItem", {
    "base": "Any",
    "ours": "Any",
    "path": "str",
    "theirs": "Any",
})

JobStepResult = TypedDict("JobStepResult", {
    "code": NotRequired["str"],
    "conflicts": NotRequired["List[JobStepResultConflictsItem]"],
    "diagnosis": NotRequired["str"],
    "diff": NotRequired["str"],
    "error": NotRequired["str"],
    "gate": NotRequired["RemediationGate"],
    "message": NotRequired["str"],
    "resourceId": NotRequired["str"],
    "secondaryIds": NotRequired["Dict[str, str]"],
    "status": "str",
    "steps": "List[str]",
})

PaginatedReport = TypedDict("PaginatedReport", {
    "datasetId": "Union[str, None]",
    "description": "str",
    "embedUrl": "Union[str, None]",
    "format": "Union[str, None]",
    "groupId": "str",
    "id": "str",
    "metadataGate": NotRequired["RemediationGate"],
    "modifiedBy": "Union[str, None]",
    "modifiedDateTime": "Union[str, None]",
    "name": "str",
    "reportType": "str",
    "webUrl": "str",
    "workspaceId": "str",
})

PlanItemCallsItem = TypedDict("PlanItemCallsItem", {
    "command": NotRequired["str"],
    "method": "Literal[\"GET\", \"PUT\", \"POST\", \"PATCH\", \"DELETE\", \"LOGIN\", \"BATCH\"]",
    "once": NotRequired["bool"],
    "path": "str",
    "service": "Literal[\"data-platform\", \"onelake\", \"arm\", \"kql\", \"search\", \"sql\", \"reporting\", \"synapse\", \"storage\"]",
    "times": NotRequired["int"],
    "when": NotRequired["Literal[\"new\", \"existing\", \"accepted\", \"pending\", \"unseeded\", \"missing\", \"changed\", \"conflict\", \"unreported\", \"alone\", \"existingAlone\", \"beside\"]"],
})

PlanItemConflictsItem = TypedDict("PlanItemConflictsItem", {
    "base": "Any",
    "ours": "Any",
    "path": "str",
    "theirs": "Any",
})

PlanItem = TypedDict("PlanItem", {
    "action": "Literal[\"create\", \"update\", \"no-change\", \"blocked\", \"failed\", \"stored\", \"conflict\", \"remove\", \"keep\", \"delete\"]",
    "backend": NotRequired["str"],
    "calls": NotRequired["List[PlanItemCallsItem]"],
    "code": NotRequired["str"],
    "conflicts": NotRequired["List[PlanItemConflictsItem]"],
    "dataLoss": NotRequired["bool"],
    "diff": NotRequired["str"],
    "displayName": "str",
    "error": NotRequired["str"],
    "gate": NotRequired["RemediationGate"],
    "itemType": "str",
    "key": "str",
    "message": NotRequired["str"],
    "resourceId": NotRequired["str"],
})

Principal = TypedDict("Principal", {
    "displayName": "str",
    "email": NotRequired["str"],
    "id": "str",
    "type": "Literal[\"User\", \"Group\"]",
})

ProvisionReportStepsItem = TypedDict("ProvisionReportStepsItem", {
    "cosmosItemId": "str",
    "displayName": "str",
    "itemType": "str",
    "result": "StepResult",
    "stepIndex": "int",
})

ProvisionReport = TypedDict("ProvisionReport", {
    "backends": NotRequired["Dict[str, str]"],
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

ReportDatasourceConnectionDetails = TypedDict("ReportDatasourceConnectionDetails", {
    "database": "Union[str, None]",
    "server": "Union[str, None]",
})

ReportDatasource = TypedDict("ReportDatasource", {
    "connectionDetails": "ReportDatasourceConnectionDetails",
    "datasourceId": "Union[str, None]",
    "datasourceType": "Union[str, None]",
    "gatewayId": "Union[str, None]",
    "name": "Union[str, None]",
})

ReportExport = TypedDict("ReportExport", {
    "createdDateTime": "Union[str, None]",
    "expirationTime": "Union[str, None]",
    "fileExtension": "Union[str, None]",
    "id": "str",
    "lastActionDateTime": "Union[str, None]",
    "percentComplete": "float",
    "reportId": "str",
    "reportName": "Union[str, None]",
    "status": "str",
})

ReportParameterValidValuesItem = TypedDict("ReportParameterValidValuesItem", {
    "label": "str",
    "value": "str",
})

ReportParameter = TypedDict("ReportParameter", {
    "allowBlank": "bool",
    "dataType": "str",
    "defaultValues": "List[str]",
    "hidden": "bool",
    "multiValue": "bool",
    "name": "str",
    "nullable": "bool",
    "prompt": "str",
    "validValues": "List[ReportParameterValidValuesItem]",
    "validValuesDataSet": NotRequired["str"],
})

ResourceAssignmentSettings = TypedDict("ResourceAssignmentSettings", {
    "address": NotRequired["str"],
    "container": NotRequired["str"],
    "database": NotRequired["str"],
    "location": NotRequired["str"],
    "resourceId": NotRequired["str"],
    "vaultSecretName": NotRequired["str"],
    "workspace": NotRequired["str"],
})

ResourceAssignment = TypedDict("ResourceAssignment", {
    "assignedAt": "str",
    "assignedBy": "Union[str, None]",
    "id": "str",
    "isDefault": "bool",
    "kind": "Literal[\"platform-workspace\", \"kql-cluster\", \"search-service\", \"warehouse\", \"lake\", \"application\", \"vault-secret\"]",
    "resource": "str",
    "settings": "ResourceAssignmentSettings",
    "tenantId": "str",
})

RoleAssignment = TypedDict("RoleAssignment", {
    "createdAt": "str",
    "createdBy": "str",
    "id": "str",
    "principal": "Principal",
    "role": "Literal[\"Admin\", \"Member\", \"Contributor\", \"Viewer\"]",
    "workspaceId": "str",
})

StepResult = TypedDict("StepResult", {
    "backend": NotRequired["str"],
    "code": NotRequired["str"],
    "diagnosis": NotRequired["str"],
    "error": NotRequired["str"],
    "gate": NotRequired["RemediationGate"],
    "message": NotRequired["str"],
    "resourceId": NotRequired["str"],
    "secondaryIds": NotRequired["Dict[str, str]"],
    "status": "Literal[\"created\", \"exists\", \"skipped\", \"remediation\", \"failed\"]",
    "steps": "List[str]",
})

Tenant = TypedDict("Tenant", {
    "createdAt": "str",
    "id": "str",
    "name": "str",
    "platformWorkspaces": "int",
    "targets": "int",
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
    "role": "Literal[\"Admin\", \"Member\", \"Contributor\", \"Viewer\"]",
    "roleSource": "Literal[\"user\", \"group\", \"tenant-admin\"]",
    "updatedAt": "str",
})

AddFirewallRuleBody = TypedDict("AddFirewallRuleBody", {
    "endIpAddress": "str",
    "incidentId": NotRequired["str"],
    "name": "str",
    "startIpAddress": "str",
})

AddFirewallRuleResultRule = TypedDict("AddFirewallRuleResultRule", {
    "endIpAddress": "str",
    "id": "str",
    "name": "str",
    "startIpAddress": "str",
})

AddFirewallRuleResult = TypedDict("AddFirewallRuleResult", {
    "change": "IdentityChange",
    "rule": "AddFirewallRuleResultRule",
})

AddRoleAssignmentBodyPrincipal = TypedDict("AddRoleAssignmentBodyPrincipal", {
    "id": "str",
    "type": "Literal[\"User\", \"Group\"]",
})

AddRoleAssignmentBody = TypedDict("AddRoleAssignmentBody", {
    "principal": "AddRoleAssignmentBodyPrincipal",
    "role": "Literal[\"Admin\", \"Member\", \"Contributor\", \"Viewer\"]",
})

ApproveIncidentChangeBody = TypedDict("ApproveIncidentChangeBody", {
    "approver": "str",
    "changeKind": "str",
    "verbal": NotRequired["bool"],
})

AssignApplicationBody = TypedDict("AssignApplicationBody", {
    "clientId": "str",
    "vaultSecretName": NotRequired["str"],
})

AssignPlatformWorkspaceBody = TypedDict("AssignPlatformWorkspaceBody", {
    "platformWorkspaceId": "str",
})

AssignTargetBody = TypedDict("AssignTargetBody", {
    "address": "str",
    "container": NotRequired["str"],
    "database": NotRequired["str"],
    "kind": "Literal[\"kql-cluster\", \"search-service\", \"warehouse\", \"lake\"]",
    "location": NotRequired["str"],
    "resourceId": NotRequired["str"],
    "workspace": NotRequired["str"],
})

ChangeRoleAssignmentBody = TypedDict("ChangeRoleAssignmentBody", {
    "role": "Literal[\"Admin\", \"Member\", \"Contributor\", \"Viewer\"]",
})

CheckEgressAddressResultAllowingRulesItem = TypedDict("CheckEgressAddressResultAllowingRulesItem", {
    "endIpAddress": "str",
    "id": "str",
    "name": "str",
    "startIpAddress": "str",
})

CheckEgressAddressResult = TypedDict("CheckEgressAddressResult", {
    "allowed": "bool",
    "allowingRules": "List[CheckEgressAddressResultAllowingRulesItem]",
    "ip": "str",
    "ruleCount": "int",
})

ClonePaginatedReportBody = TypedDict("ClonePaginatedReportBody", {
    "name": "str",
    "targetWorkspaceId": NotRequired["str"],
})

CreateItemBody = TypedDict("CreateItemBody", {
    "content": NotRequired["Any"],
    "deploy": NotRequired["bool"],
    "description": NotRequired["str"],
    "displayName": "str",
    "itemType": "Literal[\"notebook\", \"lakehouse\", \"warehouse\", \"kql-database\", \"kql-queryset\", \"eventhouse\", \"search-index\", \"semantic-model\", \"activator\", \"data-pipeline\", \"eventstream\", \"report\", \"kql-dashboard\", \"mirrored-database\", \"dashboard\", \"scorecard\", \"data-product\", \"prompt-flow\", \"dataflow-spec\", \"power-bi-report\", \"data-agent\"]",
})

CreatePaginatedReportEmbedTokenBody = TypedDict("CreatePaginatedReportEmbedTokenBody", {
    "lifetimeInMinutes": NotRequired["int"],
    "username": NotRequired["str"],
})

CreatePaginatedReportEmbedTokenResult = TypedDict("CreatePaginatedReportEmbedTokenResult", {
    "embedUrl": "Union[str, None]",
    "expiration": "str",
    "reportId": "str",
    "token": "str",
    "tokenId": "str",
})

CreateSessionBody = TypedDict("CreateSessionBody", {
    "token": "str",
})

CreateSessionResultWhoami = TypedDict("CreateSessionResultWhoami", {
    "authMethod": "Literal[\"token\", \"session\"]",
    "csrfToken": NotRequired["str"],
    "groups": "List[str]",
    "scopes": "List[str]",
    "tenantId": "str",
    "tokenId": "Union[str, None]",
    "userId": "str",
    "userName": "str",
    "workspaceIds": "Union[List[str], None]",
})
CreateSessionResultWhoami.__doc__ = "the caller as GET /api/whoami answers it with the new session cookie (so a console need not ask)"

CreateSessionResult = TypedDict("CreateSessionResult", {
    "csrfToken": "str",
    "expiresAt": "str",
    "tenantId": "str",
    "userName": "str",
    "whoami": "CreateSessionResultWhoami",
})

CreateTenantBody = TypedDict("CreateTenantBody", {
    "id": "str",
    "name": "str",
})

CreateTenantAdminTokenBody = TypedDict("CreateTenantAdminTokenBody", {
    "expiresInDays": NotRequired["int"],
})

CreateTenantAdminTokenResult = TypedDict("CreateTenantAdminTokenResult", {
    "secret": "str",
    "token": "ApiToken",
})

CreateThreadEdgeBody = TypedDict("CreateThreadEdgeBody", {
    "fromItemId": "str",
    "kind": "Literal[\"feeds\", \"reads-from\", \"visualizes\", \"triggers-on\", \"runs\"]",
    "toItemId": "str",
})

CreateTokenBody = TypedDict("CreateTokenBody", {
    "expiresInDays": NotRequired["int"],
    "name": "str",
    "scopes": "List[Literal[\"read\", \"write\", \"install\", \"reports\", \"tokens\", \"admin\", \"metrics\", \"operator\"]]",
    "workspaceIds": NotRequired["List[str]"],
})

CreateTokenResult = TypedDict("CreateTokenResult", {
    "expiryCapped": "bool",
    "secret": "str",
    "token": "ApiToken",
})

CreateWorkspaceBody = TypedDict("CreateWorkspaceBody", {
    "description": NotRequired["str"],
    "name": "str",
})

DeleteSessionResult = TypedDict("DeleteSessionResult", {})

DiagnoseIdentityFailureBodyBody = TypedDict("DiagnoseIdentityFailureBodyBody", {
    "body": NotRequired["str"],
    "code": NotRequired["str"],
    "identityType": NotRequired["Literal[\"workspace-identity\", \"service-principal\", \"system-assigned-managed-identity\", \"user-assigned-managed-identity\", \"user\", \"conditional-access\", \"ip-firewall\", \"cross-tenant-guest\"]"],
    "service": NotRequired["str"],
    "status": NotRequired["int"],
})

FileChangeRequestBody = TypedDict("FileChangeRequestBody", {
    "changeRequestId": "str",
})

GetAppResultEdgesItem = TypedDict("GetAppResultEdgesItem", {
    "from": "str",
    "kind": "str",
    "to": "str",
})

GetAppResultItemsItemCallsItem = TypedDict("GetAppResultItemsItemCallsItem", {
    "command": NotRequired["str"],
    "method": "Literal[\"GET\", \"PUT\", \"POST\", \"PATCH\", \"DELETE\", \"LOGIN\", \"BATCH\"]",
    "once": NotRequired["bool"],
    "path": "str",
    "service": "Literal[\"data-platform\", \"onelake\", \"arm\", \"kql\", \"search\", \"sql\", \"reporting\", \"synapse\", \"storage\"]",
    "times": NotRequired["int"],
    "when": NotRequired["Literal[\"new\", \"existing\", \"accepted\", \"pending\", \"unseeded\", \"missing\", \"changed\", \"conflict\", \"unreported\", \"alone\", \"existingAlone\", \"beside\"]"],
})

GetAppResultItemsItem = TypedDict("GetAppResultItemsItem", {
    "action": "str",
    "backing": NotRequired["str"],
    "calls": "List[GetAppResultItemsItemCallsItem]",
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
    "dataPlatform": NotRequired["bool"],
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

GetPaginatedReportDefinitionResult = TypedDict("GetPaginatedReportDefinitionResult", {
    "definition": "str",
    "etag": "str",
    "parameters": "List[ReportParameter]",
    "report": "PaginatedReport",
})

GrantWorkspaceRoleBody = TypedDict("GrantWorkspaceRoleBody", {
    "incidentId": NotRequired["str"],
    "principalId": "str",
    "principalType": NotRequired["Literal[\"ServicePrincipal\", \"User\", \"Group\", \"ServicePrincipalProfile\"]"],
    "role": "Literal[\"Admin\", \"Member\", \"Contributor\", \"Viewer\"]",
})

GrantWorkspaceRoleResultAssignmentPrincipal = TypedDict("GrantWorkspaceRoleResultAssignmentPrincipal", {
    "displayName": NotRequired["str"],
    "id": "str",
    "type": "str",
})

GrantWorkspaceRoleResultAssignment = TypedDict("GrantWorkspaceRoleResultAssignment", {
    "id": "str",
    "principal": "GrantWorkspaceRoleResultAssignmentPrincipal",
    "role": "str",
})

GrantWorkspaceRoleResult = TypedDict("GrantWorkspaceRoleResult", {
    "assignment": "GrantWorkspaceRoleResultAssignment",
    "change": "IdentityChange",
})

InspectIdentityTokenBody = TypedDict("InspectIdentityTokenBody", {
    "audiences": NotRequired["List[str]"],
    "expectedAppId": NotRequired["str"],
    "expectedObjectId": NotRequired["str"],
    "expectedRoles": NotRequired["List[str]"],
    "expectedTenantId": NotRequired["str"],
    "expectedWids": NotRequired["List[str]"],
    "token": "str",
})

InspectIdentityTokenResult = TypedDict("InspectIdentityTokenResult", {
    "alg": NotRequired["Any"],
    "checks": "List[IdentityClaimCheck]",
    "claims": "Dict[str, Any]",
    "valid": "bool",
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
InstallAppBodyTargetOverrides.__doc__ = "dedicated mode only (and required there): every platform workspace and address must be assigned to the tenant by the deployment operator, and under the cloud’s allowed DNS suffixes"

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

LastDriftResult = TypedDict("LastDriftResult", {
    "items": "List[DriftItem]",
    "job": "Job",
})

ListFirewallRulesResultItem = TypedDict("ListFirewallRulesResultItem", {
    "endIpAddress": "str",
    "id": "str",
    "name": "str",
    "startIpAddress": "str",
})

ListIdentityAlertsResult = TypedDict("ListIdentityAlertsResult", {
    "alerts": "List[IdentityAlert]",
    "now": "str",
})

ListIncidentEventsResultItem = TypedDict("ListIncidentEventsResultItem", {
    "at": "str",
    "data": "Any",
    "kind": "str",
    "seq": "int",
})

ListItemTypesResultItem = TypedDict("ListItemTypesResultItem", {
    "backends": NotRequired["List[Literal[\"data-platform\", \"kql\", \"search\", \"warehouse\", \"reporting\", \"synapse\", \"lake\", \"event-hubs\", \"monitor\", \"stored\"]]"],
    "backing": NotRequired["Literal[\"data-platform\", \"kql\", \"search\", \"warehouse\", \"reporting\", \"synapse\", \"lake\", \"event-hubs\", \"monitor\", \"stored\"]"],
    "description": "str",
    "displayName": "str",
    "editor": "Literal[\"json\", \"cells\", \"kql-schema\", \"sql\"]",
    "icon": "Literal[\"Notebook\", \"HomeDatabase\", \"Server\", \"DatabaseLightning\", \"DatabaseSearch\", \"DatabaseMultiple\", \"Search\", \"DataTrending\", \"Alert\", \"Flow\", \"ArrowSync\", \"DocumentText\", \"Grid\", \"Database\", \"Board\", \"Target\", \"Box\", \"Sparkle\", \"DataFunnel\", \"ChartMultiple\", \"Bot\"]",
    "id": "Literal[\"notebook\", \"lakehouse\", \"warehouse\", \"kql-database\", \"kql-queryset\", \"eventhouse\", \"search-index\", \"semantic-model\", \"activator\", \"data-pipeline\", \"eventstream\", \"report\", \"kql-dashboard\", \"mirrored-database\", \"dashboard\", \"scorecard\", \"data-product\", \"prompt-flow\", \"dataflow-spec\", \"power-bi-report\", \"data-agent\"]",
    "provisionedLive": "bool",
    "provisioning": "Literal[\"live\", \"stored\"]",
})

ListWorkspaceRoleAssignmentsResultItemPrincipal = TypedDict("ListWorkspaceRoleAssignmentsResultItemPrincipal", {
    "displayName": NotRequired["str"],
    "id": "str",
    "type": "str",
})

ListWorkspaceRoleAssignmentsResultItem = TypedDict("ListWorkspaceRoleAssignmentsResultItem", {
    "id": "str",
    "principal": "ListWorkspaceRoleAssignmentsResultItemPrincipal",
    "role": "str",
})

OpenIncidentBodyFacts = TypedDict("OpenIncidentBodyFacts", {
    "complianceReportingBlocked": NotRequired["bool"],
    "guestWithoutAccess": NotRequired["bool"],
    "noProductionImpact": NotRequired["bool"],
    "nonProduction": NotRequired["bool"],
    "primaryCicdIdentityBroken": NotRequired["bool"],
    "productionPipelineAuthFailingMinutes": NotRequired["float"],
    "productionPipelineHalted": NotRequired["bool"],
    "singleWorkspaceDown": NotRequired["bool"],
    "tenantWidePolicyMisconfiguration": NotRequired["bool"],
})

OpenIncidentBody = TypedDict("OpenIncidentBody", {
    "facts": NotRequired["OpenIncidentBodyFacts"],
    "identityType": NotRequired["Literal[\"workspace-identity\", \"service-principal\", \"system-assigned-managed-identity\", \"user-assigned-managed-identity\", \"user\", \"conditional-access\", \"ip-firewall\", \"cross-tenant-guest\"]"],
    "lookbackMinutes": NotRequired["int"],
    "principals": NotRequired["List[str]"],
    "startedAt": NotRequired["str"],
    "title": "str",
})

PlanInstallBodyTargetOverrides = TypedDict("PlanInstallBodyTargetOverrides", {
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
PlanInstallBodyTargetOverrides.__doc__ = "dedicated mode only (and required there): every platform workspace and address must be assigned to the tenant by the deployment operator, and under the cloud’s allowed DNS suffixes"

PlanInstallBody = TypedDict("PlanInstallBody", {
    "deploy": NotRequired["bool"],
    "mode": NotRequired["Literal[\"shared\", \"dedicated\"]"],
    "operation": NotRequired["Literal[\"install\", \"upgrade\", \"uninstall\"]"],
    "purgeData": NotRequired["bool"],
    "removeDropped": NotRequired["bool"],
    "targetOverrides": NotRequired["PlanInstallBodyTargetOverrides"],
    "workspaceId": "str",
})

PreviewPaginatedReportBodyParameterValuesItem = TypedDict("PreviewPaginatedReportBodyParameterValuesItem", {
    "name": "str",
    "value": "Union[str, None]",
})

PreviewPaginatedReportBody = TypedDict("PreviewPaginatedReportBody", {
    "definition": "str",
    "format": "Literal[\"PDF\", \"IMAGE\"]",
    "formatSettings": NotRequired["Dict[str, str]"],
    "parameterValues": NotRequired["List[PreviewPaginatedReportBodyParameterValuesItem]"],
})

PublishPaginatedReportBody = TypedDict("PublishPaginatedReportBody", {
    "definition": "str",
    "name": "str",
})

PutItemContentBody = TypedDict("PutItemContentBody", {
    "content": "Any",
})

PutPaginatedReportDefinitionBody = TypedDict("PutPaginatedReportDefinitionBody", {
    "definition": "str",
})

PutPaginatedReportDefinitionResult = TypedDict("PutPaginatedReportDefinitionResult", {
    "etag": "str",
    "report": "PaginatedReport",
})

RecordIncidentChangeBody = TypedDict("RecordIncidentChangeBody", {
    "kind": "str",
    "policy": NotRequired["str"],
    "summary": "str",
})

RegisterCredentialBody = TypedDict("RegisterCredentialBody", {
    "clientId": "str",
    "consumers": NotRequired["List[str]"],
    "displayName": "str",
    "expiresAt": "str",
    "keyId": "str",
    "vaultSecretName": NotRequired["str"],
})

RunIdentityProbeBodyIdentity0 = TypedDict("RunIdentityProbeBodyIdentity0", {
    "kind": "Literal[\"service\"]",
})

RunIdentityProbeBodyIdentity1 = TypedDict("RunIdentityProbeBodyIdentity1", {
    "clientId": "str",
    "clientSecret": "str",
    "kind": "Literal[\"client-credentials\"]",
    "tenantId": NotRequired["str"],
})

RunIdentityProbeBodyIdentity2 = TypedDict("RunIdentityProbeBodyIdentity2", {
    "clientId": "str",
    "clientSecret": NotRequired["str"],
    "kind": "Literal[\"refresh-token\"]",
    "refreshToken": "str",
    "tenantId": NotRequired["str"],
})

RunIdentityProbeBodyLakehouse = TypedDict("RunIdentityProbeBodyLakehouse", {
    "lakehouseId": "str",
    "table": "str",
})

RunIdentityProbeBody = TypedDict("RunIdentityProbeBody", {
    "identity": "Union[RunIdentityProbeBodyIdentity0, RunIdentityProbeBodyIdentity1, RunIdentityProbeBodyIdentity2]",
    "identityType": NotRequired["Literal[\"workspace-identity\", \"service-principal\", \"system-assigned-managed-identity\", \"user-assigned-managed-identity\", \"user\", \"conditional-access\", \"ip-firewall\", \"cross-tenant-guest\"]"],
    "lakehouse": NotRequired["RunIdentityProbeBodyLakehouse"],
    "pipelineId": NotRequired["str"],
    "workspaceId": "str",
})

RunIdentityProbeResult = TypedDict("RunIdentityProbeResult", {
    "passed": "bool",
    "principal": "str",
    "results": "List[IdentityProbeResult]",
})

RunRotationStepBody = TypedDict("RunRotationStepBody", {
    "consumers": NotRequired["List[str]"],
})

SnapshotPolicyBody = TypedDict("SnapshotPolicyBody", {
    "policy": "str",
    "snapshot": "Dict[str, Any]",
})

StartPaginatedReportExportBodyEffectiveIdentity = TypedDict("StartPaginatedReportExportBodyEffectiveIdentity", {
    "roles": NotRequired["List[str]"],
    "username": "str",
})
StartPaginatedReportExportBodyEffectiveIdentity.__doc__ = "tenant admins only (scope admin; anyone else 403): export as this identity instead of your own user principal name"

StartPaginatedReportExportBodyParameterValuesItem = TypedDict("StartPaginatedReportExportBodyParameterValuesItem", {
    "name": "str",
    "value": "Union[str, None]",
})

StartPaginatedReportExportBody = TypedDict("StartPaginatedReportExportBody", {
    "effectiveIdentity": NotRequired["StartPaginatedReportExportBodyEffectiveIdentity"],
    "format": "Literal[\"PDF\", \"WORD\", \"EXCEL\", \"PPTX\", \"CSV\", \"XML\", \"IMAGE\", \"MHTML\", \"ACCESSIBLEPDF\"]",
    "formatSettings": NotRequired["Dict[str, str]"],
    "parameterValues": NotRequired["List[StartPaginatedReportExportBodyParameterValuesItem]"],
})

StartRotationBody = TypedDict("StartRotationBody", {
    "consumers": NotRequired["List[str]"],
    "vaultSecretName": NotRequired["str"],
})

UnassignPlatformWorkspaceResult = TypedDict("UnassignPlatformWorkspaceResult", {
    "unassigned": "str",
    "unboundWorkspaces": "int",
})

UpdateItemBody = TypedDict("UpdateItemBody", {
    "description": NotRequired["str"],
    "displayName": NotRequired["str"],
})

UpdatePaginatedReportDatasourcesBodyUpdateDetailsItemConnectionDetails = TypedDict("UpdatePaginatedReportDatasourcesBodyUpdateDetailsItemConnectionDetails", {
    "database": NotRequired["str"],
    "server": NotRequired["str"],
})

UpdatePaginatedReportDatasourcesBodyUpdateDetailsItem = TypedDict("UpdatePaginatedReportDatasourcesBodyUpdateDetailsItem", {
    "connectionDetails": "UpdatePaginatedReportDatasourcesBodyUpdateDetailsItemConnectionDetails",
    "datasourceName": "str",
})

UpdatePaginatedReportDatasourcesBody = TypedDict("UpdatePaginatedReportDatasourcesBody", {
    "updateDetails": "List[UpdatePaginatedReportDatasourcesBodyUpdateDetailsItem]",
})

UpdateWorkspaceBody = TypedDict("UpdateWorkspaceBody", {
    "description": NotRequired["str"],
    "name": NotRequired["str"],
    "platformWorkspaceId": NotRequired["Union[str, None]"],
})

UpgradeAppBody = TypedDict("UpgradeAppBody", {
    "removeDropped": NotRequired["bool"],
})

VerifyIncidentFixBodyIdentity0 = TypedDict("VerifyIncidentFixBodyIdentity0", {
    "kind": "Literal[\"service\"]",
})

VerifyIncidentFixBodyIdentity1 = TypedDict("VerifyIncidentFixBodyIdentity1", {
    "clientId": "str",
    "clientSecret": "str",
    "kind": "Literal[\"client-credentials\"]",
    "tenantId": NotRequired["str"],
})

VerifyIncidentFixBodyIdentity2 = TypedDict("VerifyIncidentFixBodyIdentity2", {
    "clientId": "str",
    "clientSecret": NotRequired["str"],
    "kind": "Literal[\"refresh-token\"]",
    "refreshToken": "str",
    "tenantId": NotRequired["str"],
})

VerifyIncidentFixBodyLakehouse = TypedDict("VerifyIncidentFixBodyLakehouse", {
    "lakehouseId": "str",
    "table": "str",
})

VerifyIncidentFixBody = TypedDict("VerifyIncidentFixBody", {
    "identity": "Union[VerifyIncidentFixBodyIdentity0, VerifyIncidentFixBodyIdentity1, VerifyIncidentFixBodyIdentity2]",
    "identityType": NotRequired["Literal[\"workspace-identity\", \"service-principal\", \"system-assigned-managed-identity\", \"user-assigned-managed-identity\", \"user\", \"conditional-access\", \"ip-firewall\", \"cross-tenant-guest\"]"],
    "lakehouse": NotRequired["VerifyIncidentFixBodyLakehouse"],
    "pipelineId": "str",
    "workspaceId": "str",
})

WhoamiResult = TypedDict("WhoamiResult", {
    "authMethod": "Literal[\"token\", \"session\"]",
    "csrfToken": NotRequired["str"],
    "groups": "List[str]",
    "scopes": "List[str]",
    "tenantId": "str",
    "tokenId": "Union[str, None]",
    "userId": "str",
    "userName": "str",
    "workspaceIds": "Union[List[str], None]",
})

# The operation table: operationId → (method, path, Python method, pager, kind, envelope, unwrapped key, paged).
OPERATIONS: Dict[str, Operation] = {
    "addFirewallRule": Operation("addFirewallRule", "POST", "/api/admin/identity/workspaces/{workspaceId}/firewall-rules", "add_firewall_rule", None, "json", True, None, False),
    "addRoleAssignment": Operation("addRoleAssignment", "POST", "/api/workspaces/{workspaceId}/role-assignments", "add_role_assignment", None, "json", True, "roleAssignment", False),
    "applyItem": Operation("applyItem", "POST", "/api/workspaces/{workspaceId}/items/{itemId}/apply", "apply_item", None, "json", True, "job", False),
    "approveIncidentChange": Operation("approveIncidentChange", "POST", "/api/admin/identity/incidents/{incidentId}/approvals", "approve_incident_change", None, "json", True, "incident", False),
    "assignApplication": Operation("assignApplication", "POST", "/api/operator/tenants/{tenantId}/applications", "assign_application", None, "json", True, "assignment", False),
    "assignPlatformWorkspace": Operation("assignPlatformWorkspace", "POST", "/api/operator/tenants/{tenantId}/platform-workspaces", "assign_platform_workspace", None, "json", True, "assignment", False),
    "assignTarget": Operation("assignTarget", "POST", "/api/operator/tenants/{tenantId}/targets", "assign_target", None, "json", True, "assignment", False),
    "changeRoleAssignment": Operation("changeRoleAssignment", "PATCH", "/api/workspaces/{workspaceId}/role-assignments/{assignmentId}", "change_role_assignment", None, "json", True, "roleAssignment", False),
    "checkDrift": Operation("checkDrift", "POST", "/api/workspaces/{workspaceId}/drift", "check_drift", None, "json", True, "job", False),
    "checkEgressAddress": Operation("checkEgressAddress", "GET", "/api/admin/identity/workspaces/{workspaceId}/firewall-check", "check_egress_address", None, "json", True, None, False),
    "clonePaginatedReport": Operation("clonePaginatedReport", "POST", "/api/items/paginated-report/{reportId}/clone", "clone_paginated_report", None, "json", True, "report", False),
    "closeIncident": Operation("closeIncident", "POST", "/api/admin/identity/incidents/{incidentId}/close", "close_incident", None, "json", True, "incident", False),
    "completeOidcSignIn": Operation("completeOidcSignIn", "GET", "/api/auth/callback", "complete_oidc_sign_in", None, "redirect", False, None, False),
    "createItem": Operation("createItem", "POST", "/api/workspaces/{workspaceId}/items", "create_item", None, "json", True, "item", False),
    "createPaginatedReportEmbedToken": Operation("createPaginatedReportEmbedToken", "POST", "/api/items/paginated-report/{reportId}/embed-token", "create_paginated_report_embed_token", None, "json", True, None, False),
    "createSession": Operation("createSession", "POST", "/api/session", "create_session", None, "json", True, None, False),
    "createTenant": Operation("createTenant", "POST", "/api/operator/tenants", "create_tenant", None, "json", True, "tenant", False),
    "createTenantAdminToken": Operation("createTenantAdminToken", "POST", "/api/operator/tenants/{tenantId}/admin-tokens", "create_tenant_admin_token", None, "json", True, None, False),
    "createThreadEdge": Operation("createThreadEdge", "POST", "/api/workspaces/{workspaceId}/thread/edges", "create_thread_edge", None, "json", True, "edge", False),
    "createToken": Operation("createToken", "POST", "/api/tokens", "create_token", None, "json", True, None, False),
    "createWorkspace": Operation("createWorkspace", "POST", "/api/workspaces", "create_workspace", None, "json", True, "workspace", False),
    "deleteCredential": Operation("deleteCredential", "DELETE", "/api/admin/identity/credentials/{credentialId}", "delete_credential", None, "json", True, "deleted", False),
    "deleteItem": Operation("deleteItem", "DELETE", "/api/workspaces/{workspaceId}/items/{itemId}", "delete_item", None, "json", True, "deleted", False),
    "deletePaginatedReport": Operation("deletePaginatedReport", "DELETE", "/api/items/paginated-report/{reportId}", "delete_paginated_report", None, "json", True, "deleted", False),
    "deleteSession": Operation("deleteSession", "DELETE", "/api/session", "delete_session", None, "json", True, None, False),
    "deleteThreadEdge": Operation("deleteThreadEdge", "DELETE", "/api/workspaces/{workspaceId}/thread/edges/{edgeId}", "delete_thread_edge", None, "json", True, "deleted", False),
    "deleteWorkspace": Operation("deleteWorkspace", "DELETE", "/api/workspaces/{workspaceId}", "delete_workspace", None, "json", True, "deleted", False),
    "diagnoseIdentityFailure": Operation("diagnoseIdentityFailure", "GET", "/api/admin/identity/diagnose", "diagnose_identity_failure", None, "json", True, "diagnosis", False),
    "diagnoseIdentityFailureBody": Operation("diagnoseIdentityFailureBody", "POST", "/api/admin/identity/diagnose", "diagnose_identity_failure_body", None, "json", True, "diagnosis", False),
    "fileChangeRequest": Operation("fileChangeRequest", "POST", "/api/admin/identity/incidents/{incidentId}/approvals/{approvalId}/change-request", "file_change_request", None, "json", True, "incident", False),
    "getApp": Operation("getApp", "GET", "/api/apps/{appId}", "get_app", None, "json", True, "app", False),
    "getHealth": Operation("getHealth", "GET", "/api/health", "get_health", None, "json", True, None, False),
    "getIdentityChange": Operation("getIdentityChange", "GET", "/api/admin/identity/changes/{changeId}", "get_identity_change", None, "json", True, "change", False),
    "getIncident": Operation("getIncident", "GET", "/api/admin/identity/incidents/{incidentId}", "get_incident", None, "json", True, "incident", False),
    "getInstalledApp": Operation("getInstalledApp", "GET", "/api/workspaces/{workspaceId}/apps/{appId}", "get_installed_app", None, "json", True, "app", False),
    "getInstallJob": Operation("getInstallJob", "GET", "/api/apps/install-jobs/{jobId}", "get_install_job", None, "json", True, "job", False),
    "getItem": Operation("getItem", "GET", "/api/workspaces/{workspaceId}/items/{itemId}", "get_item", None, "json", True, "item", False),
    "getItemContent": Operation("getItemContent", "GET", "/api/workspaces/{workspaceId}/items/{itemId}/content", "get_item_content", None, "json", True, None, False),
    "getJob": Operation("getJob", "GET", "/api/jobs/{jobId}", "get_job", None, "json", True, "job", False),
    "getMetrics": Operation("getMetrics", "GET", "/metrics", "get_metrics", None, "text", False, None, False),
    "getOpenApiDocument": Operation("getOpenApiDocument", "GET", "/api/openapi.json", "get_open_api_document", None, "json", False, None, False),
    "getPaginatedReport": Operation("getPaginatedReport", "GET", "/api/items/paginated-report/{reportId}", "get_paginated_report", None, "json", True, "report", False),
    "getPaginatedReportDefinition": Operation("getPaginatedReportDefinition", "GET", "/api/items/paginated-report/{reportId}/definition", "get_paginated_report_definition", None, "json", True, None, False),
    "getPaginatedReportExport": Operation("getPaginatedReportExport", "GET", "/api/items/paginated-report/{reportId}/exports/{exportId}", "get_paginated_report_export", None, "json", True, "export", False),
    "getPaginatedReportExportFile": Operation("getPaginatedReportExportFile", "GET", "/api/items/paginated-report/{reportId}/exports/{exportId}/file", "get_paginated_report_export_file", None, "binary", False, None, False),
    "getRotation": Operation("getRotation", "GET", "/api/admin/identity/rotations/{rotationId}", "get_rotation", None, "json", True, "rotation", False),
    "getTenant": Operation("getTenant", "GET", "/api/operator/tenants/{tenantId}", "get_tenant", None, "json", True, "tenant", False),
    "getWorkspace": Operation("getWorkspace", "GET", "/api/workspaces/{workspaceId}", "get_workspace", None, "json", True, "workspace", False),
    "grantWorkspaceRole": Operation("grantWorkspaceRole", "POST", "/api/admin/identity/workspaces/{workspaceId}/role-assignments", "grant_workspace_role", None, "json", True, None, False),
    "inspectIdentityToken": Operation("inspectIdentityToken", "POST", "/api/admin/identity/inspect-token", "inspect_identity_token", None, "json", True, None, False),
    "installApp": Operation("installApp", "POST", "/api/apps/{appId}/install", "install_app", None, "json", True, None, False),
    "lastDrift": Operation("lastDrift", "GET", "/api/workspaces/{workspaceId}/drift", "last_drift", None, "json", True, "drift", False),
    "listApps": Operation("listApps", "GET", "/api/apps", "list_apps", None, "json", True, "apps", False),
    "listAuditEvents": Operation("listAuditEvents", "GET", "/api/audit-events", "list_audit_events", "iter_audit_events", "json", True, "auditEvents", True),
    "listCredentials": Operation("listCredentials", "GET", "/api/admin/identity/credentials", "list_credentials", None, "json", True, "credentials", False),
    "listFirewallRules": Operation("listFirewallRules", "GET", "/api/admin/identity/workspaces/{workspaceId}/firewall-rules", "list_firewall_rules", None, "json", True, "rules", False),
    "listIdentityAlerts": Operation("listIdentityAlerts", "GET", "/api/admin/identity/alerts", "list_identity_alerts", None, "json", True, None, False),
    "listIdentityChanges": Operation("listIdentityChanges", "GET", "/api/admin/identity/changes", "list_identity_changes", None, "json", True, "changes", False),
    "listIdentitySignals": Operation("listIdentitySignals", "GET", "/api/admin/identity/signals", "list_identity_signals", None, "json", True, "signals", False),
    "listIncidentEvents": Operation("listIncidentEvents", "GET", "/api/admin/identity/incidents/{incidentId}/events", "list_incident_events", None, "json", True, "events", False),
    "listIncidents": Operation("listIncidents", "GET", "/api/admin/identity/incidents", "list_incidents", None, "json", True, "incidents", False),
    "listInstalledApps": Operation("listInstalledApps", "GET", "/api/workspaces/{workspaceId}/apps", "list_installed_apps", "iter_installed_apps", "json", True, "apps", True),
    "listInstallJobs": Operation("listInstallJobs", "GET", "/api/apps/install-jobs", "list_install_jobs", "iter_install_jobs", "json", True, "jobs", True),
    "listItems": Operation("listItems", "GET", "/api/workspaces/{workspaceId}/items", "list_items", "iter_items", "json", True, "items", True),
    "listItemTypes": Operation("listItemTypes", "GET", "/api/item-types", "list_item_types", None, "json", True, "itemTypes", False),
    "listPaginatedReportDatasources": Operation("listPaginatedReportDatasources", "GET", "/api/items/paginated-report/{reportId}/datasources", "list_paginated_report_datasources", None, "json", True, "datasources", False),
    "listPaginatedReports": Operation("listPaginatedReports", "GET", "/api/items/paginated-report", "list_paginated_reports", None, "json", True, "reports", False),
    "listRoleAssignments": Operation("listRoleAssignments", "GET", "/api/workspaces/{workspaceId}/role-assignments", "list_role_assignments", "iter_role_assignments", "json", True, "roleAssignments", True),
    "listRotations": Operation("listRotations", "GET", "/api/admin/identity/rotations", "list_rotations", None, "json", True, "rotations", False),
    "listTenantApplications": Operation("listTenantApplications", "GET", "/api/operator/tenants/{tenantId}/applications", "list_tenant_applications", None, "json", True, "applications", False),
    "listTenantPlatformWorkspaces": Operation("listTenantPlatformWorkspaces", "GET", "/api/operator/tenants/{tenantId}/platform-workspaces", "list_tenant_platform_workspaces", None, "json", True, "platformWorkspaces", False),
    "listTenants": Operation("listTenants", "GET", "/api/operator/tenants", "list_tenants", "iter_tenants", "json", True, "tenants", True),
    "listTenantTargets": Operation("listTenantTargets", "GET", "/api/operator/tenants/{tenantId}/targets", "list_tenant_targets", None, "json", True, "targets", False),
    "listThreadEdges": Operation("listThreadEdges", "GET", "/api/workspaces/{workspaceId}/thread/edges", "list_thread_edges", None, "json", True, "edges", False),
    "listTokens": Operation("listTokens", "GET", "/api/tokens", "list_tokens", "iter_tokens", "json", True, "tokens", True),
    "listWorkspaceJobs": Operation("listWorkspaceJobs", "GET", "/api/workspaces/{workspaceId}/jobs", "list_workspace_jobs", "iter_workspace_jobs", "json", True, "jobs", True),
    "listWorkspaceRoleAssignments": Operation("listWorkspaceRoleAssignments", "GET", "/api/admin/identity/workspaces/{workspaceId}/role-assignments", "list_workspace_role_assignments", None, "json", True, "assignments", False),
    "listWorkspaces": Operation("listWorkspaces", "GET", "/api/workspaces", "list_workspaces", "iter_workspaces", "json", True, "workspaces", True),
    "openIncident": Operation("openIncident", "POST", "/api/admin/identity/incidents", "open_incident", None, "json", True, "incident", False),
    "planInstall": Operation("planInstall", "POST", "/api/apps/{appId}/plan", "plan_install", None, "json", True, "plan", False),
    "previewPaginatedReport": Operation("previewPaginatedReport", "POST", "/api/items/paginated-report-preview", "preview_paginated_report", None, "binary", False, None, False),
    "publishPaginatedReport": Operation("publishPaginatedReport", "POST", "/api/items/paginated-report", "publish_paginated_report", None, "json", True, "report", False),
    "putItemContent": Operation("putItemContent", "PUT", "/api/workspaces/{workspaceId}/items/{itemId}/content", "put_item_content", None, "json", True, "etag", False),
    "putPaginatedReportDefinition": Operation("putPaginatedReportDefinition", "PUT", "/api/items/paginated-report/{reportId}/definition", "put_paginated_report_definition", None, "json", True, None, False),
    "recordIncidentChange": Operation("recordIncidentChange", "POST", "/api/admin/identity/incidents/{incidentId}/changes", "record_incident_change", None, "json", True, "change", False),
    "registerCredential": Operation("registerCredential", "POST", "/api/admin/identity/credentials", "register_credential", None, "json", True, "credential", False),
    "removeFirewallRule": Operation("removeFirewallRule", "DELETE", "/api/admin/identity/workspaces/{workspaceId}/firewall-rules/{ruleId}", "remove_firewall_rule", None, "json", True, "change", False),
    "removeRoleAssignment": Operation("removeRoleAssignment", "DELETE", "/api/workspaces/{workspaceId}/role-assignments/{assignmentId}", "remove_role_assignment", None, "json", True, "deleted", False),
    "retryInstallStep": Operation("retryInstallStep", "POST", "/api/apps/install-jobs/{jobId}/steps/{stepIndex}/retry", "retry_install_step", None, "json", True, "job", False),
    "retryJobStep": Operation("retryJobStep", "POST", "/api/jobs/{jobId}/steps/{stepIndex}/retry", "retry_job_step", None, "json", True, "job", False),
    "revokeToken": Operation("revokeToken", "DELETE", "/api/tokens/{tokenId}", "revoke_token", None, "json", True, "revoked", False),
    "rollBackIdentityChange": Operation("rollBackIdentityChange", "POST", "/api/admin/identity/changes/{changeId}/rollback", "roll_back_identity_change", None, "json", True, "change", False),
    "rollBackRotation": Operation("rollBackRotation", "POST", "/api/admin/identity/rotations/{rotationId}/rollback", "roll_back_rotation", None, "json", True, "rotation", False),
    "runIdentityProbe": Operation("runIdentityProbe", "POST", "/api/admin/identity/probes", "run_identity_probe", None, "json", True, None, False),
    "runRotationStep": Operation("runRotationStep", "POST", "/api/admin/identity/rotations/{rotationId}/steps/{step}", "run_rotation_step", None, "json", True, "rotation", False),
    "searchPrincipals": Operation("searchPrincipals", "GET", "/api/principals", "search_principals", "iter_search_principals", "json", True, "principals", True),
    "snapshotPolicy": Operation("snapshotPolicy", "POST", "/api/admin/identity/incidents/{incidentId}/snapshots", "snapshot_policy", None, "json", True, "incident", False),
    "startOidcSignIn": Operation("startOidcSignIn", "GET", "/api/auth/login", "start_oidc_sign_in", None, "redirect", False, None, False),
    "startPaginatedReportExport": Operation("startPaginatedReportExport", "POST", "/api/items/paginated-report/{reportId}/exports", "start_paginated_report_export", None, "json", True, "export", False),
    "startRotation": Operation("startRotation", "POST", "/api/admin/identity/credentials/{credentialId}/rotations", "start_rotation", None, "json", True, "rotation", False),
    "streamInstallJobEvents": Operation("streamInstallJobEvents", "GET", "/api/apps/install-jobs/{jobId}/events", "stream_install_job_events", None, "sse", False, None, False),
    "streamJobEvents": Operation("streamJobEvents", "GET", "/api/jobs/{jobId}/events", "stream_job_events", None, "sse", False, None, False),
    "unassignApplication": Operation("unassignApplication", "DELETE", "/api/operator/tenants/{tenantId}/applications/{clientId}", "unassign_application", None, "json", True, "unassigned", False),
    "unassignPlatformWorkspace": Operation("unassignPlatformWorkspace", "DELETE", "/api/operator/tenants/{tenantId}/platform-workspaces/{platformWorkspaceId}", "unassign_platform_workspace", None, "json", True, None, False),
    "unassignTarget": Operation("unassignTarget", "DELETE", "/api/operator/tenants/{tenantId}/targets/{targetId}", "unassign_target", None, "json", True, "unassigned", False),
    "uninstallApp": Operation("uninstallApp", "DELETE", "/api/workspaces/{workspaceId}/apps/{appId}", "uninstall_app", None, "json", True, "job", False),
    "updateItem": Operation("updateItem", "PATCH", "/api/workspaces/{workspaceId}/items/{itemId}", "update_item", None, "json", True, "item", False),
    "updatePaginatedReportDatasources": Operation("updatePaginatedReportDatasources", "POST", "/api/items/paginated-report/{reportId}/datasources", "update_paginated_report_datasources", None, "json", True, "datasources", False),
    "updateWorkspace": Operation("updateWorkspace", "PATCH", "/api/workspaces/{workspaceId}", "update_workspace", None, "json", True, "workspace", False),
    "upgradeApp": Operation("upgradeApp", "POST", "/api/workspaces/{workspaceId}/apps/{appId}/upgrade", "upgrade_app", None, "json", True, "job", False),
    "verifyIncidentFix": Operation("verifyIncidentFix", "POST", "/api/admin/identity/incidents/{incidentId}/verify", "verify_incident_fix", None, "json", True, "incident", False),
    "whoami": Operation("whoami", "GET", "/api/whoami", "whoami", None, "json", True, None, False),
}


class Operations(SyncCore):
    """Every documented operation, synchronous."""

    OPERATIONS = OPERATIONS

    def add_firewall_rule(self, workspace_id: str, body: AddFirewallRuleBody) -> AddFirewallRuleResult:
        """Add a firewall rule (journaled; rolling back deletes it) (POST /api/admin/identity/workspaces/{workspaceId}/firewall-rules)."""
        return self._call("addFirewallRule", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def add_role_assignment(self, workspace_id: str, body: AddRoleAssignmentBody) -> RoleAssignment:
        """Give a user of the tenant or a group a role on the workspace: Member for Contributor and Viewer assignments, Admin for Member and Admin ones (403 workspace_role_required naming the role needed); 409 conflict when the principal already has one (POST /api/workspaces/{workspaceId}/role-assignments)."""
        return self._call("addRoleAssignment", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def apply_item(self, workspace_id: str, item_id: str) -> Job:
        """Push the item’s stored content to its live resource (creating it when there is none): 202 with the apply job to poll (POST /api/workspaces/{workspaceId}/items/{itemId}/apply)."""
        return self._call("applyItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def approve_incident_change(self, incident_id: str, body: ApproveIncidentChangeBody) -> IdentityIncident:
        """Record an approval (verbal only for SEV1: a retroactive change request is then due within 24 hours) (POST /api/admin/identity/incidents/{incidentId}/approvals)."""
        return self._call("approveIncidentChange", {"incidentId": incident_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def assign_application(self, tenant_id: str, body: AssignApplicationBody) -> ResourceAssignment:
        """Assign an app registration (and the vault secret its rotations write) to the tenant (201; 200 when it already is; 409 when another tenant holds either) (POST /api/operator/tenants/{tenantId}/applications)."""
        return self._call("assignApplication", {"tenantId": tenant_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def assign_platform_workspace(self, tenant_id: str, body: AssignPlatformWorkspaceBody) -> ResourceAssignment:
        """Assign a platform workspace to the tenant (201; 200 when it already is; 409 when another tenant holds it) (POST /api/operator/tenants/{tenantId}/platform-workspaces)."""
        return self._call("assignPlatformWorkspace", {"tenantId": tenant_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def assign_target(self, tenant_id: str, body: AssignTargetBody) -> ResourceAssignment:
        """Assign an install target to the tenant (201; 200 when it already is; 409 when another tenant holds it) (POST /api/operator/tenants/{tenantId}/targets)."""
        return self._call("assignTarget", {"tenantId": tenant_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def change_role_assignment(self, workspace_id: str, assignment_id: str, body: ChangeRoleAssignmentBody) -> RoleAssignment:
        """Change an assignment’s role: Member for Contributor and Viewer assignments, Admin for Member and Admin ones (403 workspace_role_required naming the role needed) (both the old and the new role); 409 last_admin for the last Admin (PATCH /api/workspaces/{workspaceId}/role-assignments/{assignmentId})."""
        return self._call("changeRoleAssignment", {"workspaceId": workspace_id, "assignmentId": assignment_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def check_drift(self, workspace_id: str) -> Job:
        """Check every live item of the workspace against its backing service: 202 with the drift job to poll (POST /api/workspaces/{workspaceId}/drift)."""
        return self._call("checkDrift", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def check_egress_address(self, workspace_id: str, *, ip: Optional[str] = None) -> CheckEgressAddressResult:
        """Whether an egress address is inside the workspace’s firewall ranges (GET /api/admin/identity/workspaces/{workspaceId}/firewall-check)."""
        return self._call("checkEgressAddress", {"workspaceId": workspace_id}, query={"ip": ip}, headers=None, body=None)  # type: ignore[no-any-return]

    def clone_paginated_report(self, report_id: str, body: ClonePaginatedReportBody, *, workspace_id: Optional[str] = None) -> PaginatedReport:
        """Copy a report under a new name, into this or another workspace of the tenant (POST /api/items/paginated-report/{reportId}/clone)."""
        return self._call("clonePaginatedReport", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    def close_incident(self, incident_id: str) -> IdentityIncident:
        """Close the incident (only after monitoring for twice its duration) (POST /api/admin/identity/incidents/{incidentId}/close)."""
        return self._call("closeIncident", {"incidentId": incident_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def complete_oidc_sign_in(self, *, code: Optional[str] = None, state: Optional[str] = None, error: Optional[str] = None, error_description: Optional[str] = None) -> str:
        """Where the identity provider sends the browser back: exchanges the code, checks the id token, sets the session cookie and redirects to the console (GET /api/auth/callback)."""
        return self._call("completeOidcSignIn", {}, query={"code": code, "state": state, "error": error, "error_description": error_description}, headers=None, body=None)  # type: ignore[no-any-return]

    def create_item(self, workspace_id: str, body: CreateItemBody) -> Item:
        """Create an item in a workspace (POST /api/workspaces/{workspaceId}/items)."""
        return self._call("createItem", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def create_paginated_report_embed_token(self, report_id: str, body: CreatePaginatedReportEmbedTokenBody, *, workspace_id: Optional[str] = None) -> CreatePaginatedReportEmbedTokenResult:
        """A view embed token for the report (GenerateToken, accessLevel View) (POST /api/items/paginated-report/{reportId}/embed-token)."""
        return self._call("createPaginatedReportEmbedToken", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    def create_session(self, body: CreateSessionBody) -> CreateSessionResult:
        """Sign in to the console with an API token; sets the session cookie (POST /api/session)."""
        return self._call("createSession", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def create_tenant(self, body: CreateTenantBody) -> Tenant:
        """Create a tenant (it sees nothing of the others; assign it platform workspaces and targets next) (POST /api/operator/tenants)."""
        return self._call("createTenant", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def create_tenant_admin_token(self, tenant_id: str, body: CreateTenantAdminTokenBody) -> CreateTenantAdminTokenResult:
        """An admin token of the tenant’s first admin (created when absent), for automation before anyone signs in; the secret is shown once (POST /api/operator/tenants/{tenantId}/admin-tokens)."""
        return self._call("createTenantAdminToken", {"tenantId": tenant_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def create_thread_edge(self, workspace_id: str, body: CreateThreadEdgeBody) -> ThreadEdge:
        """Add a lineage edge between two items of the workspace (POST /api/workspaces/{workspaceId}/thread/edges)."""
        return self._call("createThreadEdge", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def create_token(self, body: CreateTokenBody) -> CreateTokenResult:
        """Create a scoped API token; the secret is shown only in this answer (POST /api/tokens)."""
        return self._call("createToken", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def create_workspace(self, body: CreateWorkspaceBody) -> Workspace:
        """Create a workspace; the caller becomes its Admin (a token limited to workspaces: 403 workspace_limited_token; a name another workspace of the tenant holds, ignoring case: 409 duplicate_workspace, field name) (POST /api/workspaces)."""
        return self._call("createWorkspace", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def delete_credential(self, credential_id: str) -> str:
        """Forget a registered credential (the secret itself is untouched) (DELETE /api/admin/identity/credentials/{credentialId})."""
        return self._call("deleteCredential", {"credentialId": credential_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def delete_item(self, workspace_id: str, item_id: str, *, delete_live: Optional[Literal["true", "false"]] = None) -> str:
        """Delete an item; with deleteLive=true its live resource too, as an uninstall job of the item (202) (DELETE /api/workspaces/{workspaceId}/items/{itemId})."""
        return self._call("deleteItem", {"workspaceId": workspace_id, "itemId": item_id}, query={"deleteLive": delete_live}, headers=None, body=None)  # type: ignore[no-any-return]

    def delete_paginated_report(self, report_id: str, *, workspace_id: Optional[str] = None) -> str:
        """Delete a paginated report in the reporting service (DELETE /api/items/paginated-report/{reportId})."""
        return self._call("deletePaginatedReport", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def delete_session(self) -> DeleteSessionResult:
        """Sign out: end the console session (DELETE /api/session)."""
        return self._call("deleteSession", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def delete_thread_edge(self, workspace_id: str, edge_id: str) -> str:
        """Remove a lineage edge (DELETE /api/workspaces/{workspaceId}/thread/edges/{edgeId})."""
        return self._call("deleteThreadEdge", {"workspaceId": workspace_id, "edgeId": edge_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def delete_workspace(self, workspace_id: str, *, force: Optional[Literal["true", "false"]] = None, purge_data: Optional[Literal["true", "false"]] = None) -> str:
        """Delete a workspace and its items; with installed apps 409 workspace_has_apps, or with force=true a job that uninstalls them first (DELETE /api/workspaces/{workspaceId})."""
        return self._call("deleteWorkspace", {"workspaceId": workspace_id}, query={"force": force, "purgeData": purge_data}, headers=None, body=None)  # type: ignore[no-any-return]

    def diagnose_identity_failure(self, *, status: Optional[int] = None, code: Optional[str] = None, body: Optional[str] = None, identity_type: Optional[Literal["workspace-identity", "service-principal", "system-assigned-managed-identity", "user-assigned-managed-identity", "user", "conditional-access", "ip-firewall", "cross-tenant-guest"]] = None, service: Optional[str] = None) -> IdentityDiagnosis:
        """Likely causes, first checks and actions for a failing answer (the link of a failed or remediation install step) (GET /api/admin/identity/diagnose)."""
        return self._call("diagnoseIdentityFailure", {}, query={"status": status, "code": code, "body": body, "identityType": identity_type, "service": service}, headers=None, body=None)  # type: ignore[no-any-return]

    def diagnose_identity_failure_body(self, body: DiagnoseIdentityFailureBodyBody) -> IdentityDiagnosis:
        """Diagnose a failing answer sent in full (status, body, code, identity type) (POST /api/admin/identity/diagnose)."""
        return self._call("diagnoseIdentityFailureBody", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def file_change_request(self, incident_id: str, approval_id: str, body: FileChangeRequestBody) -> IdentityIncident:
        """File the retroactive change request of a verbal approval (POST /api/admin/identity/incidents/{incidentId}/approvals/{approvalId}/change-request)."""
        return self._call("fileChangeRequest", {"incidentId": incident_id, "approvalId": approval_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def get_app(self, app_id: str) -> GetAppResult:
        """One app: its items, what installing it provisions (live or stored, and where), its thread (GET /api/apps/{appId})."""
        return self._call("getApp", {"appId": app_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_health(self) -> GetHealthResult:
        """Liveness, the store, the cloud and (in the sandbox) its admin address (GET /api/health)."""
        return self._call("getHealth", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_identity_change(self, change_id: str) -> IdentityChange:
        """One journaled change with its inverse (GET /api/admin/identity/changes/{changeId})."""
        return self._call("getIdentityChange", {"changeId": change_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_incident(self, incident_id: str) -> IdentityIncident:
        """An incident with its approvals, change requests, changes and verification (GET /api/admin/identity/incidents/{incidentId})."""
        return self._call("getIncident", {"incidentId": incident_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_installed_app(self, workspace_id: str, app_id: str) -> InstalledApp:
        """Read an app installed in a workspace: its version, the catalog’s current version, status and items (GET /api/workspaces/{workspaceId}/apps/{appId})."""
        return self._call("getInstalledApp", {"workspaceId": workspace_id, "appId": app_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_install_job(self, job_id: str) -> InstallJob:
        """Poll an install job (every 5 s); provision is present once provisioning completes (GET /api/apps/install-jobs/{jobId})."""
        return self._call("getInstallJob", {"jobId": job_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_item(self, workspace_id: str, item_id: str) -> Item:
        """Read an item (GET /api/workspaces/{workspaceId}/items/{itemId})."""
        return self._call("getItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_item_content(self, workspace_id: str, item_id: str) -> GetItemContentResult:
        """Read an item’s stored content; the ETag header versions it (GET /api/workspaces/{workspaceId}/items/{itemId}/content)."""
        return self._call("getItemContent", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_job(self, job_id: str) -> Job:
        """Poll a job of any kind (install, upgrade, uninstall, apply, drift) with its steps and their results (GET /api/jobs/{jobId})."""
        return self._call("getJob", {"jobId": job_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_metrics(self) -> str:
        """Prometheus text metrics (scope metrics, or the deployment’s SVC_METRICS_TOKEN as the bearer) (GET /metrics)."""
        return self._call("getMetrics", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_open_api_document(self) -> GetOpenApiDocumentResult:
        """This OpenAPI 3.1 document; servers[0] is this deployment (GET /api/openapi.json)."""
        return self._call("getOpenApiDocument", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_paginated_report(self, report_id: str, *, workspace_id: Optional[str] = None) -> PaginatedReport:
        """A paginated report’s metadata: name, type, dataset, web and embed addresses (GET /api/items/paginated-report/{reportId})."""
        return self._call("getPaginatedReport", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def get_paginated_report_definition(self, report_id: str, *, workspace_id: Optional[str] = None) -> GetPaginatedReportDefinitionResult:
        """The report’s RDL (downloaded through Export), its ETag and its parameters (GET /api/items/paginated-report/{reportId}/definition)."""
        return self._call("getPaginatedReportDefinition", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def get_paginated_report_export(self, report_id: str, export_id: str, *, workspace_id: Optional[str] = None) -> ReportExport:
        """An export’s status and progress; Retry-After (seconds) while it is unfinished (GET /api/items/paginated-report/{reportId}/exports/{exportId})."""
        return self._call("getPaginatedReportExport", {"reportId": report_id, "exportId": export_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def get_paginated_report_export_file(self, report_id: str, export_id: str, *, workspace_id: Optional[str] = None) -> bytes:
        """The exported file, with its content type and a file name (409 until the export has Succeeded) (GET /api/items/paginated-report/{reportId}/exports/{exportId}/file)."""
        return self._call("getPaginatedReportExportFile", {"reportId": report_id, "exportId": export_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def get_rotation(self, rotation_id: str) -> IdentityRotation:
        """A rotation: steps done, the next step, its log (GET /api/admin/identity/rotations/{rotationId})."""
        return self._call("getRotation", {"rotationId": rotation_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_tenant(self, tenant_id: str) -> Tenant:
        """A tenant (GET /api/operator/tenants/{tenantId})."""
        return self._call("getTenant", {"tenantId": tenant_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def get_workspace(self, workspace_id: str) -> Workspace:
        """Read a workspace (GET /api/workspaces/{workspaceId})."""
        return self._call("getWorkspace", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def grant_workspace_role(self, workspace_id: str, body: GrantWorkspaceRoleBody) -> GrantWorkspaceRoleResult:
        """Grant a workspace role to a principal (journaled; rolling back deletes the assignment) (POST /api/admin/identity/workspaces/{workspaceId}/role-assignments)."""
        return self._call("grantWorkspaceRole", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def inspect_identity_token(self, body: InspectIdentityTokenBody) -> InspectIdentityTokenResult:
        """Decode a token (never stored or logged) and check aud, appid, oid, tid, roles, wids and exp (POST /api/admin/identity/inspect-token)."""
        return self._call("inspectIdentityToken", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def install_app(self, app_id: str, body: InstallAppBody) -> InstallAppResult:
        """Install a curated app into a workspace; answers 202 at once with the job id to poll (POST /api/apps/{appId}/install)."""
        return self._call("installApp", {"appId": app_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def last_drift(self, workspace_id: str) -> LastDriftResult:
        """The workspace’s last drift check: its job and the verdict per live item (GET /api/workspaces/{workspaceId}/drift)."""
        return self._call("lastDrift", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_apps(self) -> List[AppSummary]:
        """The curated apps (GET /api/apps)."""
        return self._call("listApps", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_audit_events(self, *, workspace_id: Optional[str] = None, actor: Optional[str] = None, kind: Optional[str] = None, since: Optional[str] = None, until: Optional[str] = None, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[AuditEvent]:
        """The tenant’s audit trail, newest first: access changes, destructive and outward operations, sign-ins (GET /api/audit-events)."""
        return self._call("listAuditEvents", {}, query={"workspaceId": workspace_id, "actor": actor, "kind": kind, "since": since, "until": until, "cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_audit_events(self, *, workspace_id: Optional[str] = None, actor: Optional[str] = None, kind: Optional[str] = None, since: Optional[str] = None, until: Optional[str] = None, limit: Optional[int] = None) -> Iterator[AuditEvent]:
        """Every entry of list_audit_events, page after page."""
        return self._paginate("listAuditEvents", {}, query={"workspaceId": workspace_id, "actor": actor, "kind": kind, "since": since, "until": until, "limit": limit})

    def list_credentials(self) -> List[IdentityCredential]:
        """Registered service-principal credentials (metadata only), soonest expiry first (GET /api/admin/identity/credentials)."""
        return self._call("listCredentials", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_firewall_rules(self, workspace_id: str) -> List[ListFirewallRulesResultItem]:
        """The platform workspace’s firewall rules (GET /api/admin/identity/workspaces/{workspaceId}/firewall-rules)."""
        return self._call("listFirewallRules", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_identity_alerts(self) -> ListIdentityAlertsResult:
        """Secret expiry alerts at 90, 30 and 7 days remaining (the console banner) (GET /api/admin/identity/alerts)."""
        return self._call("listIdentityAlerts", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_identity_changes(self, *, incident_id: Optional[str] = None) -> List[IdentityChange]:
        """The change journal (newest first) (GET /api/admin/identity/changes)."""
        return self._call("listIdentityChanges", {}, query={"incidentId": incident_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def list_identity_signals(self, *, since: Optional[str] = None, principal: Optional[str] = None) -> List[IdentitySignal]:
        """Backing calls refused on authentication or authorization, of the caller’s tenant (every tenant’s for the operator); newest first, never a token (GET /api/admin/identity/signals)."""
        return self._call("listIdentitySignals", {}, query={"since": since, "principal": principal}, headers=None, body=None)  # type: ignore[no-any-return]

    def list_incident_events(self, incident_id: str) -> List[ListIncidentEventsResultItem]:
        """The incident’s timeline (GET /api/admin/identity/incidents/{incidentId}/events)."""
        return self._call("listIncidentEvents", {"incidentId": incident_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_incidents(self) -> List[IdentityIncident]:
        """Identity incidents, newest first (GET /api/admin/identity/incidents)."""
        return self._call("listIncidents", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_installed_apps(self, workspace_id: str, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[InstalledApp]:
        """List the apps installed in a workspace, with their status and items (GET /api/workspaces/{workspaceId}/apps)."""
        return self._call("listInstalledApps", {"workspaceId": workspace_id}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_installed_apps(self, workspace_id: str, *, limit: Optional[int] = None) -> Iterator[InstalledApp]:
        """Every entry of list_installed_apps, page after page."""
        return self._paginate("listInstalledApps", {"workspaceId": workspace_id}, query={"limit": limit})

    def list_install_jobs(self, *, cursor: Optional[str] = None, limit: Optional[int] = None, workspace_id: Optional[str] = None) -> Page[InstallJob]:
        """List install jobs, optionally of one workspace (GET /api/apps/install-jobs)."""
        return self._call("listInstallJobs", {}, query={"cursor": cursor, "limit": limit, "workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_install_jobs(self, *, limit: Optional[int] = None, workspace_id: Optional[str] = None) -> Iterator[InstallJob]:
        """Every entry of list_install_jobs, page after page."""
        return self._paginate("listInstallJobs", {}, query={"limit": limit, "workspaceId": workspace_id})

    def list_items(self, workspace_id: str, *, cursor: Optional[str] = None, limit: Optional[int] = None, item_type: Optional[str] = None) -> Page[Item]:
        """List the items of a workspace (GET /api/workspaces/{workspaceId}/items)."""
        return self._call("listItems", {"workspaceId": workspace_id}, query={"cursor": cursor, "limit": limit, "itemType": item_type}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_items(self, workspace_id: str, *, limit: Optional[int] = None, item_type: Optional[str] = None) -> Iterator[Item]:
        """Every entry of list_items, page after page."""
        return self._paginate("listItems", {"workspaceId": workspace_id}, query={"limit": limit, "itemType": item_type})

    def list_item_types(self) -> List[ListItemTypesResultItem]:
        """Every item type, and whether an install provisions it live (GET /api/item-types)."""
        return self._call("listItemTypes", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_paginated_report_datasources(self, report_id: str, *, workspace_id: Optional[str] = None) -> List[ReportDatasource]:
        """The report’s data sources as the reporting service binds them (GET /api/items/paginated-report/{reportId}/datasources)."""
        return self._call("listPaginatedReportDatasources", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def list_paginated_reports(self, *, workspace_id: Optional[str] = None) -> List[PaginatedReport]:
        """The paginated reports of a workspace (the reporting service’s list, kept to reportType PaginatedReport), and the reporting workspace they live in (GET /api/items/paginated-report)."""
        return self._call("listPaginatedReports", {}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def list_role_assignments(self, workspace_id: str, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[RoleAssignment]:
        """List the workspace’s role assignments (GET /api/workspaces/{workspaceId}/role-assignments)."""
        return self._call("listRoleAssignments", {"workspaceId": workspace_id}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_role_assignments(self, workspace_id: str, *, limit: Optional[int] = None) -> Iterator[RoleAssignment]:
        """Every entry of list_role_assignments, page after page."""
        return self._paginate("listRoleAssignments", {"workspaceId": workspace_id}, query={"limit": limit})

    def list_rotations(self, *, credential_id: Optional[str] = None) -> List[IdentityRotation]:
        """Rotations, newest first (of one credential with credentialId): state, steps done, the next step (GET /api/admin/identity/rotations)."""
        return self._call("listRotations", {}, query={"credentialId": credential_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def list_tenant_applications(self, tenant_id: str) -> List[ResourceAssignment]:
        """The app registrations whose secrets the tenant’s admins may register and rotate, each with its vault secret (GET /api/operator/tenants/{tenantId}/applications)."""
        return self._call("listTenantApplications", {"tenantId": tenant_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_tenant_platform_workspaces(self, tenant_id: str) -> List[ResourceAssignment]:
        """The platform workspaces (and their reporting groups) assigned to the tenant; the default serves its unbound workspaces (GET /api/operator/tenants/{tenantId}/platform-workspaces)."""
        return self._call("listTenantPlatformWorkspaces", {"tenantId": tenant_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_tenants(self, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[Tenant]:
        """Every tenant of the deployment, with how many platform workspaces and targets each is assigned (GET /api/operator/tenants)."""
        return self._call("listTenants", {}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_tenants(self, *, limit: Optional[int] = None) -> Iterator[Tenant]:
        """Every entry of list_tenants, page after page."""
        return self._paginate("listTenants", {}, query={"limit": limit})

    def list_tenant_targets(self, tenant_id: str) -> List[ResourceAssignment]:
        """The install targets assigned to the tenant: KQL clusters, search services, warehouses, lakes (the first of each kind is its shared set) (GET /api/operator/tenants/{tenantId}/targets)."""
        return self._call("listTenantTargets", {"tenantId": tenant_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_thread_edges(self, workspace_id: str) -> List[ThreadEdge]:
        """The lineage edges of a workspace (GET /api/workspaces/{workspaceId}/thread/edges)."""
        return self._call("listThreadEdges", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_tokens(self, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[ApiToken]:
        """List live API tokens (never their secrets): the caller’s own with the tokens scope, every one of the tenant with admin (GET /api/tokens)."""
        return self._call("listTokens", {}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_tokens(self, *, limit: Optional[int] = None) -> Iterator[ApiToken]:
        """Every entry of list_tokens, page after page."""
        return self._paginate("listTokens", {}, query={"limit": limit})

    def list_workspace_jobs(self, workspace_id: str, *, cursor: Optional[str] = None, limit: Optional[int] = None, kind: Optional[Literal["install", "upgrade", "uninstall", "apply", "drift"]] = None) -> Page[Job]:
        """List the jobs of a workspace, oldest first, optionally of one kind (GET /api/workspaces/{workspaceId}/jobs)."""
        return self._call("listWorkspaceJobs", {"workspaceId": workspace_id}, query={"cursor": cursor, "limit": limit, "kind": kind}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_workspace_jobs(self, workspace_id: str, *, limit: Optional[int] = None, kind: Optional[Literal["install", "upgrade", "uninstall", "apply", "drift"]] = None) -> Iterator[Job]:
        """Every entry of list_workspace_jobs, page after page."""
        return self._paginate("listWorkspaceJobs", {"workspaceId": workspace_id}, query={"limit": limit, "kind": kind})

    def list_workspace_role_assignments(self, workspace_id: str) -> List[ListWorkspaceRoleAssignmentsResultItem]:
        """Role assignments on the platform workspace (GET /api/admin/identity/workspaces/{workspaceId}/role-assignments)."""
        return self._call("listWorkspaceRoleAssignments", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def list_workspaces(self, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[Workspace]:
        """List the workspaces of the caller’s tenant that the caller may see (a role, or the admin scope), with its role on each (GET /api/workspaces)."""
        return self._call("listWorkspaces", {}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_workspaces(self, *, limit: Optional[int] = None) -> Iterator[Workspace]:
        """Every entry of list_workspaces, page after page."""
        return self._paginate("listWorkspaces", {}, query={"limit": limit})

    def open_incident(self, body: OpenIncidentBody) -> IdentityIncident:
        """Open an incident; its severity follows SPEC.md’s rules over the recorded signals and the stated facts (POST /api/admin/identity/incidents)."""
        return self._call("openIncident", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def plan_install(self, app_id: str, body: PlanInstallBody) -> InstallPlan:
        """What installing the app would do, per item (create, update with a diff, no-change, blocked with the gate), changing nothing (POST /api/apps/{appId}/plan)."""
        return self._call("planInstall", {"appId": app_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def preview_paginated_report(self, body: PreviewPaginatedReportBody, *, workspace_id: Optional[str] = None) -> bytes:
        """Render a draft RDL without publishing it: checked like a publish (400 invalid_rdl naming the line), imported as a short-lived draft report that lists never show, exported (with your effective identity over a semantic model), answered as the file, and deleted again (POST /api/items/paginated-report-preview)."""
        return self._call("previewPaginatedReport", {}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    def publish_paginated_report(self, body: PublishPaginatedReportBody, *, workspace_id: Optional[str] = None) -> PaginatedReport:
        """Publish a new paginated report from an RDL definition (import with nameConflict Abort) (POST /api/items/paginated-report)."""
        return self._call("publishPaginatedReport", {}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    def put_item_content(self, workspace_id: str, item_id: str, body: PutItemContentBody, *, if_match: str) -> str:
        """Save an item’s content; If-Match must carry the ETag read (428 without it, 412 when it is stale) (PUT /api/workspaces/{workspaceId}/items/{itemId}/content)."""
        return self._call("putItemContent", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers={"if-match": if_match}, body=body)  # type: ignore[no-any-return]

    def put_paginated_report_definition(self, report_id: str, body: PutPaginatedReportDefinitionBody, *, workspace_id: Optional[str] = None, if_match: str) -> PutPaginatedReportDefinitionResult:
        """Publish a changed RDL back (import with Overwrite, waited for); If-Match must carry the ETag read (428 without it, 412 when stale); invalid RDL is 400 naming the line and element (PUT /api/items/paginated-report/{reportId}/definition)."""
        return self._call("putPaginatedReportDefinition", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers={"if-match": if_match}, body=body)  # type: ignore[no-any-return]

    def record_incident_change(self, incident_id: str, body: RecordIncidentChangeBody) -> IdentityChange:
        """Record a change made for the incident (a conditional-access change needs an approval and a snapshot first) (POST /api/admin/identity/incidents/{incidentId}/changes)."""
        return self._call("recordIncidentChange", {"incidentId": incident_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def register_credential(self, body: RegisterCredentialBody) -> IdentityCredential:
        """Register a service-principal credential by metadata (client id, key id, expiry; no secret value) (POST /api/admin/identity/credentials)."""
        return self._call("registerCredential", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def remove_firewall_rule(self, workspace_id: str, rule_id: str, *, incident_id: Optional[str] = None) -> IdentityChange:
        """Remove a firewall rule (journaled; rolling back adds it again) (DELETE /api/admin/identity/workspaces/{workspaceId}/firewall-rules/{ruleId})."""
        return self._call("removeFirewallRule", {"workspaceId": workspace_id, "ruleId": rule_id}, query={"incidentId": incident_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def remove_role_assignment(self, workspace_id: str, assignment_id: str) -> bool:
        """Remove an assignment: Member for Contributor and Viewer assignments, Admin for Member and Admin ones (403 workspace_role_required naming the role needed); 409 last_admin for the last Admin (DELETE /api/workspaces/{workspaceId}/role-assignments/{assignmentId})."""
        return self._call("removeRoleAssignment", {"workspaceId": workspace_id, "assignmentId": assignment_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def retry_install_step(self, job_id: str, step_index: str) -> InstallJob:
        """Re-open one provisioning step (after fixing its gate): 202 with the job running again; poll it like an install until the worker has run the step (POST /api/apps/install-jobs/{jobId}/steps/{stepIndex}/retry)."""
        return self._call("retryInstallStep", {"jobId": job_id, "stepIndex": step_index}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def retry_job_step(self, job_id: str, step_index: str) -> Job:
        """Re-open a failed or remediation step of a finished job: 202 with the job running again (POST /api/jobs/{jobId}/steps/{stepIndex}/retry)."""
        return self._call("retryJobStep", {"jobId": job_id, "stepIndex": step_index}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def revoke_token(self, token_id: str) -> str:
        """Revoke a token, effective on the next request: one of the caller’s own with the tokens scope, any of the tenant with admin; another user’s token is 404 without admin (DELETE /api/tokens/{tokenId})."""
        return self._call("revokeToken", {"tokenId": token_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def roll_back_identity_change(self, change_id: str) -> IdentityChange:
        """Perform a change’s inverse (delete the added rule, delete the added role assignment, …) (POST /api/admin/identity/changes/{changeId}/rollback)."""
        return self._call("rollBackIdentityChange", {"changeId": change_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def roll_back_rotation(self, rotation_id: str) -> IdentityRotation:
        """Roll back a rotation before the old secret is deleted: remove the new secret, restore the vault’s previous version (POST /api/admin/identity/rotations/{rotationId}/rollback)."""
        return self._call("rollBackRotation", {"rotationId": rotation_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def run_identity_probe(self, body: RunIdentityProbeBody) -> RunIdentityProbeResult:
        """Acquire a token as an identity, read the workspace, count a lakehouse table, run a pipeline; each with its result and time (POST /api/admin/identity/probes)."""
        return self._call("runIdentityProbe", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def run_rotation_step(self, rotation_id: str, step: str, body: RunRotationStepBody) -> IdentityRotation:
        """Run the next step: restart-consumers, verify, delete-old-secret (refused before verification and 24 hours of overlap) (POST /api/admin/identity/rotations/{rotationId}/steps/{step})."""
        return self._call("runRotationStep", {"rotationId": rotation_id, "step": step}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def search_principals(self, *, cursor: Optional[str] = None, limit: Optional[int] = None, search: Optional[str] = None) -> Page[Principal]:
        """Users of the caller’s tenant and the groups the service has seen at sign-in, matching search on name, email or id (GET /api/principals)."""
        return self._call("searchPrincipals", {}, query={"cursor": cursor, "limit": limit, "search": search}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_search_principals(self, *, limit: Optional[int] = None, search: Optional[str] = None) -> Iterator[Principal]:
        """Every entry of search_principals, page after page."""
        return self._paginate("searchPrincipals", {}, query={"limit": limit, "search": search})

    def snapshot_policy(self, incident_id: str, body: SnapshotPolicyBody) -> IdentityIncident:
        """Take a policy snapshot before an edit (POST /api/admin/identity/incidents/{incidentId}/snapshots)."""
        return self._call("snapshotPolicy", {"incidentId": incident_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def start_oidc_sign_in(self, *, return_to: Optional[str] = None) -> str:
        """Sign in to the console with the cloud’s identity provider: redirects to its authorize endpoint (authorization code with PKCE S256) (GET /api/auth/login)."""
        return self._call("startOidcSignIn", {}, query={"returnTo": return_to}, headers=None, body=None)  # type: ignore[no-any-return]

    def start_paginated_report_export(self, report_id: str, body: StartPaginatedReportExportBody, *, workspace_id: Optional[str] = None) -> ReportExport:
        """Start rendering the report to a file (ExportTo); poll the export, then fetch its file. A report over a semantic model renders for an effective identity: your user principal name (for an API token, its owner’s or SVC_REPORT_EFFECTIVE_USERNAME; 424 without one), with the model’s row-level roles (POST /api/items/paginated-report/{reportId}/exports)."""
        return self._call("startPaginatedReportExport", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    def start_rotation(self, credential_id: str, body: StartRotationBody) -> IdentityRotation:
        """Start a rotation: create the new secret while the old stays valid and store it in the vault (POST /api/admin/identity/credentials/{credentialId}/rotations)."""
        return self._call("startRotation", {"credentialId": credential_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def stream_install_job_events(self, job_id: str, *, last_event_id: Optional[str] = None) -> Iterator[ServerSentEvent]:
        """Server-sent events of a job (phase, item-created, step, step-retried, done); replays after Last-Event-ID (GET /api/apps/install-jobs/{jobId}/events)."""
        return self._stream("streamInstallJobEvents", {"jobId": job_id}, headers={"last-event-id": last_event_id})

    def stream_job_events(self, job_id: str, *, last_event_id: Optional[str] = None) -> Iterator[ServerSentEvent]:
        """Server-sent events of a job of any kind (phase, step, step-retried, done); replays after Last-Event-ID (GET /api/jobs/{jobId}/events)."""
        return self._stream("streamJobEvents", {"jobId": job_id}, headers={"last-event-id": last_event_id})

    def unassign_application(self, tenant_id: str, client_id: str) -> str:
        """Take an app registration (and its vault secret) from the tenant; its registered credentials can no longer be rotated there (DELETE /api/operator/tenants/{tenantId}/applications/{clientId})."""
        return self._call("unassignApplication", {"tenantId": tenant_id, "clientId": client_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def unassign_platform_workspace(self, tenant_id: str, platform_workspace_id: str) -> UnassignPlatformWorkspaceResult:
        """Take a platform workspace from the tenant; its workspaces bound to it are unbound (nothing in the platform is deleted) (DELETE /api/operator/tenants/{tenantId}/platform-workspaces/{platformWorkspaceId})."""
        return self._call("unassignPlatformWorkspace", {"tenantId": tenant_id, "platformWorkspaceId": platform_workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def unassign_target(self, tenant_id: str, target_id: str) -> str:
        """Take an install target from the tenant (nothing in the target is deleted) (DELETE /api/operator/tenants/{tenantId}/targets/{targetId})."""
        return self._call("unassignTarget", {"tenantId": tenant_id, "targetId": target_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    def uninstall_app(self, workspace_id: str, app_id: str, *, purge_data: Optional[Literal["true", "false"]] = None) -> Job:
        """Uninstall an app: delete its live resources (dependants first) and its stored items, as a job: 202 with the job to poll (DELETE /api/workspaces/{workspaceId}/apps/{appId})."""
        return self._call("uninstallApp", {"workspaceId": workspace_id, "appId": app_id}, query={"purgeData": purge_data}, headers=None, body=None)  # type: ignore[no-any-return]

    def update_item(self, workspace_id: str, item_id: str, body: UpdateItemBody) -> Item:
        """Rename or redescribe an item (PATCH /api/workspaces/{workspaceId}/items/{itemId})."""
        return self._call("updateItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def update_paginated_report_datasources(self, report_id: str, body: UpdatePaginatedReportDatasourcesBody, *, workspace_id: Optional[str] = None) -> List[ReportDatasource]:
        """Rebind data sources (Default.UpdateDatasources: same type, server and database only); a refusal comes back with the reporting service’s text (POST /api/items/paginated-report/{reportId}/datasources)."""
        return self._call("updatePaginatedReportDatasources", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    def update_workspace(self, workspace_id: str, body: UpdateWorkspaceBody) -> Workspace:
        """Rename a workspace (a name another workspace of the tenant holds, ignoring case: 409 duplicate_workspace, field name), or bind it to a platform workspace of the tenant (admin scope; another tenant’s is 404) (PATCH /api/workspaces/{workspaceId})."""
        return self._call("updateWorkspace", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def upgrade_app(self, workspace_id: str, app_id: str, body: UpgradeAppBody) -> Job:
        """Upgrade an installed app to the catalog’s current version, merging each item with the user’s edits: 202 with the upgrade job to poll (POST /api/workspaces/{workspaceId}/apps/{appId}/upgrade)."""
        return self._call("upgradeApp", {"workspaceId": workspace_id, "appId": app_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def verify_incident_fix(self, incident_id: str, body: VerifyIncidentFixBody) -> IdentityIncident:
        """Run the verification checklist: token as the failing identity, workspace read, lakehouse count, pipeline run, sign-ins since the fix (POST /api/admin/identity/incidents/{incidentId}/verify)."""
        return self._call("verifyIncidentFix", {"incidentId": incident_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    def whoami(self) -> WhoamiResult:
        """The current caller: tenant, user, how it authenticated, scopes (GET /api/whoami)."""
        return self._call("whoami", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]


class AsyncOperations(AsyncCore):
    """Every documented operation, asynchronous."""

    OPERATIONS = OPERATIONS

    async def add_firewall_rule(self, workspace_id: str, body: AddFirewallRuleBody) -> AddFirewallRuleResult:
        """Add a firewall rule (journaled; rolling back deletes it) (POST /api/admin/identity/workspaces/{workspaceId}/firewall-rules)."""
        return await self._call("addFirewallRule", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def add_role_assignment(self, workspace_id: str, body: AddRoleAssignmentBody) -> RoleAssignment:
        """Give a user of the tenant or a group a role on the workspace: Member for Contributor and Viewer assignments, Admin for Member and Admin ones (403 workspace_role_required naming the role needed); 409 conflict when the principal already has one (POST /api/workspaces/{workspaceId}/role-assignments)."""
        return await self._call("addRoleAssignment", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def apply_item(self, workspace_id: str, item_id: str) -> Job:
        """Push the item’s stored content to its live resource (creating it when there is none): 202 with the apply job to poll (POST /api/workspaces/{workspaceId}/items/{itemId}/apply)."""
        return await self._call("applyItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def approve_incident_change(self, incident_id: str, body: ApproveIncidentChangeBody) -> IdentityIncident:
        """Record an approval (verbal only for SEV1: a retroactive change request is then due within 24 hours) (POST /api/admin/identity/incidents/{incidentId}/approvals)."""
        return await self._call("approveIncidentChange", {"incidentId": incident_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def assign_application(self, tenant_id: str, body: AssignApplicationBody) -> ResourceAssignment:
        """Assign an app registration (and the vault secret its rotations write) to the tenant (201; 200 when it already is; 409 when another tenant holds either) (POST /api/operator/tenants/{tenantId}/applications)."""
        return await self._call("assignApplication", {"tenantId": tenant_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def assign_platform_workspace(self, tenant_id: str, body: AssignPlatformWorkspaceBody) -> ResourceAssignment:
        """Assign a platform workspace to the tenant (201; 200 when it already is; 409 when another tenant holds it) (POST /api/operator/tenants/{tenantId}/platform-workspaces)."""
        return await self._call("assignPlatformWorkspace", {"tenantId": tenant_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def assign_target(self, tenant_id: str, body: AssignTargetBody) -> ResourceAssignment:
        """Assign an install target to the tenant (201; 200 when it already is; 409 when another tenant holds it) (POST /api/operator/tenants/{tenantId}/targets)."""
        return await self._call("assignTarget", {"tenantId": tenant_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def change_role_assignment(self, workspace_id: str, assignment_id: str, body: ChangeRoleAssignmentBody) -> RoleAssignment:
        """Change an assignment’s role: Member for Contributor and Viewer assignments, Admin for Member and Admin ones (403 workspace_role_required naming the role needed) (both the old and the new role); 409 last_admin for the last Admin (PATCH /api/workspaces/{workspaceId}/role-assignments/{assignmentId})."""
        return await self._call("changeRoleAssignment", {"workspaceId": workspace_id, "assignmentId": assignment_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def check_drift(self, workspace_id: str) -> Job:
        """Check every live item of the workspace against its backing service: 202 with the drift job to poll (POST /api/workspaces/{workspaceId}/drift)."""
        return await self._call("checkDrift", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def check_egress_address(self, workspace_id: str, *, ip: Optional[str] = None) -> CheckEgressAddressResult:
        """Whether an egress address is inside the workspace’s firewall ranges (GET /api/admin/identity/workspaces/{workspaceId}/firewall-check)."""
        return await self._call("checkEgressAddress", {"workspaceId": workspace_id}, query={"ip": ip}, headers=None, body=None)  # type: ignore[no-any-return]

    async def clone_paginated_report(self, report_id: str, body: ClonePaginatedReportBody, *, workspace_id: Optional[str] = None) -> PaginatedReport:
        """Copy a report under a new name, into this or another workspace of the tenant (POST /api/items/paginated-report/{reportId}/clone)."""
        return await self._call("clonePaginatedReport", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    async def close_incident(self, incident_id: str) -> IdentityIncident:
        """Close the incident (only after monitoring for twice its duration) (POST /api/admin/identity/incidents/{incidentId}/close)."""
        return await self._call("closeIncident", {"incidentId": incident_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def complete_oidc_sign_in(self, *, code: Optional[str] = None, state: Optional[str] = None, error: Optional[str] = None, error_description: Optional[str] = None) -> str:
        """Where the identity provider sends the browser back: exchanges the code, checks the id token, sets the session cookie and redirects to the console (GET /api/auth/callback)."""
        return await self._call("completeOidcSignIn", {}, query={"code": code, "state": state, "error": error, "error_description": error_description}, headers=None, body=None)  # type: ignore[no-any-return]

    async def create_item(self, workspace_id: str, body: CreateItemBody) -> Item:
        """Create an item in a workspace (POST /api/workspaces/{workspaceId}/items)."""
        return await self._call("createItem", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def create_paginated_report_embed_token(self, report_id: str, body: CreatePaginatedReportEmbedTokenBody, *, workspace_id: Optional[str] = None) -> CreatePaginatedReportEmbedTokenResult:
        """A view embed token for the report (GenerateToken, accessLevel View) (POST /api/items/paginated-report/{reportId}/embed-token)."""
        return await self._call("createPaginatedReportEmbedToken", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    async def create_session(self, body: CreateSessionBody) -> CreateSessionResult:
        """Sign in to the console with an API token; sets the session cookie (POST /api/session)."""
        return await self._call("createSession", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def create_tenant(self, body: CreateTenantBody) -> Tenant:
        """Create a tenant (it sees nothing of the others; assign it platform workspaces and targets next) (POST /api/operator/tenants)."""
        return await self._call("createTenant", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def create_tenant_admin_token(self, tenant_id: str, body: CreateTenantAdminTokenBody) -> CreateTenantAdminTokenResult:
        """An admin token of the tenant’s first admin (created when absent), for automation before anyone signs in; the secret is shown once (POST /api/operator/tenants/{tenantId}/admin-tokens)."""
        return await self._call("createTenantAdminToken", {"tenantId": tenant_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def create_thread_edge(self, workspace_id: str, body: CreateThreadEdgeBody) -> ThreadEdge:
        """Add a lineage edge between two items of the workspace (POST /api/workspaces/{workspaceId}/thread/edges)."""
        return await self._call("createThreadEdge", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def create_token(self, body: CreateTokenBody) -> CreateTokenResult:
        """Create a scoped API token; the secret is shown only in this answer (POST /api/tokens)."""
        return await self._call("createToken", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def create_workspace(self, body: CreateWorkspaceBody) -> Workspace:
        """Create a workspace; the caller becomes its Admin (a token limited to workspaces: 403 workspace_limited_token; a name another workspace of the tenant holds, ignoring case: 409 duplicate_workspace, field name) (POST /api/workspaces)."""
        return await self._call("createWorkspace", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def delete_credential(self, credential_id: str) -> str:
        """Forget a registered credential (the secret itself is untouched) (DELETE /api/admin/identity/credentials/{credentialId})."""
        return await self._call("deleteCredential", {"credentialId": credential_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def delete_item(self, workspace_id: str, item_id: str, *, delete_live: Optional[Literal["true", "false"]] = None) -> str:
        """Delete an item; with deleteLive=true its live resource too, as an uninstall job of the item (202) (DELETE /api/workspaces/{workspaceId}/items/{itemId})."""
        return await self._call("deleteItem", {"workspaceId": workspace_id, "itemId": item_id}, query={"deleteLive": delete_live}, headers=None, body=None)  # type: ignore[no-any-return]

    async def delete_paginated_report(self, report_id: str, *, workspace_id: Optional[str] = None) -> str:
        """Delete a paginated report in the reporting service (DELETE /api/items/paginated-report/{reportId})."""
        return await self._call("deletePaginatedReport", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    async def delete_session(self) -> DeleteSessionResult:
        """Sign out: end the console session (DELETE /api/session)."""
        return await self._call("deleteSession", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def delete_thread_edge(self, workspace_id: str, edge_id: str) -> str:
        """Remove a lineage edge (DELETE /api/workspaces/{workspaceId}/thread/edges/{edgeId})."""
        return await self._call("deleteThreadEdge", {"workspaceId": workspace_id, "edgeId": edge_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def delete_workspace(self, workspace_id: str, *, force: Optional[Literal["true", "false"]] = None, purge_data: Optional[Literal["true", "false"]] = None) -> str:
        """Delete a workspace and its items; with installed apps 409 workspace_has_apps, or with force=true a job that uninstalls them first (DELETE /api/workspaces/{workspaceId})."""
        return await self._call("deleteWorkspace", {"workspaceId": workspace_id}, query={"force": force, "purgeData": purge_data}, headers=None, body=None)  # type: ignore[no-any-return]

    async def diagnose_identity_failure(self, *, status: Optional[int] = None, code: Optional[str] = None, body: Optional[str] = None, identity_type: Optional[Literal["workspace-identity", "service-principal", "system-assigned-managed-identity", "user-assigned-managed-identity", "user", "conditional-access", "ip-firewall", "cross-tenant-guest"]] = None, service: Optional[str] = None) -> IdentityDiagnosis:
        """Likely causes, first checks and actions for a failing answer (the link of a failed or remediation install step) (GET /api/admin/identity/diagnose)."""
        return await self._call("diagnoseIdentityFailure", {}, query={"status": status, "code": code, "body": body, "identityType": identity_type, "service": service}, headers=None, body=None)  # type: ignore[no-any-return]

    async def diagnose_identity_failure_body(self, body: DiagnoseIdentityFailureBodyBody) -> IdentityDiagnosis:
        """Diagnose a failing answer sent in full (status, body, code, identity type) (POST /api/admin/identity/diagnose)."""
        return await self._call("diagnoseIdentityFailureBody", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def file_change_request(self, incident_id: str, approval_id: str, body: FileChangeRequestBody) -> IdentityIncident:
        """File the retroactive change request of a verbal approval (POST /api/admin/identity/incidents/{incidentId}/approvals/{approvalId}/change-request)."""
        return await self._call("fileChangeRequest", {"incidentId": incident_id, "approvalId": approval_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def get_app(self, app_id: str) -> GetAppResult:
        """One app: its items, what installing it provisions (live or stored, and where), its thread (GET /api/apps/{appId})."""
        return await self._call("getApp", {"appId": app_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_health(self) -> GetHealthResult:
        """Liveness, the store, the cloud and (in the sandbox) its admin address (GET /api/health)."""
        return await self._call("getHealth", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_identity_change(self, change_id: str) -> IdentityChange:
        """One journaled change with its inverse (GET /api/admin/identity/changes/{changeId})."""
        return await self._call("getIdentityChange", {"changeId": change_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_incident(self, incident_id: str) -> IdentityIncident:
        """An incident with its approvals, change requests, changes and verification (GET /api/admin/identity/incidents/{incidentId})."""
        return await self._call("getIncident", {"incidentId": incident_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_installed_app(self, workspace_id: str, app_id: str) -> InstalledApp:
        """Read an app installed in a workspace: its version, the catalog’s current version, status and items (GET /api/workspaces/{workspaceId}/apps/{appId})."""
        return await self._call("getInstalledApp", {"workspaceId": workspace_id, "appId": app_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_install_job(self, job_id: str) -> InstallJob:
        """Poll an install job (every 5 s); provision is present once provisioning completes (GET /api/apps/install-jobs/{jobId})."""
        return await self._call("getInstallJob", {"jobId": job_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_item(self, workspace_id: str, item_id: str) -> Item:
        """Read an item (GET /api/workspaces/{workspaceId}/items/{itemId})."""
        return await self._call("getItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_item_content(self, workspace_id: str, item_id: str) -> GetItemContentResult:
        """Read an item’s stored content; the ETag header versions it (GET /api/workspaces/{workspaceId}/items/{itemId}/content)."""
        return await self._call("getItemContent", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_job(self, job_id: str) -> Job:
        """Poll a job of any kind (install, upgrade, uninstall, apply, drift) with its steps and their results (GET /api/jobs/{jobId})."""
        return await self._call("getJob", {"jobId": job_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_metrics(self) -> str:
        """Prometheus text metrics (scope metrics, or the deployment’s SVC_METRICS_TOKEN as the bearer) (GET /metrics)."""
        return await self._call("getMetrics", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_open_api_document(self) -> GetOpenApiDocumentResult:
        """This OpenAPI 3.1 document; servers[0] is this deployment (GET /api/openapi.json)."""
        return await self._call("getOpenApiDocument", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_paginated_report(self, report_id: str, *, workspace_id: Optional[str] = None) -> PaginatedReport:
        """A paginated report’s metadata: name, type, dataset, web and embed addresses (GET /api/items/paginated-report/{reportId})."""
        return await self._call("getPaginatedReport", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_paginated_report_definition(self, report_id: str, *, workspace_id: Optional[str] = None) -> GetPaginatedReportDefinitionResult:
        """The report’s RDL (downloaded through Export), its ETag and its parameters (GET /api/items/paginated-report/{reportId}/definition)."""
        return await self._call("getPaginatedReportDefinition", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_paginated_report_export(self, report_id: str, export_id: str, *, workspace_id: Optional[str] = None) -> ReportExport:
        """An export’s status and progress; Retry-After (seconds) while it is unfinished (GET /api/items/paginated-report/{reportId}/exports/{exportId})."""
        return await self._call("getPaginatedReportExport", {"reportId": report_id, "exportId": export_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_paginated_report_export_file(self, report_id: str, export_id: str, *, workspace_id: Optional[str] = None) -> bytes:
        """The exported file, with its content type and a file name (409 until the export has Succeeded) (GET /api/items/paginated-report/{reportId}/exports/{exportId}/file)."""
        return await self._call("getPaginatedReportExportFile", {"reportId": report_id, "exportId": export_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_rotation(self, rotation_id: str) -> IdentityRotation:
        """A rotation: steps done, the next step, its log (GET /api/admin/identity/rotations/{rotationId})."""
        return await self._call("getRotation", {"rotationId": rotation_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_tenant(self, tenant_id: str) -> Tenant:
        """A tenant (GET /api/operator/tenants/{tenantId})."""
        return await self._call("getTenant", {"tenantId": tenant_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def get_workspace(self, workspace_id: str) -> Workspace:
        """Read a workspace (GET /api/workspaces/{workspaceId})."""
        return await self._call("getWorkspace", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def grant_workspace_role(self, workspace_id: str, body: GrantWorkspaceRoleBody) -> GrantWorkspaceRoleResult:
        """Grant a workspace role to a principal (journaled; rolling back deletes the assignment) (POST /api/admin/identity/workspaces/{workspaceId}/role-assignments)."""
        return await self._call("grantWorkspaceRole", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def inspect_identity_token(self, body: InspectIdentityTokenBody) -> InspectIdentityTokenResult:
        """Decode a token (never stored or logged) and check aud, appid, oid, tid, roles, wids and exp (POST /api/admin/identity/inspect-token)."""
        return await self._call("inspectIdentityToken", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def install_app(self, app_id: str, body: InstallAppBody) -> InstallAppResult:
        """Install a curated app into a workspace; answers 202 at once with the job id to poll (POST /api/apps/{appId}/install)."""
        return await self._call("installApp", {"appId": app_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def last_drift(self, workspace_id: str) -> LastDriftResult:
        """The workspace’s last drift check: its job and the verdict per live item (GET /api/workspaces/{workspaceId}/drift)."""
        return await self._call("lastDrift", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_apps(self) -> List[AppSummary]:
        """The curated apps (GET /api/apps)."""
        return await self._call("listApps", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_audit_events(self, *, workspace_id: Optional[str] = None, actor: Optional[str] = None, kind: Optional[str] = None, since: Optional[str] = None, until: Optional[str] = None, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[AuditEvent]:
        """The tenant’s audit trail, newest first: access changes, destructive and outward operations, sign-ins (GET /api/audit-events)."""
        return await self._call("listAuditEvents", {}, query={"workspaceId": workspace_id, "actor": actor, "kind": kind, "since": since, "until": until, "cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_audit_events(self, *, workspace_id: Optional[str] = None, actor: Optional[str] = None, kind: Optional[str] = None, since: Optional[str] = None, until: Optional[str] = None, limit: Optional[int] = None) -> AsyncIterator[AuditEvent]:
        """Every entry of list_audit_events, page after page."""
        return self._paginate("listAuditEvents", {}, query={"workspaceId": workspace_id, "actor": actor, "kind": kind, "since": since, "until": until, "limit": limit})

    async def list_credentials(self) -> List[IdentityCredential]:
        """Registered service-principal credentials (metadata only), soonest expiry first (GET /api/admin/identity/credentials)."""
        return await self._call("listCredentials", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_firewall_rules(self, workspace_id: str) -> List[ListFirewallRulesResultItem]:
        """The platform workspace’s firewall rules (GET /api/admin/identity/workspaces/{workspaceId}/firewall-rules)."""
        return await self._call("listFirewallRules", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_identity_alerts(self) -> ListIdentityAlertsResult:
        """Secret expiry alerts at 90, 30 and 7 days remaining (the console banner) (GET /api/admin/identity/alerts)."""
        return await self._call("listIdentityAlerts", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_identity_changes(self, *, incident_id: Optional[str] = None) -> List[IdentityChange]:
        """The change journal (newest first) (GET /api/admin/identity/changes)."""
        return await self._call("listIdentityChanges", {}, query={"incidentId": incident_id}, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_identity_signals(self, *, since: Optional[str] = None, principal: Optional[str] = None) -> List[IdentitySignal]:
        """Backing calls refused on authentication or authorization, of the caller’s tenant (every tenant’s for the operator); newest first, never a token (GET /api/admin/identity/signals)."""
        return await self._call("listIdentitySignals", {}, query={"since": since, "principal": principal}, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_incident_events(self, incident_id: str) -> List[ListIncidentEventsResultItem]:
        """The incident’s timeline (GET /api/admin/identity/incidents/{incidentId}/events)."""
        return await self._call("listIncidentEvents", {"incidentId": incident_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_incidents(self) -> List[IdentityIncident]:
        """Identity incidents, newest first (GET /api/admin/identity/incidents)."""
        return await self._call("listIncidents", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_installed_apps(self, workspace_id: str, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[InstalledApp]:
        """List the apps installed in a workspace, with their status and items (GET /api/workspaces/{workspaceId}/apps)."""
        return await self._call("listInstalledApps", {"workspaceId": workspace_id}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_installed_apps(self, workspace_id: str, *, limit: Optional[int] = None) -> AsyncIterator[InstalledApp]:
        """Every entry of list_installed_apps, page after page."""
        return self._paginate("listInstalledApps", {"workspaceId": workspace_id}, query={"limit": limit})

    async def list_install_jobs(self, *, cursor: Optional[str] = None, limit: Optional[int] = None, workspace_id: Optional[str] = None) -> Page[InstallJob]:
        """List install jobs, optionally of one workspace (GET /api/apps/install-jobs)."""
        return await self._call("listInstallJobs", {}, query={"cursor": cursor, "limit": limit, "workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_install_jobs(self, *, limit: Optional[int] = None, workspace_id: Optional[str] = None) -> AsyncIterator[InstallJob]:
        """Every entry of list_install_jobs, page after page."""
        return self._paginate("listInstallJobs", {}, query={"limit": limit, "workspaceId": workspace_id})

    async def list_items(self, workspace_id: str, *, cursor: Optional[str] = None, limit: Optional[int] = None, item_type: Optional[str] = None) -> Page[Item]:
        """List the items of a workspace (GET /api/workspaces/{workspaceId}/items)."""
        return await self._call("listItems", {"workspaceId": workspace_id}, query={"cursor": cursor, "limit": limit, "itemType": item_type}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_items(self, workspace_id: str, *, limit: Optional[int] = None, item_type: Optional[str] = None) -> AsyncIterator[Item]:
        """Every entry of list_items, page after page."""
        return self._paginate("listItems", {"workspaceId": workspace_id}, query={"limit": limit, "itemType": item_type})

    async def list_item_types(self) -> List[ListItemTypesResultItem]:
        """Every item type, and whether an install provisions it live (GET /api/item-types)."""
        return await self._call("listItemTypes", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_paginated_report_datasources(self, report_id: str, *, workspace_id: Optional[str] = None) -> List[ReportDatasource]:
        """The report’s data sources as the reporting service binds them (GET /api/items/paginated-report/{reportId}/datasources)."""
        return await self._call("listPaginatedReportDatasources", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_paginated_reports(self, *, workspace_id: Optional[str] = None) -> List[PaginatedReport]:
        """The paginated reports of a workspace (the reporting service’s list, kept to reportType PaginatedReport), and the reporting workspace they live in (GET /api/items/paginated-report)."""
        return await self._call("listPaginatedReports", {}, query={"workspaceId": workspace_id}, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_role_assignments(self, workspace_id: str, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[RoleAssignment]:
        """List the workspace’s role assignments (GET /api/workspaces/{workspaceId}/role-assignments)."""
        return await self._call("listRoleAssignments", {"workspaceId": workspace_id}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_role_assignments(self, workspace_id: str, *, limit: Optional[int] = None) -> AsyncIterator[RoleAssignment]:
        """Every entry of list_role_assignments, page after page."""
        return self._paginate("listRoleAssignments", {"workspaceId": workspace_id}, query={"limit": limit})

    async def list_rotations(self, *, credential_id: Optional[str] = None) -> List[IdentityRotation]:
        """Rotations, newest first (of one credential with credentialId): state, steps done, the next step (GET /api/admin/identity/rotations)."""
        return await self._call("listRotations", {}, query={"credentialId": credential_id}, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_tenant_applications(self, tenant_id: str) -> List[ResourceAssignment]:
        """The app registrations whose secrets the tenant’s admins may register and rotate, each with its vault secret (GET /api/operator/tenants/{tenantId}/applications)."""
        return await self._call("listTenantApplications", {"tenantId": tenant_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_tenant_platform_workspaces(self, tenant_id: str) -> List[ResourceAssignment]:
        """The platform workspaces (and their reporting groups) assigned to the tenant; the default serves its unbound workspaces (GET /api/operator/tenants/{tenantId}/platform-workspaces)."""
        return await self._call("listTenantPlatformWorkspaces", {"tenantId": tenant_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_tenants(self, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[Tenant]:
        """Every tenant of the deployment, with how many platform workspaces and targets each is assigned (GET /api/operator/tenants)."""
        return await self._call("listTenants", {}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_tenants(self, *, limit: Optional[int] = None) -> AsyncIterator[Tenant]:
        """Every entry of list_tenants, page after page."""
        return self._paginate("listTenants", {}, query={"limit": limit})

    async def list_tenant_targets(self, tenant_id: str) -> List[ResourceAssignment]:
        """The install targets assigned to the tenant: KQL clusters, search services, warehouses, lakes (the first of each kind is its shared set) (GET /api/operator/tenants/{tenantId}/targets)."""
        return await self._call("listTenantTargets", {"tenantId": tenant_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_thread_edges(self, workspace_id: str) -> List[ThreadEdge]:
        """The lineage edges of a workspace (GET /api/workspaces/{workspaceId}/thread/edges)."""
        return await self._call("listThreadEdges", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_tokens(self, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[ApiToken]:
        """List live API tokens (never their secrets): the caller’s own with the tokens scope, every one of the tenant with admin (GET /api/tokens)."""
        return await self._call("listTokens", {}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_tokens(self, *, limit: Optional[int] = None) -> AsyncIterator[ApiToken]:
        """Every entry of list_tokens, page after page."""
        return self._paginate("listTokens", {}, query={"limit": limit})

    async def list_workspace_jobs(self, workspace_id: str, *, cursor: Optional[str] = None, limit: Optional[int] = None, kind: Optional[Literal["install", "upgrade", "uninstall", "apply", "drift"]] = None) -> Page[Job]:
        """List the jobs of a workspace, oldest first, optionally of one kind (GET /api/workspaces/{workspaceId}/jobs)."""
        return await self._call("listWorkspaceJobs", {"workspaceId": workspace_id}, query={"cursor": cursor, "limit": limit, "kind": kind}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_workspace_jobs(self, workspace_id: str, *, limit: Optional[int] = None, kind: Optional[Literal["install", "upgrade", "uninstall", "apply", "drift"]] = None) -> AsyncIterator[Job]:
        """Every entry of list_workspace_jobs, page after page."""
        return self._paginate("listWorkspaceJobs", {"workspaceId": workspace_id}, query={"limit": limit, "kind": kind})

    async def list_workspace_role_assignments(self, workspace_id: str) -> List[ListWorkspaceRoleAssignmentsResultItem]:
        """Role assignments on the platform workspace (GET /api/admin/identity/workspaces/{workspaceId}/role-assignments)."""
        return await self._call("listWorkspaceRoleAssignments", {"workspaceId": workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def list_workspaces(self, *, cursor: Optional[str] = None, limit: Optional[int] = None) -> Page[Workspace]:
        """List the workspaces of the caller’s tenant that the caller may see (a role, or the admin scope), with its role on each (GET /api/workspaces)."""
        return await self._call("listWorkspaces", {}, query={"cursor": cursor, "limit": limit}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_workspaces(self, *, limit: Optional[int] = None) -> AsyncIterator[Workspace]:
        """Every entry of list_workspaces, page after page."""
        return self._paginate("listWorkspaces", {}, query={"limit": limit})

    async def open_incident(self, body: OpenIncidentBody) -> IdentityIncident:
        """Open an incident; its severity follows SPEC.md’s rules over the recorded signals and the stated facts (POST /api/admin/identity/incidents)."""
        return await self._call("openIncident", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def plan_install(self, app_id: str, body: PlanInstallBody) -> InstallPlan:
        """What installing the app would do, per item (create, update with a diff, no-change, blocked with the gate), changing nothing (POST /api/apps/{appId}/plan)."""
        return await self._call("planInstall", {"appId": app_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def preview_paginated_report(self, body: PreviewPaginatedReportBody, *, workspace_id: Optional[str] = None) -> bytes:
        """Render a draft RDL without publishing it: checked like a publish (400 invalid_rdl naming the line), imported as a short-lived draft report that lists never show, exported (with your effective identity over a semantic model), answered as the file, and deleted again (POST /api/items/paginated-report-preview)."""
        return await self._call("previewPaginatedReport", {}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    async def publish_paginated_report(self, body: PublishPaginatedReportBody, *, workspace_id: Optional[str] = None) -> PaginatedReport:
        """Publish a new paginated report from an RDL definition (import with nameConflict Abort) (POST /api/items/paginated-report)."""
        return await self._call("publishPaginatedReport", {}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    async def put_item_content(self, workspace_id: str, item_id: str, body: PutItemContentBody, *, if_match: str) -> str:
        """Save an item’s content; If-Match must carry the ETag read (428 without it, 412 when it is stale) (PUT /api/workspaces/{workspaceId}/items/{itemId}/content)."""
        return await self._call("putItemContent", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers={"if-match": if_match}, body=body)  # type: ignore[no-any-return]

    async def put_paginated_report_definition(self, report_id: str, body: PutPaginatedReportDefinitionBody, *, workspace_id: Optional[str] = None, if_match: str) -> PutPaginatedReportDefinitionResult:
        """Publish a changed RDL back (import with Overwrite, waited for); If-Match must carry the ETag read (428 without it, 412 when stale); invalid RDL is 400 naming the line and element (PUT /api/items/paginated-report/{reportId}/definition)."""
        return await self._call("putPaginatedReportDefinition", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers={"if-match": if_match}, body=body)  # type: ignore[no-any-return]

    async def record_incident_change(self, incident_id: str, body: RecordIncidentChangeBody) -> IdentityChange:
        """Record a change made for the incident (a conditional-access change needs an approval and a snapshot first) (POST /api/admin/identity/incidents/{incidentId}/changes)."""
        return await self._call("recordIncidentChange", {"incidentId": incident_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def register_credential(self, body: RegisterCredentialBody) -> IdentityCredential:
        """Register a service-principal credential by metadata (client id, key id, expiry; no secret value) (POST /api/admin/identity/credentials)."""
        return await self._call("registerCredential", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def remove_firewall_rule(self, workspace_id: str, rule_id: str, *, incident_id: Optional[str] = None) -> IdentityChange:
        """Remove a firewall rule (journaled; rolling back adds it again) (DELETE /api/admin/identity/workspaces/{workspaceId}/firewall-rules/{ruleId})."""
        return await self._call("removeFirewallRule", {"workspaceId": workspace_id, "ruleId": rule_id}, query={"incidentId": incident_id}, headers=None, body=None)  # type: ignore[no-any-return]

    async def remove_role_assignment(self, workspace_id: str, assignment_id: str) -> bool:
        """Remove an assignment: Member for Contributor and Viewer assignments, Admin for Member and Admin ones (403 workspace_role_required naming the role needed); 409 last_admin for the last Admin (DELETE /api/workspaces/{workspaceId}/role-assignments/{assignmentId})."""
        return await self._call("removeRoleAssignment", {"workspaceId": workspace_id, "assignmentId": assignment_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def retry_install_step(self, job_id: str, step_index: str) -> InstallJob:
        """Re-open one provisioning step (after fixing its gate): 202 with the job running again; poll it like an install until the worker has run the step (POST /api/apps/install-jobs/{jobId}/steps/{stepIndex}/retry)."""
        return await self._call("retryInstallStep", {"jobId": job_id, "stepIndex": step_index}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def retry_job_step(self, job_id: str, step_index: str) -> Job:
        """Re-open a failed or remediation step of a finished job: 202 with the job running again (POST /api/jobs/{jobId}/steps/{stepIndex}/retry)."""
        return await self._call("retryJobStep", {"jobId": job_id, "stepIndex": step_index}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def revoke_token(self, token_id: str) -> str:
        """Revoke a token, effective on the next request: one of the caller’s own with the tokens scope, any of the tenant with admin; another user’s token is 404 without admin (DELETE /api/tokens/{tokenId})."""
        return await self._call("revokeToken", {"tokenId": token_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def roll_back_identity_change(self, change_id: str) -> IdentityChange:
        """Perform a change’s inverse (delete the added rule, delete the added role assignment, …) (POST /api/admin/identity/changes/{changeId}/rollback)."""
        return await self._call("rollBackIdentityChange", {"changeId": change_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def roll_back_rotation(self, rotation_id: str) -> IdentityRotation:
        """Roll back a rotation before the old secret is deleted: remove the new secret, restore the vault’s previous version (POST /api/admin/identity/rotations/{rotationId}/rollback)."""
        return await self._call("rollBackRotation", {"rotationId": rotation_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def run_identity_probe(self, body: RunIdentityProbeBody) -> RunIdentityProbeResult:
        """Acquire a token as an identity, read the workspace, count a lakehouse table, run a pipeline; each with its result and time (POST /api/admin/identity/probes)."""
        return await self._call("runIdentityProbe", {}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def run_rotation_step(self, rotation_id: str, step: str, body: RunRotationStepBody) -> IdentityRotation:
        """Run the next step: restart-consumers, verify, delete-old-secret (refused before verification and 24 hours of overlap) (POST /api/admin/identity/rotations/{rotationId}/steps/{step})."""
        return await self._call("runRotationStep", {"rotationId": rotation_id, "step": step}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def search_principals(self, *, cursor: Optional[str] = None, limit: Optional[int] = None, search: Optional[str] = None) -> Page[Principal]:
        """Users of the caller’s tenant and the groups the service has seen at sign-in, matching search on name, email or id (GET /api/principals)."""
        return await self._call("searchPrincipals", {}, query={"cursor": cursor, "limit": limit, "search": search}, headers=None, body=None)  # type: ignore[no-any-return]

    def iter_search_principals(self, *, limit: Optional[int] = None, search: Optional[str] = None) -> AsyncIterator[Principal]:
        """Every entry of search_principals, page after page."""
        return self._paginate("searchPrincipals", {}, query={"limit": limit, "search": search})

    async def snapshot_policy(self, incident_id: str, body: SnapshotPolicyBody) -> IdentityIncident:
        """Take a policy snapshot before an edit (POST /api/admin/identity/incidents/{incidentId}/snapshots)."""
        return await self._call("snapshotPolicy", {"incidentId": incident_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def start_oidc_sign_in(self, *, return_to: Optional[str] = None) -> str:
        """Sign in to the console with the cloud’s identity provider: redirects to its authorize endpoint (authorization code with PKCE S256) (GET /api/auth/login)."""
        return await self._call("startOidcSignIn", {}, query={"returnTo": return_to}, headers=None, body=None)  # type: ignore[no-any-return]

    async def start_paginated_report_export(self, report_id: str, body: StartPaginatedReportExportBody, *, workspace_id: Optional[str] = None) -> ReportExport:
        """Start rendering the report to a file (ExportTo); poll the export, then fetch its file. A report over a semantic model renders for an effective identity: your user principal name (for an API token, its owner’s or SVC_REPORT_EFFECTIVE_USERNAME; 424 without one), with the model’s row-level roles (POST /api/items/paginated-report/{reportId}/exports)."""
        return await self._call("startPaginatedReportExport", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    async def start_rotation(self, credential_id: str, body: StartRotationBody) -> IdentityRotation:
        """Start a rotation: create the new secret while the old stays valid and store it in the vault (POST /api/admin/identity/credentials/{credentialId}/rotations)."""
        return await self._call("startRotation", {"credentialId": credential_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def stream_install_job_events(self, job_id: str, *, last_event_id: Optional[str] = None) -> AsyncIterator[ServerSentEvent]:
        """Server-sent events of a job (phase, item-created, step, step-retried, done); replays after Last-Event-ID (GET /api/apps/install-jobs/{jobId}/events)."""
        return await self._stream("streamInstallJobEvents", {"jobId": job_id}, headers={"last-event-id": last_event_id})

    async def stream_job_events(self, job_id: str, *, last_event_id: Optional[str] = None) -> AsyncIterator[ServerSentEvent]:
        """Server-sent events of a job of any kind (phase, step, step-retried, done); replays after Last-Event-ID (GET /api/jobs/{jobId}/events)."""
        return await self._stream("streamJobEvents", {"jobId": job_id}, headers={"last-event-id": last_event_id})

    async def unassign_application(self, tenant_id: str, client_id: str) -> str:
        """Take an app registration (and its vault secret) from the tenant; its registered credentials can no longer be rotated there (DELETE /api/operator/tenants/{tenantId}/applications/{clientId})."""
        return await self._call("unassignApplication", {"tenantId": tenant_id, "clientId": client_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def unassign_platform_workspace(self, tenant_id: str, platform_workspace_id: str) -> UnassignPlatformWorkspaceResult:
        """Take a platform workspace from the tenant; its workspaces bound to it are unbound (nothing in the platform is deleted) (DELETE /api/operator/tenants/{tenantId}/platform-workspaces/{platformWorkspaceId})."""
        return await self._call("unassignPlatformWorkspace", {"tenantId": tenant_id, "platformWorkspaceId": platform_workspace_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def unassign_target(self, tenant_id: str, target_id: str) -> str:
        """Take an install target from the tenant (nothing in the target is deleted) (DELETE /api/operator/tenants/{tenantId}/targets/{targetId})."""
        return await self._call("unassignTarget", {"tenantId": tenant_id, "targetId": target_id}, query=None, headers=None, body=None)  # type: ignore[no-any-return]

    async def uninstall_app(self, workspace_id: str, app_id: str, *, purge_data: Optional[Literal["true", "false"]] = None) -> Job:
        """Uninstall an app: delete its live resources (dependants first) and its stored items, as a job: 202 with the job to poll (DELETE /api/workspaces/{workspaceId}/apps/{appId})."""
        return await self._call("uninstallApp", {"workspaceId": workspace_id, "appId": app_id}, query={"purgeData": purge_data}, headers=None, body=None)  # type: ignore[no-any-return]

    async def update_item(self, workspace_id: str, item_id: str, body: UpdateItemBody) -> Item:
        """Rename or redescribe an item (PATCH /api/workspaces/{workspaceId}/items/{itemId})."""
        return await self._call("updateItem", {"workspaceId": workspace_id, "itemId": item_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def update_paginated_report_datasources(self, report_id: str, body: UpdatePaginatedReportDatasourcesBody, *, workspace_id: Optional[str] = None) -> List[ReportDatasource]:
        """Rebind data sources (Default.UpdateDatasources: same type, server and database only); a refusal comes back with the reporting service’s text (POST /api/items/paginated-report/{reportId}/datasources)."""
        return await self._call("updatePaginatedReportDatasources", {"reportId": report_id}, query={"workspaceId": workspace_id}, headers=None, body=body)  # type: ignore[no-any-return]

    async def update_workspace(self, workspace_id: str, body: UpdateWorkspaceBody) -> Workspace:
        """Rename a workspace (a name another workspace of the tenant holds, ignoring case: 409 duplicate_workspace, field name), or bind it to a platform workspace of the tenant (admin scope; another tenant’s is 404) (PATCH /api/workspaces/{workspaceId})."""
        return await self._call("updateWorkspace", {"workspaceId": workspace_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def upgrade_app(self, workspace_id: str, app_id: str, body: UpgradeAppBody) -> Job:
        """Upgrade an installed app to the catalog’s current version, merging each item with the user’s edits: 202 with the upgrade job to poll (POST /api/workspaces/{workspaceId}/apps/{appId}/upgrade)."""
        return await self._call("upgradeApp", {"workspaceId": workspace_id, "appId": app_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def verify_incident_fix(self, incident_id: str, body: VerifyIncidentFixBody) -> IdentityIncident:
        """Run the verification checklist: token as the failing identity, workspace read, lakehouse count, pipeline run, sign-ins since the fix (POST /api/admin/identity/incidents/{incidentId}/verify)."""
        return await self._call("verifyIncidentFix", {"incidentId": incident_id}, query=None, headers=None, body=body)  # type: ignore[no-any-return]

    async def whoami(self) -> WhoamiResult:
        """The current caller: tenant, user, how it authenticated, scopes (GET /api/whoami)."""
        return await self._call("whoami", {}, query=None, headers=None, body=None)  # type: ignore[no-any-return]
