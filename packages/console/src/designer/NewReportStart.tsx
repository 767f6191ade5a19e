import { useState } from 'react';
import { Button, Card, Checkbox, Field, Input, makeStyles, Radio, RadioGroup, Select, Text } from '@fluentui/react-components';
import { useSemanticModel } from '../api/semantic-models';
import { blankReport, reportFromModel } from './model/blank';
import { ModelOptions } from '../components/reports/ModelOptions';

const useStyles = makeStyles({
  root: { maxWidth: '640px', display: 'grid', gap: '12px', padding: '16px' },
  tables: { display: 'grid', gridTemplateColumns: '1fr 1fr', border: 0, margin: 0, padding: 0, minWidth: 0 },
});

/** Create from scratch: a name, and a blank report or one with a table per chosen table of a semantic model. */
export function NewReportStart({ workspaceId, onStart }: { workspaceId: string; onStart: (name: string, text: string) => void }) {
  const s = useStyles();
  const [name, setName] = useState('');
  const [from, setFrom] = useState<'blank' | 'model'>('blank');
  const [modelId, setModelId] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const { models, model, tables, datasetId, source, loadingModels } = useSemanticModel(workspaceId, modelId);
  const ready = name.trim() && (from === 'blank' || (datasetId && picked.length));
  const start = () => {
    const title = name.trim();
    if (from === 'blank' || !source) return onStart(title, blankReport(title));
    onStart(
      title,
      reportFromModel(
        title,
        source,
        tables
          .filter((t) => picked.includes(t.name))
          .map((t) => ({ name: t.name, columns: (t.columns ?? []).map((c) => ({ table: t.name, column: c.name, dataType: c.dataType })) })),
      ),
    );
  };
  return (
    <Card className={s.root} aria-label="New report">
      <Text weight="semibold" size={400}>
        New paginated report
      </Text>
      <Field label="Report name" required>
        <Input value={name} onChange={(_, d) => setName(d.value)} />
      </Field>
      <RadioGroup aria-label="Start from" value={from} onChange={(_, d) => setFrom(d.value as 'blank' | 'model')}>
        <Radio value="blank" label="A blank report (a title, a page header and footer)" />
        <Radio value="model" label="Tables of a semantic model (a table per chosen table)" />
      </RadioGroup>
      {from === 'model' && (
        <>
          <Field label="Semantic model" validationMessage={model && !datasetId ? 'This model is not provisioned yet' : undefined}>
            <Select value={modelId} onChange={(_, d) => setModelId(d.value)}>
              <ModelOptions models={models} loading={loadingModels} />
            </Select>
          </Field>
          {tables.length > 0 && (
            <fieldset className={s.tables} aria-label="Tables">
              {tables.map((t) => (
                <Checkbox
                  key={t.name}
                  label={t.name}
                  checked={picked.includes(t.name)}
                  onChange={(_, d) => setPicked((old) => (d.checked ? [...old, t.name] : old.filter((x) => x !== t.name)))}
                />
              ))}
            </fieldset>
          )}
        </>
      )}
      <Text size={200}>The report opens in the designer; nothing is published until you publish it.</Text>
      <div>
        <Button appearance="primary" disabled={!ready} onClick={start}>
          Create
        </Button>
      </div>
    </Card>
  );
}
