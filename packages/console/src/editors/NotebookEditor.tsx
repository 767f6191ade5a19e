import { Badge, Button, Select, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, ArrowDown20Regular, ArrowUp20Regular, Delete20Regular } from '@fluentui/react-icons';
import { CodeEditor } from './code';
import { asArray, asObject, fieldUnder, problemsAt, type EditorProps } from './types';

interface Cell {
  kind: 'code' | 'markdown';
  source: string;
  [k: string]: unknown;
}

const useStyles = makeStyles({
  cell: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '8px',
    display: 'grid',
    gap: '6px',
    marginBottom: '10px',
  },
  bar: { display: 'flex', gap: '6px', alignItems: 'center' },
});

/** Notebook cells, code and markdown, each edited in place; other fields are kept as they are. */
export default function NotebookEditor({ value, onChange, label, readOnly, fieldError }: EditorProps) {
  const s = useStyles();
  const nb = asObject(value);
  const cells = asArray<Cell>(nb.cells);
  const set = (next: Cell[]) => onChange({ ...nb, cells: next });
  const update = (i: number, patch: Partial<Cell>) => set(cells.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const move = (i: number, d: number) => {
    const next = [...cells];
    [next[i], next[i + d]] = [next[i + d]!, next[i]!];
    set(next);
  };
  return (
    <section aria-label={label}>
      {typeof nb.language === 'string' && (
        <Badge appearance="outline" style={{ marginBottom: 8 }}>
          {nb.language}
        </Badge>
      )}
      {cells.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: cells have no id; their position is what the editor shows ([1], [2] …)
        <div key={i} className={s.cell} data-testid="notebook-cell">
          <div className={s.bar}>
            <Badge appearance="tint" color={c.kind === 'code' ? 'brand' : 'informative'}>
              [{i + 1}]
            </Badge>
            <Select
              disabled={readOnly}
              size="small"
              value={c.kind}
              aria-label={`Cell ${i + 1} kind`}
              onChange={(_, d) => update(i, { kind: d.value as Cell['kind'] })}
            >
              <option value="code">Code</option>
              <option value="markdown">Markdown</option>
            </Select>
            <span style={{ flexGrow: 1 }} />
            <Button
              size="small"
              appearance="subtle"
              icon={<ArrowUp20Regular />}
              aria-label={`Move cell ${i + 1} up`}
              disabled={readOnly || i === 0}
              onClick={() => move(i, -1)}
            />
            <Button
              size="small"
              appearance="subtle"
              icon={<ArrowDown20Regular />}
              aria-label={`Move cell ${i + 1} down`}
              disabled={readOnly || i === cells.length - 1}
              onClick={() => move(i, 1)}
            />
            <Button
              disabled={readOnly}
              size="small"
              appearance="subtle"
              icon={<Delete20Regular />}
              aria-label={`Delete cell ${i + 1}`}
              onClick={() => set(cells.filter((_, j) => j !== i))}
            />
          </div>
          <CodeEditor
            label={`Cell ${i + 1} source`}
            value={c.source ?? ''}
            language={c.kind === 'markdown' ? 'text' : nb.language === 'sql' ? 'sql' : 'python'}
            readOnly={readOnly}
            minHeight={64}
            maxHeight={420}
            reveal
            diagnostics={problemsAt(fieldUnder(fieldError, `/cells/${i}`))}
            onChange={(source) => update(i, { source })}
          />
        </div>
      ))}
      <div className={s.bar}>
        <Button disabled={readOnly} icon={<Add20Regular />} onClick={() => set([...cells, { kind: 'code', source: '' }])}>
          Code cell
        </Button>
        <Button disabled={readOnly} icon={<Add20Regular />} onClick={() => set([...cells, { kind: 'markdown', source: '' }])}>
          Markdown cell
        </Button>
      </div>
    </section>
  );
}
