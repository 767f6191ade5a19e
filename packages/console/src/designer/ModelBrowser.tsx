import { useState } from 'react';
import { Field, makeStyles, Select, Text, tokens } from '@fluentui/react-components';
import { Table16Regular } from '@fluentui/react-icons';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { useItems } from '../api/items';
import { useHealth } from '../api/session';
import type { ItemTypeId } from '../api/types';
import { type DragPayload, startDrag } from './dnd';

const useStyles = makeStyles({
  tables: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: '4px', maxHeight: '280px', overflowY: 'auto' },
  table: { fontWeight: tokens.fontWeightSemibold, display: 'flex', gap: '4px', alignItems: 'center' },
  columns: { listStyleType: 'none', margin: 0, paddingLeft: '18px', display: 'grid' },
  column: {
    cursor: 'grab',
    padding: '1px 4px',
    border: 'none',
    background: 'none',
    color: tokens.colorNeutralForeground1,
    textAlign: 'left',
    width: '100%',
    fontSize: tokens.fontSizeBase200,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  hint: { color: tokens.colorNeutralForeground3 },
});

/** The reporting API host of each cloud, written into a semantic model's connection string. */
export const API_HOSTS: Record<string, string> = {
  gcc: 'api.powerbigov.us',
  'gcc-high': 'api.high.powerbigov.us',
  dod: 'api.mil.powerbigov.us',
};

const SEMANTIC_MODEL: ItemTypeId = 'semantic-model';

type ModelContent = { model?: { model?: { tables?: Array<{ name: string; columns?: Array<{ name: string; dataType?: string }> }> } } };

/** A semantic model of the workspace and its tables and columns (read from the model's definition), to drag onto the report. */
export function ModelBrowser({ workspaceId, onPlace }: { workspaceId: string; onPlace: (p: DragPayload) => void }) {
  const s = useStyles();
  const items = useItems(workspaceId);
  const health = useHealth();
  const models = (items.data ?? []).filter((i) => i.itemType === SEMANTIC_MODEL);
  const [modelId, setModelId] = useState('');
  const model = models.find((m) => m.id === modelId);
  const content = useQuery({
    queryKey: ['content', workspaceId, modelId],
    enabled: !!modelId,
    queryFn: () => api<{ content: ModelContent }>('GET', `/api/workspaces/${workspaceId}/items/${modelId}/content`),
  });
  const tables = content.data?.content.model?.model?.tables ?? [];
  const datasetId = model?.provisioning?.resourceId ?? undefined;
  const ref =
    model && datasetId
      ? {
          name: model.displayName.replace(/[^A-Za-z0-9_]/g, ''),
          apiHost: API_HOSTS[health.data?.cloud ?? ''] ?? 'api.powerbi.com',
          datasetId,
        }
      : undefined;
  return (
    <div data-testid="model-browser" style={{ display: 'grid', gap: 6 }}>
      <Field
        label="Semantic model"
        validationMessage={model && !datasetId ? 'This model is not provisioned yet: a report cannot connect to it' : undefined}
      >
        <Select aria-label="Semantic model" style={{ minWidth: 0, width: '100%' }} value={modelId} onChange={(_, d) => setModelId(d.value)}>
          <option value="">
            {items.isPending ? 'Loading…' : models.length ? 'Choose a semantic model' : 'No semantic models in this workspace'}
          </option>
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.displayName}
            </option>
          ))}
        </Select>
      </Field>
      {modelId && content.isPending && <Text size={200}>Reading the model…</Text>}
      {ref && tables.length > 0 && (
        <>
          <Text size={200} className={s.hint}>
            Drag a column onto the report (or select a cell and press Enter on the column).
          </Text>
          <ul className={s.tables} aria-label="Tables of the model">
            {tables.map((t) => (
              <li key={t.name}>
                <span className={s.table}>
                  <Table16Regular aria-hidden /> {t.name}
                </span>
                <ul className={s.columns} aria-label={`Columns of ${t.name}`}>
                  {(t.columns ?? []).map((c) => {
                    const payload: DragPayload = {
                      kind: 'modelColumn',
                      model: ref,
                      column: { table: t.name, column: c.name, dataType: c.dataType },
                    };
                    return (
                      <li key={c.name}>
                        <button
                          type="button"
                          draggable
                          className={s.column}
                          data-column={`${t.name}.${c.name}`}
                          title={`${t.name}[${c.name}] (${c.dataType ?? 'string'})`}
                          onDragStart={(e) => startDrag(e, payload)}
                          onClick={() => onPlace(payload)}
                        >
                          {c.name}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
