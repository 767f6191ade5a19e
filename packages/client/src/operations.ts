/**
 * The operation table: every documented operationId and the client method that calls it.
 * `npm run check:drift` fails when this table and the OpenAPI document disagree in either direction.
 */
export const OPERATIONS = {
  createItem: 'items.create',
  createSession: 'session.signIn',
  createThreadEdge: 'thread.add',
  createToken: 'tokens.create',
  createWorkspace: 'workspaces.create',
  deleteItem: 'items.delete',
  deleteSession: 'session.signOut',
  deleteThreadEdge: 'thread.remove',
  deleteWorkspace: 'workspaces.delete',
  getApp: 'catalog.getApp',
  getHealth: 'system.health',
  getInstallJob: 'installs.get',
  getItem: 'items.get',
  getItemContent: 'items.getContent',
  getMetrics: 'system.metrics',
  getOpenApiDocument: 'system.openapi',
  getWorkspace: 'workspaces.get',
  installApp: 'installs.start',
  listApps: 'catalog.listApps',
  listInstallJobs: 'installs.list',
  listItems: 'items.list',
  listItemTypes: 'items.types',
  listThreadEdges: 'thread.list',
  listTokens: 'tokens.list',
  listWorkspaces: 'workspaces.list',
  putItemContent: 'items.putContent',
  retryInstallStep: 'installs.retryStep',
  revokeToken: 'tokens.revoke',
  streamInstallJobEvents: 'installs.events',
  updateItem: 'items.update',
  updateWorkspace: 'workspaces.update',
  whoami: 'whoami',
} as const;

export type OperationId = keyof typeof OPERATIONS;
