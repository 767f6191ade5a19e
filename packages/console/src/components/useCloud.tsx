import { Badge } from '@fluentui/react-components';
import { useHealth } from '../api/session';

const NAMES: Record<string, string> = { commercial: 'Commercial cloud', gcc: 'GCC', 'gcc-high': 'GCC High', dod: 'DoD IL5' };

/** The cloud's badge and the sentence that explains it, from the deployment's health; null while it is not known. */
export function useCloud() {
  const health = useHealth();
  if (health.isPending)
    return {
      badge: (
        <Badge appearance="outline" color="informative">
          cloud…
        </Badge>
      ),
    };
  if (health.isError)
    return {
      badge: (
        <Badge appearance="filled" color="danger">
          cloud unknown: {(health.error as Error).message}
        </Badge>
      ),
    };
  const cloud = health.data.cloud ?? 'unknown';
  // Without the data platform (GCC-High and DoD today) the platform's item types run on the Azure-native services.
  const native = health.data.dataPlatform === false ? ' · no data platform' : '';
  const nativeHelp = native
    ? ' This cloud has no data platform: lakehouses, notebooks, pipelines and the other platform types run on Azure-native services.'
    : '';
  if (cloud === 'sandbox')
    return {
      description: `Local emulators of the backing services${health.data.sandbox ? ` (admin ${health.data.sandbox.admin})` : ''}. Nothing here reaches a real cloud.${nativeHelp}`,
      badge: (
        <Badge appearance="filled" color="warning" size="large" data-testid="cloud-badge" tabIndex={0}>
          SANDBOX · not production{native}
        </Badge>
      ),
    };
  return {
    description: `The ${NAMES[cloud] ?? cloud} cloud.${nativeHelp}`,
    badge: (
      <Badge appearance="tint" color="informative" size="large" data-testid="cloud-badge" tabIndex={0}>
        {NAMES[cloud] ?? cloud}
        {native}
      </Badge>
    ),
  };
}
