export { createSvcClient, SvcClient } from './client.js';
export type {
  ApiToken,
  AppDetail,
  AuditEvent,
  AuditFilters,
  AppSummary,
  InstallEvent,
  InstallJob,
  InstalledApp,
  Item,
  ItemType,
  Page,
  PageOptions,
  ProvisionReport,
  RequestBody,
  Result,
  StepResult,
  SvcClientOptions,
  ThreadEdge,
  WaitOptions,
  WhoAmI,
  Workspace,
} from './types.js';
export * from './errors.js';
export { OPERATIONS, type OperationId } from './operations.js';
export type { components, operations, paths } from './generated/openapi.js';
