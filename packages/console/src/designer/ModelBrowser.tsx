import { useState } from 'react';
import { Field, makeStyles, Select, Text, tokens } from '@fluentui/react-components';
import { Table20Regular } from '@fluentui/react-icons';
import { useSemanticModel } from '../api/semantic-models';
import type { DragPayload } from './dnd';
import { FieldButton } from './FieldButton';
import { ModelOptions } from '../components/reports/ModelOptions';

const useStyles = makeStyles({
  tables: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: '4px', maxHeight: '280px', overflowY: 'auto' },
  table: { fontWeight: tokens.fontWeightSemibold, display: 'flex', gap: '4px', alignItems: 'center' },
  columns: { listStyleType: 'none', margin: 0, paddingLeft: '18px', display: 'grid' },
  hint: { color: tokens.colorNeutralForeground3 },
});

/** A semantic model of the workspace and its tables and columns (read from the model's definition), to drag onto the report. */
export function ModelBrowser({ workspaceId, onPlace }: { workspaceId: string; onPlace: (p: DragPayload) => void }) {
  const s = useStyles();
  const [modelId, setModelId] = useState('');
  const { models, model, tables, datasetId, source: ref, loadingModels, loadingTables } = useSemanticModel(workspaceId, modelId);
  return (
    <div data-testid="model-browser" style={{ display: 'grid', gap: 6 }}>
      <Field
        label="Semantic model"
        validationMessage={model && !datasetId ? 'This model is not provisioned yet: a report cannot connect to it' : undefined}
      >
        <Select aria-label="Semantic model" style={{ minWidth: 0, width: '100%' }} value={modelId} onChange={(_, d) => setModelId(d.value)}>
          <ModelOptions models={models} loading={loadingModels} />
        </Select>
      </Field>
      {loadingTables && <Text size={200}>Reading the model…</Text>}
      {ref && tables.length > 0 && (
        <>
          <Text size={200} className={s.hint}>
            Drag a column onto the report (or select a cell and press Enter on the column).
          </Text>
          <ul className={s.tables} aria-label="Tables of the model">
            {tables.map((t) => (
              <li key={t.name}>
                <span className={s.table}>
                  <Table20Regular aria-hidden /> {t.name}
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
                        <FieldButton
                          payload={payload}
                          label={c.name}
                          data-column={`${t.name}.${c.name}`}
                          title={`${t.name}[${c.name}] (${c.dataType ?? 'string'})`}
                          onPlace={onPlace}
                        />
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
