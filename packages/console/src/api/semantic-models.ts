import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useItems } from './items';
import { useHealth } from './session';
import type { ItemTypeId } from './types';

const SEMANTIC_MODEL: ItemTypeId = 'semantic-model';

/** The reporting API host of each cloud, written into a semantic model's connection string. */
const API_HOSTS: Record<string, string> = { gcc: 'api.powerbigov.us', 'gcc-high': 'api.high.powerbigov.us', dod: 'api.mil.powerbigov.us' };

export interface ModelTable {
  name: string;
  columns?: Array<{ name: string; dataType?: string }>;
}

type ModelContent = { model?: { model?: { tables?: ModelTable[] } } };

/**
 * The semantic models of a workspace and, for the chosen one, its tables and columns (read from its definition, the
 * item's content) and what a report's data source names: its dataset id and the cloud's reporting API host.
 */
export function useSemanticModel(workspaceId: string, modelId: string) {
  const items = useItems(workspaceId);
  const health = useHealth();
  const models = (items.data ?? []).filter((i) => i.itemType === SEMANTIC_MODEL);
  const model = models.find((m) => m.id === modelId);
  const content = useQuery({
    queryKey: ['content', workspaceId, modelId],
    enabled: !!modelId,
    queryFn: () => api<{ content: ModelContent }>('GET', `/api/workspaces/${workspaceId}/items/${modelId}/content`),
  });
  const datasetId = model?.provisioning?.resourceId ?? undefined;
  return {
    models,
    model,
    loadingModels: items.isPending,
    loadingTables: !!modelId && content.isPending,
    tables: content.data?.content.model?.model?.tables ?? [],
    datasetId,
    apiHost: API_HOSTS[health.data?.cloud ?? ''] ?? 'api.powerbi.com',
    /** What the report's data source needs of the model; undefined until it is provisioned. */
    source:
      model && datasetId
        ? {
            name: model.displayName.replace(/[^A-Za-z0-9_]/g, '') || 'Model',
            apiHost: API_HOSTS[health.data?.cloud ?? ''] ?? 'api.powerbi.com',
            datasetId,
          }
        : undefined,
  };
}
