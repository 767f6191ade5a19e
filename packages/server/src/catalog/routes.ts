import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Ok } from '../http/schemas.js';
import { NotFoundError } from '../errors.js';
import { CALL_CONDITIONS, CALL_METHODS, CALL_SERVICES } from '../item-types/calls.js';
import { describeApp } from './describe-app.js';
import type { Catalog, CuratedApp } from './types.js';

const Enum = (values: readonly string[], description: string) => Type.Unsafe<string>({ type: 'string', enum: [...values], description });
export const PlannedCall = Type.Object({
  service: Enum(CALL_SERVICES, 'the backing service called'),
  method: Enum(CALL_METHODS, "an HTTP method, or the T-SQL endpoint's LOGIN and BATCH"),
  path: Type.String({
    description:
      "relative to the service's address; {name} stands for one segment or value, {ws} is the platform workspace, {id} the item's live id",
  }),
  command: Type.Optional(
    Type.String({ description: 'what the call carries when the path does not say it: a KQL command, a T-SQL statement' }),
  ),
  times: Type.Optional(Type.Integer({ description: 'how many such calls the content makes' })),
  once: Type.Optional(
    Type.Boolean({ description: "made once per job however many of the app's items name it (a list the job's steps share)" }),
  ),
  when: Type.Optional(
    Enum(
      Object.keys(CALL_CONDITIONS),
      Object.entries(CALL_CONDITIONS)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; '),
    ),
  ),
});
const PlannedItem = Type.Object({
  key: Type.String(),
  itemType: Type.String(),
  displayName: Type.String(),
  provisioning: Type.Union([Type.Literal('live'), Type.Literal('stored')]),
  backing: Type.Optional(Type.String()),
  calls: Type.Array(PlannedCall, { description: 'the backing calls that provision the item, in order (none for a stored item)' }),
  action: Type.String({ description: 'the calls as text, or that the item is stored only' }),
});
const AppSummary = Type.Object(
  {
    id: Type.String(),
    displayName: Type.String(),
    summary: Type.String(),
    description: Type.String(),
    version: Type.String(),
    totalItems: Type.Integer(),
    liveItems: Type.Integer(),
    storedItems: Type.Integer(),
    liveTypes: Type.Array(Type.String()),
    storedTypes: Type.Array(Type.String()),
  },
  { $id: 'AppSummary' },
);
const AppDetail = Type.Composite([
  Type.Omit(AppSummary, []),
  Type.Object({
    items: Type.Array(PlannedItem),
    edges: Type.Array(Type.Object({ from: Type.String(), to: Type.String(), kind: Type.String() })),
  }),
]);

function summary(app: CuratedApp) {
  const live = app.items.filter((i) => i.provisioning === 'live');
  const stored = app.items.filter((i) => i.provisioning !== 'live');
  return {
    id: app.id,
    displayName: app.displayName,
    summary: app.summary,
    description: app.description,
    version: app.version,
    totalItems: app.items.length,
    liveItems: live.length,
    storedItems: stored.length,
    liveTypes: [...new Set(live.map((i) => i.itemType))],
    storedTypes: [...new Set(stored.map((i) => i.itemType))],
  };
}

/** Catalog routes: the curated apps and what installing each one provisions. */
export const catalogRoutes =
  (catalog: Catalog): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/apps',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'listApps',
          tags: ['catalog'],
          summary: 'The curated apps',
          response: { 200: Type.Object({ ok: Ok, apps: Type.Array(Type.Ref(AppSummary)) }), ...errors() },
        },
      },
      async () => ({ ok: true as const, apps: catalog.apps.map(summary) }),
    );

    app.get(
      '/api/apps/:appId',
      {
        config: { scope: 'read' },
        schema: {
          operationId: 'getApp',
          tags: ['catalog'],
          summary: 'One app: its items, what installing it provisions (live or stored, and where), its thread',
          params: Type.Object({ appId: Id('app id') }),
          response: { 200: Type.Object({ ok: Ok, app: AppDetail }), ...errors(404) },
        },
      },
      async (req) => {
        const found = catalog.get(req.params.appId);
        if (!found) throw new NotFoundError('App', req.params.appId);
        return { ok: true as const, app: { ...summary(found), items: describeApp(found).items, edges: found.edges } };
      },
    );
  };

export const CATALOG_SCHEMAS = [AppSummary];
