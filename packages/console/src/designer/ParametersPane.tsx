import { useState } from 'react';
import { Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Edit20Regular } from '@fluentui/react-icons';
import { ParameterDialog } from './ParameterDialog';
import { dataSets } from './model/data';
import { contextFor } from './model/expression-check';
import { deleteParameter, type ParameterDef, parameterFault, parameters, saveParameter } from './model/params';
import type { RdlDocument } from './model/report';

const useStyles = makeStyles({
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: '2px' },
  row: { display: 'flex', alignItems: 'center', gap: '4px' },
  name: { flexGrow: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' },
  hint: { color: tokens.colorNeutralForeground3 },
});

const blank = (): ParameterDef => ({
  name: '',
  dataType: 'String',
  prompt: '',
  multiValue: false,
  nullable: false,
  allowBlank: false,
  hidden: false,
  defaults: { kind: 'none' },
  available: { kind: 'none' },
});

/** The report's parameters: each with its type and flags, to add, edit and delete. */
export function ParametersPane({ doc, edit }: { doc: RdlDocument; edit: (fn: (doc: RdlDocument) => void) => void }) {
  const s = useStyles();
  const [open, setOpen] = useState<{ initial: ParameterDef; previous?: string } | null>(null);
  const [fault, setFault] = useState<string>();
  const list = parameters(doc);
  const sets = dataSets(doc);
  const save = (p: ParameterDef) => {
    const problem = parameterFault(doc, p, open?.previous);
    if (problem) return setFault(problem);
    const previous = open?.previous;
    setOpen(null);
    setFault(undefined);
    edit((d) => saveParameter(d, p, previous));
  };
  return (
    <section aria-label="Parameters" data-testid="parameters-pane">
      <ul className={s.list}>
        {list.map((p) => (
          <li key={p.name} className={s.row}>
            <span className={s.name}>
              <Text>{p.name}</Text>{' '}
              <Text size={200} className={s.hint}>
                {p.dataType}
                {p.multiValue ? ', multi' : ''}
                {p.nullable ? ', null' : ''}
                {p.hidden ? ', hidden' : ''}
              </Text>
            </span>
            <Button
              size="small"
              appearance="subtle"
              icon={<Edit20Regular />}
              aria-label={`Edit parameter ${p.name}`}
              onClick={() => setOpen({ initial: p, previous: p.name })}
            />
            <Button
              size="small"
              appearance="subtle"
              icon={<Delete20Regular />}
              aria-label={`Delete parameter ${p.name}`}
              onClick={() => edit((d) => deleteParameter(d, p.name))}
            />
          </li>
        ))}
      </ul>
      {list.length === 0 && <Text size={200}>No parameters.</Text>}
      <Button size="small" icon={<Add20Regular />} onClick={() => setOpen({ initial: blank() })}>
        Add parameter
      </Button>
      {open && (
        <ParameterDialog
          initial={open.initial}
          sets={sets}
          context={contextFor(doc, sets, list)}
          fault={fault}
          onClose={() => {
            setOpen(null);
            setFault(undefined);
          }}
          onSave={save}
        />
      )}
    </section>
  );
}
