import { Badge, Link, Tooltip } from '@fluentui/react-components';
import type { Item } from '../api/types';

/** Each backend as a person reads it: the service an item lives in. */
export const BACKEND_NAMES: Record<string, { label: string; help: string }> = {
  'data-platform': { label: 'Data platform', help: 'an item of the data platform workspace' },
  kql: { label: 'KQL cluster', help: 'a database or objects on the KQL cluster' },
  search: { label: 'Search', help: 'an index of the search service' },
  warehouse: { label: 'Warehouse', help: 'objects in the Synapse dedicated SQL pool' },
  reporting: { label: 'Reporting', help: 'an item of the reporting service (semantic model or report)' },
  synapse: { label: 'Synapse', help: 'an artifact of the Synapse workspace (notebook or pipeline)' },
  lake: { label: 'Lake + SQL', help: 'folders in the lake account and a database on the serverless SQL pool' },
  'event-hubs': { label: 'Event Hubs', help: 'an event hub with a consumer group and a KQL data connection' },
  monitor: { label: 'Azure Monitor', help: 'scheduled query rules with an action group' },
  stored: { label: 'Stored here', help: 'kept in this service only: the cloud has no published API for the type' },
};

/** An item's backend as a small badge (what the cloud provisions it on), with its meaning on hover. */
export function BackendBadge({ backend }: { backend: Item['backend'] }) {
  if (!backend) return null;
  const b = BACKEND_NAMES[backend] ?? { label: backend, help: backend };
  return (
    <Tooltip content={b.help} relationship="description">
      <Badge appearance="outline" color="informative" data-testid="backend-badge" data-backend={backend}>
        {b.label}
      </Badge>
    </Tooltip>
  );
}

/** The link to the portal of the item's cloud that shows its live resource. */
export function PortalLink({ portal }: { portal: Item['portal'] }) {
  if (!portal) return null;
  return (
    <Link href={portal.url} target="_blank" rel="noreferrer" data-testid="portal-link">
      Open in {portal.name}
    </Link>
  );
}
