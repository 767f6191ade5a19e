import { useMemo, useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  Tab,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { MathFormula20Regular } from '@fluentui/react-icons';
import { CodeEditor } from '../editors/code';
import { BUILT_IN_FIELDS, checkExpression, type ExpressionContext, FUNCTION_CATEGORIES } from './model/expression-check';

const useStyles = makeStyles({
  body: { display: 'grid', gridTemplateColumns: '220px minmax(0, 1fr)', gap: '12px', minHeight: '320px' },
  list: {
    display: 'grid',
    alignContent: 'start',
    gap: '2px',
    maxHeight: '300px',
    overflowY: 'auto',
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  entry: { justifyContent: 'flex-start', fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  ok: { color: tokens.colorPaletteGreenForeground1 },
  bad: { color: tokens.colorPaletteRedForeground1 },
  row: { display: 'flex', gap: '4px', alignItems: 'center' },
});

type Category = 'builtin' | 'parameters' | 'fields' | 'functions';

/** What a list entry inserts. */
function entries(cat: Category, ctx: ExpressionContext): Array<{ label: string; insert: string }> {
  if (cat === 'builtin') return BUILT_IN_FIELDS.map((f) => ({ label: f, insert: f }));
  if (cat === 'parameters') return ctx.parameters.map((p) => ({ label: p.name, insert: `Parameters!${p.name}.Value` }));
  if (cat === 'fields') return ctx.fields.map((f) => ({ label: f, insert: `Fields!${f}.Value` }));
  return Object.entries(FUNCTION_CATEGORIES).flatMap(([group, fns]) => fns.map((f) => ({ label: `${group}: ${f}`, insert: `${f}(` })));
}

/** The expression editor: the text checked as it is typed, and lists of built-in fields, parameters, fields and functions. */
export function ExpressionEditor({
  open,
  title,
  value,
  context,
  onClose,
  onSave,
}: {
  open: boolean;
  title: string;
  value: string;
  context: ExpressionContext;
  onClose: () => void;
  onSave: (value: string) => void;
}) {
  const s = useStyles();
  const [text, setText] = useState(value.startsWith('=') ? value : value ? `="${value.replace(/"/g, '""')}"` : '=');
  const [cat, setCat] = useState<Category>('fields');
  const problems = useMemo(() => checkExpression(text, context), [text, context]);
  const add = (insert: string) => setText((t) => (t === '=' ? `=${insert}` : `${t}${/[\s(&+,=-]$/.test(t) ? '' : ' & '}${insert}`));
  return (
    <Dialog open={open} onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={{ maxWidth: 860 }}>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>
            <div className={s.body}>
              <div>
                <TabList
                  size="small"
                  vertical
                  selectedValue={cat}
                  onTabSelect={(_, d) => setCat(d.value as Category)}
                  aria-label="Expression parts"
                >
                  <Tab value="builtin">Built-in fields</Tab>
                  <Tab value="parameters">Parameters</Tab>
                  <Tab value="fields">Fields</Tab>
                  <Tab value="functions">Functions</Tab>
                </TabList>
                <ul className={s.list} aria-label="Insert into the expression">
                  {entries(cat, context).map((e) => (
                    <li key={e.label}>
                      <Button size="small" appearance="subtle" className={s.entry} onClick={() => add(e.insert)}>
                        {e.label}
                      </Button>
                    </li>
                  ))}
                </ul>
                {entries(cat, context).length === 0 && <Text size={200}>None in this report.</Text>}
              </div>
              <div style={{ display: 'grid', gap: 8, alignContent: 'start' }}>
                <CodeEditor
                  label="Expression"
                  language="text"
                  value={text}
                  onChange={setText}
                  minHeight={160}
                  maxHeight={260}
                  testId="expression-text"
                />
                <div aria-live="polite" data-testid="expression-check">
                  {problems.length === 0 ? (
                    <Text size={200} className={s.ok}>
                      The expression checks out.
                    </Text>
                  ) : (
                    <ul style={{ margin: 0, paddingLeft: 18 }}>
                      {problems.map((p) => (
                        <li key={p.message}>
                          <Text size={200} className={s.bad}>
                            {p.message}
                          </Text>
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              </div>
            </div>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <Button appearance="primary" disabled={problems.length > 0} onClick={() => onSave(text === '=' ? '' : text)}>
              OK
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** A property value that may be an expression: the text, and an fx button opening the expression editor. */
export function ExpressionField({
  label,
  value,
  context,
  onCommit,
  placeholder,
}: {
  label: string;
  value: string;
  context: ExpressionContext;
  onCommit: (value: string) => void;
  placeholder?: string;
}) {
  const s = useStyles();
  const [draft, setDraft] = useState(value);
  const [editing, setEditing] = useState(false);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setDraft(value);
  }
  const problems = checkExpression(draft, context);
  const commit = () => draft !== value && onCommit(draft);
  return (
    <Field label={label} validationState={problems.length ? 'error' : 'none'} validationMessage={problems[0]?.message}>
      <div className={s.row}>
        <Input
          aria-label={label}
          style={{ flexGrow: 1, minWidth: 0 }}
          value={draft}
          placeholder={placeholder}
          onChange={(_, d) => setDraft(d.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            // Enter takes the value here; it does not also submit a form the field is in.
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
        />
        <Button
          size="small"
          icon={<MathFormula20Regular />}
          aria-label={`Edit the expression of ${label}`}
          onClick={() => setEditing(true)}
        />
      </div>
      {editing && (
        <ExpressionEditor
          open
          title={`Expression: ${label}`}
          value={draft}
          context={context}
          onClose={() => setEditing(false)}
          onSave={(v) => {
            setEditing(false);
            setDraft(v);
            if (v !== value) onCommit(v);
          }}
        />
      )}
    </Field>
  );
}
