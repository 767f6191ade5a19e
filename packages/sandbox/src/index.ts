export { startSandbox, type Sandbox } from './sandbox.js';
export { SandboxAdmin, type SandboxState } from './admin/api.js';
export type { SandboxOptions, SandboxUrls, ServiceName, FaultRule, RequestLogEntry, LoggedBody, Grant } from './types.js';
export { SERVICE_NAMES } from './types.js';
export type { SandboxIds } from './ids.js';
export type { SwitchName, SwitchValues } from './switches.js';
