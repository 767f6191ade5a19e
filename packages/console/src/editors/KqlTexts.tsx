import { Button, Input, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { CodeEditor } from './code';
import { fieldUnder, mono, problemsAt, type FieldError } from './types';

/** A named KQL text of the content: a queryset's saved query (text) or a database's function (body). */
export type KqlText = { name: string } & Record<string, unknown>;

const useStyles = makeStyles({
  entry: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '8px 12px',
    marginBottom: '12px',
    display: 'grid',
    gap: '6px',
  },
  head: { display: 'flex', alignItems: 'center', gap: '8px' },
});

/** KQL texts edited with KQL highlighting: `field` is the member holding the text, `path` the content's JSON pointer of the list. */
export function KqlTexts({
  title,
  noun,
  items,
  field,
  path,
  onChange,
  readOnly,
  fieldError,
}: {
  title: string;
  noun: 'Query' | 'Function';
  items: KqlText[];
  field: 'text' | 'body';
  path: string;
  onChange: (next: KqlText[]) => void;
  readOnly?: boolean;
  fieldError?: FieldError;
}) {
  const s = useStyles();
  const setAt = (i: number, patch: Partial<KqlText>) => onChange(items.map((x, j) => (j === i ? { ...x, ...patch } : x)));
  return (
    <section aria-label={title}>
      <Text weight="semibold" block style={{ margin: '8px 0' }}>
        {title}
      </Text>
      {items.map((q, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id, and a key from the editable name would remount the editor on each keystroke
        <div key={i} className={s.entry} data-testid="kql-text">
          <div className={s.head}>
            <Input
              disabled={readOnly}
              aria-label={`${noun} ${i + 1} name`}
              value={q.name}
              onChange={(_, d) => setAt(i, { name: d.value })}
              input={{ style: mono }}
            />
            {typeof q.parameters === 'string' && <Text style={mono}>{q.parameters}</Text>}
            <span style={{ flexGrow: 1 }} />
            <Button
              disabled={readOnly}
              size="small"
              appearance="subtle"
              icon={<Delete20Regular />}
              aria-label={`Delete ${noun.toLowerCase()} ${q.name}`}
              onClick={() => onChange(items.filter((_, j) => j !== i))}
            />
          </div>
          <CodeEditor
            label={`${noun} ${i + 1} KQL`}
            value={typeof q[field] === 'string' ? (q[field] as string) : ''}
            language="kql"
            readOnly={readOnly}
            minHeight={64}
            maxHeight={360}
            reveal
            diagnostics={problemsAt(fieldUnder(fieldError, `${path}/${i}`))}
            onChange={(text) => setAt(i, { [field]: text })}
          />
        </div>
      ))}
      <Button
        disabled={readOnly}
        icon={<Add20Regular />}
        onClick={() =>
          onChange([
            ...items,
            noun === 'Query'
              ? { name: `Query${items.length + 1}`, text: '' }
              : { name: `Function${items.length + 1}`, parameters: '()', body: '' },
          ])
        }
      >
        {noun}
      </Button>
    </section>
  );
}
