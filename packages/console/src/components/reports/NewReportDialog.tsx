import { useMemo, useState } from 'react';
import { Checkbox, Field, Input, Label, Select, Text } from '@fluentui/react-components';
import { Add20Regular } from '@fluentui/react-icons';
import { useCanOn } from '../../api/access';
import { useReportMutations } from '../../api/reports';
import { useSemanticModel } from '../../api/semantic-models';
import { FormDialog } from '../FormDialog';
import { GuardedButton } from '../GuardedButton';
import { tableReport } from './table-report';
import { ModelOptions } from './ModelOptions';

/** Create from scratch: a formatted table over one table of a semantic model in the workspace, published as a new report. */
export function NewReportButton({ workspaceId, onCreated }: { workspaceId: string; onCreated: (reportId: string) => void }) {
  const [open, setOpen] = useState(false);
  const allow = useCanOn(workspaceId);
  return (
    <>
      <GuardedButton icon={<Add20Regular />} onClick={() => setOpen(true)} permission={allow('report.create')}>
        New table report
      </GuardedButton>
      {open && (
        <NewReportDialog
          workspaceId={workspaceId}
          onClose={() => setOpen(false)}
          onCreated={(id) => {
            setOpen(false);
            onCreated(id);
          }}
        />
      )}
    </>
  );
}

function NewReportDialog({
  workspaceId,
  onClose,
  onCreated,
}: {
  workspaceId: string;
  onClose: () => void;
  onCreated: (reportId: string) => void;
}) {
  const { publish } = useReportMutations(workspaceId);
  const [modelId, setModelId] = useState('');
  const [table, setTable] = useState('');
  const [picked, setPicked] = useState<Set<string> | null>(null);
  const [name, setName] = useState('');
  const { models, model, tables, datasetId, apiHost, loadingModels, loadingTables } = useSemanticModel(workspaceId, modelId);
  const columns = useMemo(() => tables.find((t) => t.name === table)?.columns ?? [], [tables, table]);
  const chosen = columns.filter((c) => !picked || picked.has(c.name));

  const submit = () => {
    if (!model || !datasetId || !chosen.length) return;
    const definition = tableReport({
      title: name.trim(),
      apiHost,
      datasetId,
      table,
      columns: chosen,
    });
    publish.mutate({ name: name.trim(), definition }, { onSuccess: (r) => onCreated(r.id) });
  };

  return (
    <FormDialog
      open
      onClose={onClose}
      title="New table report from a semantic model"
      submitLabel="Create and publish"
      pending={publish.isPending}
      error={publish.error}
      disabled={!name.trim() || !datasetId || !chosen.length}
      onSubmit={submit}
    >
      <Field
        label="Semantic model"
        required
        validationMessage={
          model && !datasetId ? 'This model is not provisioned in the data platform yet, so a report cannot connect to it' : undefined
        }
      >
        <Select
          aria-label="Semantic model"
          value={modelId}
          onChange={(_, d) => {
            setModelId(d.value);
            setTable('');
            setPicked(null);
          }}
        >
          <ModelOptions models={models} loading={loadingModels} />
        </Select>
      </Field>
      {modelId && (
        <Field label="Table" required>
          <Select
            aria-label="Table"
            value={table}
            onChange={(_, d) => {
              setTable(d.value);
              setPicked(null);
              if (!name) setName(d.value);
            }}
          >
            <option value="">{loadingTables ? 'Loading…' : 'Choose a table'}</option>
            {tables.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {columns.length > 0 && (
        // Not inside a Field: a Field gives every Fluent control in it the same id.
        <div style={{ display: 'grid', gap: 4 }}>
          <Label id="new-report-columns">Columns</Label>
          <fieldset
            aria-labelledby="new-report-columns"
            style={{
              border: 0,
              margin: 0,
              padding: 0,
              minWidth: 0,
              display: 'grid',
              gridTemplateColumns: '1fr 1fr',
              maxHeight: 200,
              overflow: 'auto',
            }}
          >
            {columns.map((c) => (
              <Checkbox
                key={c.name}
                label={c.name}
                checked={!picked || picked.has(c.name)}
                onChange={(_, d) =>
                  setPicked((old) => {
                    const s = new Set(old ?? columns.map((x) => x.name));
                    if (d.checked) s.add(c.name);
                    else s.delete(c.name);
                    return s;
                  })
                }
              />
            ))}
          </fieldset>
        </div>
      )}
      <Field label="Report name" required>
        <Input aria-label="Report name" value={name} onChange={(_, d) => setName(d.value)} />
      </Field>
      <Text size={200}>
        The report is a formatted table (header row, one row per record), published to the workspace's reporting service with the import
        call.
      </Text>
    </FormDialog>
  );
}
