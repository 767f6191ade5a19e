import { Type } from '@sinclair/typebox';
import { MODES } from '../install/types.js';
import { APP_ITEM_STATUSES, INSTALLED_APP_STATUSES } from './types.js';

const InstalledAppItemSchema = Type.Object({
  key: Type.String({ description: 'the item’s key in the app' }),
  itemType: Type.String(),
  displayName: Type.String({ description: 'the stored item’s current name' }),
  itemId: Type.String({ description: 'the stored item' }),
  resourceId: Type.Union([Type.String(), Type.Null()], { description: 'the live resource in the backing service, once provisioned' }),
  status: Type.Union(
    APP_ITEM_STATUSES.map((s) => Type.Literal(s)),
    { description: 'its provisioning step’s status; pending before the step ran; stored when the item has nothing live' },
  ),
});

export const InstalledAppSchema = Type.Object(
  {
    appId: Type.String(),
    displayName: Type.String({ description: 'the catalog’s name of the app' }),
    version: Type.String({ description: 'the catalog version installed' }),
    catalogVersion: Type.Union([Type.String(), Type.Null()], {
      description:
        'the catalog’s current version (an upgrade is available when it differs from version); null when the catalog no longer has the app',
    }),
    mode: Type.Union(MODES.map((m) => Type.Literal(m))),
    status: Type.Union(INSTALLED_APP_STATUSES.map((s) => Type.Literal(s))),
    target: Type.Record(Type.String(), Type.String(), { description: 'the resolved target of the install (no secrets)' }),
    items: Type.Array(InstalledAppItemSchema),
    lastJobId: Type.String({ description: 'the last job that ran on the app (poll it at /api/apps/install-jobs/{jobId})' }),
    installedAt: Type.String({ format: 'date-time' }),
    installedBy: Type.String({ description: 'the user who first installed it' }),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: Type.String({ description: 'the user whose job last changed it' }),
  },
  { $id: 'InstalledApp' },
);

export const INSTALLED_APP_SCHEMAS = [InstalledAppSchema];
