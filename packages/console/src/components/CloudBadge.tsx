import { Badge, Tooltip } from '@fluentui/react-components';
import { useHealth } from '../api/session';

const NAMES: Record<string, string> = { commercial: 'Commercial cloud', gcc: 'GCC', 'gcc-high': 'GCC High', dod: 'DoD IL5' };

/** Which cloud this deployment runs in; the sandbox is marked so nobody mistakes it for production. */
export function CloudBadge() {
  const health = useHealth();
  if (health.isPending)
    return (
      <Badge appearance="outline" color="informative">
        cloud…
      </Badge>
    );
  if (health.isError)
    return (
      <Badge appearance="filled" color="danger">
        cloud unknown: {(health.error as Error).message}
      </Badge>
    );
  const cloud = health.data.cloud ?? 'unknown';
  // Without the data platform (GCC-High and DoD today) the platform's item types run on the Azure-native services.
  const native = health.data.dataPlatform === false ? ' · no data platform' : '';
  const nativeHelp = native
    ? ' This cloud has no data platform: lakehouses, notebooks, pipelines and the other platform types run on Azure-native services.'
    : '';
  if (cloud === 'sandbox') {
    return (
      <Tooltip
        relationship="description"
        content={`Local emulators of the backing services${health.data.sandbox ? ` (admin ${health.data.sandbox.admin})` : ''}. Nothing here reaches a real cloud.${nativeHelp}`}
      >
        <Badge appearance="filled" color="warning" size="large" data-testid="cloud-badge" tabIndex={0}>
          SANDBOX · not production{native}
        </Badge>
      </Tooltip>
    );
  }
  return (
    <Tooltip relationship="description" content={`The ${NAMES[cloud] ?? cloud} cloud.${nativeHelp}`}>
      <Badge appearance="tint" color="informative" size="large" data-testid="cloud-badge" tabIndex={0}>
        {NAMES[cloud] ?? cloud}
        {native}
      </Badge>
    </Tooltip>
  );
}
