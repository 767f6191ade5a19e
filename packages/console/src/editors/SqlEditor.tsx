import { Button, makeStyles, tokens, Text } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { CodeEditor } from './code';
import { asArray, asObject, fieldUnder, mono, problemsAt, type EditorProps } from './types';

const useStyles = makeStyles({
  batch: { display: 'grid', gridTemplateColumns: '48px 1fr 32px', gap: '6px', alignItems: 'start', marginBottom: '8px' },
  num: { color: tokens.colorNeutralForeground3, textAlign: 'right', paddingTop: '6px', fontFamily: mono.fontFamily, fontSize: '13px' },
});

/** A warehouse's T-SQL: one batch per statement, run in order at install (models stay in the JSON tab). */
export default function SqlEditor({ value, onChange, label, readOnly, fieldError }: EditorProps) {
  const s = useStyles();
  const wh = asObject(value);
  const ddl = asArray<string>(wh.ddl);
  const set = (next: string[]) => onChange({ ...wh, ddl: next });
  return (
    <section aria-label={label}>
      <Text size={200} block style={{ marginBottom: 8 }}>
        {ddl.length} T-SQL batches
      </Text>
      {ddl.map((sql, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a batch is a bare string; its position is its identity ("Batch 2")
        <div key={i} className={s.batch}>
          <span className={s.num} aria-hidden>
            {i + 1}
          </span>
          <CodeEditor
            label={`Batch ${i + 1}`}
            value={sql}
            language="sql"
            readOnly={readOnly}
            minHeight={48}
            maxHeight={320}
            reveal
            diagnostics={problemsAt(fieldUnder(fieldError, `/ddl/${i}`))}
            onChange={(text) => set(ddl.map((x, j) => (j === i ? text : x)))}
          />
          <Button
            disabled={readOnly}
            size="small"
            appearance="subtle"
            icon={<Delete20Regular />}
            aria-label={`Delete batch ${i + 1}`}
            onClick={() => set(ddl.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button disabled={readOnly} icon={<Add20Regular />} onClick={() => set([...ddl, ''])}>
        Batch
      </Button>
    </section>
  );
}
