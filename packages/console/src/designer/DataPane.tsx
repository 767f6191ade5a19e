import { useState } from 'react';
import { Accordion, AccordionHeader, AccordionItem, AccordionPanel, Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Add20Regular, Edit20Regular } from '@fluentui/react-icons';
import { DataSetDialog, type DataSetForm, formOf } from './DataSetDialog';
import type { DragPayload } from './dnd';
import { FieldButton } from './FieldButton';
import { ModelBrowser } from './ModelBrowser';
import { ParametersPane } from './ParametersPane';
import { dataSets, dataSources, isNumericType, saveDataSet } from './model/data';
import { BUILT_IN_FIELDS, contextFor } from './model/expression-check';
import { parameters } from './model/params';
import type { RdlDocument } from './model/report';

const useStyles = makeStyles({
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: '2px' },
  set: { display: 'flex', alignItems: 'center', gap: '4px', fontWeight: tokens.fontWeightSemibold },
  fields: { listStyleType: 'none', margin: '0 0 6px', paddingLeft: '14px', display: 'grid' },
  hint: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  mono: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
});

type Edit = (fn: (doc: RdlDocument) => void) => void;

/** The report data pane: built-in fields, parameters, data sources, data sets with their fields, and a semantic model's tables. */
export function DataPane({
  doc,
  workspaceId,
  edit,
  onPlace,
}: {
  doc: RdlDocument;
  workspaceId: string;
  edit: Edit;
  onPlace: (p: DragPayload) => void;
}) {
  const s = useStyles();
  const [dialog, setDialog] = useState<{ form: DataSetForm; isNew: boolean } | null>(null);
  const sources = dataSources(doc);
  const sets = dataSets(doc);
  return (
    <nav aria-label="Report data" data-testid="report-data">
      <Accordion multiple collapsible defaultOpenItems={['model', 'sets', 'parameters']}>
        <AccordionItem value="model">
          <AccordionHeader size="small">Semantic model</AccordionHeader>
          <AccordionPanel>
            <ModelBrowser workspaceId={workspaceId} onPlace={onPlace} />
          </AccordionPanel>
        </AccordionItem>
        <AccordionItem value="sets">
          <AccordionHeader size="small">Data sets</AccordionHeader>
          <AccordionPanel>
            <ul className={s.list} aria-label="Data sets">
              {sets.map((d) => (
                <li key={d.name}>
                  <span className={s.set}>
                    <span style={{ flexGrow: 1 }}>{d.name}</span>
                    <Button
                      size="small"
                      appearance="subtle"
                      icon={<Edit20Regular />}
                      aria-label={`Edit data set ${d.name}`}
                      onClick={() => setDialog({ form: formOf(d), isNew: false })}
                    />
                  </span>
                  <ul className={s.fields} aria-label={`Fields of ${d.name}`}>
                    {d.fields.map((f) => {
                      const payload: DragPayload = { kind: 'field', dataSet: d.name, name: f.name, numeric: isNumericType(f.typeName) };
                      return (
                        <li key={f.name}>
                          <FieldButton
                            payload={payload}
                            label={f.name}
                            data-field={`${d.name}.${f.name}`}
                            title={f.dataField}
                            onPlace={onPlace}
                          />
                        </li>
                      );
                    })}
                  </ul>
                </li>
              ))}
            </ul>
            {sets.length === 0 && <Text className={s.hint}>No data sets yet: drag a model column onto the report, or add one.</Text>}
            <Button
              size="small"
              icon={<Add20Regular />}
              disabled={!sources.length}
              onClick={() =>
                setDialog({
                  form: { name: 'DataSet', dataSource: sources[0]?.name ?? '', commandText: '', fields: [], filters: [] },
                  isNew: true,
                })
              }
            >
              Add data set
            </Button>
          </AccordionPanel>
        </AccordionItem>
        <AccordionItem value="parameters">
          <AccordionHeader size="small">Parameters</AccordionHeader>
          <AccordionPanel>
            <ParametersPane doc={doc} edit={edit} />
          </AccordionPanel>
        </AccordionItem>
        <AccordionItem value="sources">
          <AccordionHeader size="small">Data sources</AccordionHeader>
          <AccordionPanel>
            <ul className={s.list} aria-label="Data sources">
              {sources.map((d) => (
                <li key={d.name}>
                  <Text weight="semibold">{d.name}</Text> <Text className={s.hint}>{d.provider}</Text>
                  <div className={s.mono} style={{ overflowWrap: 'anywhere' }}>
                    {d.connectString}
                  </div>
                </li>
              ))}
            </ul>
            {sources.length === 0 && <Text className={s.hint}>None yet: a model column dragged onto the report adds its model.</Text>}
          </AccordionPanel>
        </AccordionItem>
        <AccordionItem value="builtin">
          <AccordionHeader size="small">Built-in fields</AccordionHeader>
          <AccordionPanel>
            <ul className={s.list} aria-label="Built-in fields">
              {BUILT_IN_FIELDS.map((f) => (
                <li key={f} className={s.mono}>
                  {f}
                </li>
              ))}
            </ul>
          </AccordionPanel>
        </AccordionItem>
      </Accordion>
      {dialog && (
        <DataSetDialog
          initial={dialog.form}
          sources={sources}
          isNew={dialog.isNew}
          context={contextFor(doc, sets, parameters(doc))}
          onClose={() => setDialog(null)}
          onSave={(f) => {
            const isNew = dialog.isNew;
            setDialog(null);
            edit((d) => saveDataSet(d, f, isNew));
          }}
        />
      )}
    </nav>
  );
}
