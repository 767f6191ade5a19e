import { part } from '../../backends/data-platform.js';
import type { Provisioner } from '../context.js';
import { ensurePlatformItem, platformPart } from './platform-item.js';

/** mirrored-database: the platform's existing call, POST /workspaces/{ws}/mirroredDatabases with mirroring.json (required). */
export const provisionMirroredDatabase: Provisioner = async (ctx) => {
  const definition = { parts: [part('mirroring.json', JSON.stringify(ctx.content.mirroring, null, 2)), platformPart(ctx, 'MirroredDatabase')] };
  const { item, created } = await ensurePlatformItem(ctx, { type: 'MirroredDatabase', collection: 'mirroredDatabases', definition, definitionAtCreate: true });
  return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds: { platformWorkspaceId: ctx.target.platformWorkspaceId! } };
};
