import type { SandboxCore } from '../core.js';
import type { Item } from './store.js';

/** The Item body: {id, type, displayName, description, workspaceId}. */
export function itemJson(item: Item): Record<string, unknown> {
  return { id: item.id, type: item.type, displayName: item.displayName, description: item.description, workspaceId: item.workspaceId };
}

/** Typed GETs add `properties` for some types (lakehouse SQL endpoint, KQL endpoints, warehouse connection). */
export function typedItemJson(core: SandboxCore, item: Item): Record<string, unknown> {
  const base = itemJson(item);
  const oneLake = `${core.urls.oneLake}/${item.workspaceId}/${item.id}`;
  const hostId = item.id.replace(/-/g, '').slice(0, 26);
  switch (item.type) {
    case 'Lakehouse': {
      const ready = Date.now() >= item.createdAt + core.switches['dataPlatform.sqlEndpointDelayMs'];
      const schemas = item.creationPayload?.enableSchemas === true;
      return {
        ...base,
        properties: {
          oneLakeTablesPath: `${oneLake}/Tables`,
          oneLakeFilesPath: `${oneLake}/Files`,
          sqlEndpointProperties: {
            id: item.sqlEndpointId,
            connectionString: `${hostId}-${item.workspaceId.replace(/-/g, '').slice(0, 26)}.datawarehouse.fabric.microsoft.com`,
            provisioningStatus: ready ? 'Success' : 'InProgress',
          },
          ...(schemas ? { defaultSchema: 'dbo' } : {}),
        },
      };
    }
    case 'Eventhouse':
      return {
        ...base,
        properties: {
          queryServiceUri: core.urls.kql,
          ingestionServiceUri: core.urls.kql,
          databasesItemIds: [],
          minimumConsumptionUnits: item.creationPayload?.minimumConsumptionUnits ?? 0,
        },
      };
    case 'KQLDatabase':
      return {
        ...base,
        properties: {
          parentEventhouseItemId: item.creationPayload?.parentEventhouseItemId,
          queryServiceUri: core.urls.kql,
          ingestionServiceUri: core.urls.kql,
          databaseType: item.creationPayload?.databaseType ?? 'ReadWrite',
          oneLakeCachingPeriod: 'P36500D',
          oneLakeStandardStoragePeriod: 'P36500D',
        },
      };
    case 'Warehouse':
      return {
        ...base,
        properties: {
          connectionString: `${hostId}.datawarehouse.fabric.microsoft.com`,
          createdDate: new Date(item.createdAt).toISOString(),
          lastUpdatedTime: new Date(item.createdAt).toISOString(),
          collationType: item.creationPayload?.collationType ?? 'Latin1_General_100_BIN2_UTF8',
        },
      };
    default:
      return base;
  }
}
