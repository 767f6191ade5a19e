import {
  Button,
  Input,
  Select,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Table20Regular } from '@fluentui/react-icons';
import { KqlTexts, type KqlText } from './KqlTexts';
import { asArray, asObject, mono, type EditorProps } from './types';

interface Column {
  name: string;
  type: string;
}
interface KqlTable {
  name: string;
  columns: Column[];
  [k: string]: unknown;
}

const TYPES = ['string', 'datetime', 'real', 'long', 'int', 'bool', 'decimal', 'dynamic', 'guid', 'timespan'];

const useStyles = makeStyles({
  table: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '8px 12px',
    marginBottom: '12px',
  },
  head: { display: 'flex', alignItems: 'center', gap: '8px', marginBottom: '4px' },
});

/**
 * A KQL database's schema (its tables and their typed columns) and its functions' KQL, or a queryset's saved queries;
 * seed rows stay in the JSON tab.
 */
export default function KqlSchemaEditor({ value, onChange, label, readOnly, fieldError }: EditorProps) {
  const s = useStyles();
  const db = asObject(value);
  const tables = asArray<KqlTable>(db.tables);
  const set = (next: KqlTable[]) => onChange({ ...db, tables: next });
  const setTable = (i: number, t: KqlTable) => set(tables.map((x, j) => (j === i ? t : x)));
  // A queryset holds saved queries over its parent's database, no tables of its own.
  if (Array.isArray(db.queries) && !Array.isArray(db.tables)) {
    return (
      <section aria-label={label}>
        <KqlTexts
          title="Saved queries"
          noun="Query"
          items={asArray<KqlText>(db.queries)}
          field="text"
          path="/queries"
          readOnly={readOnly}
          fieldError={fieldError}
          onChange={(queries) => onChange({ ...db, queries })}
        />
      </section>
    );
  }
  return (
    <section aria-label={label}>
      {typeof db.database === 'string' && (
        <Text block style={{ marginBottom: 8 }}>
          Database <strong style={mono}>{db.database}</strong>
        </Text>
      )}
      {tables.map((t, i) => {
        const columns = asArray<Column>(t.columns);
        const setCol = (k: number, c: Column) => setTable(i, { ...t, columns: columns.map((x, j) => (j === k ? c : x)) });
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: tables have no id, and a key from the editable name would remount the input on each keystroke
          <div key={i} className={s.table} data-testid="kql-table">
            <div className={s.head}>
              <Table20Regular aria-hidden />
              <Input
                disabled={readOnly}
                aria-label={`Table ${i + 1} name`}
                value={t.name}
                onChange={(_, d) => setTable(i, { ...t, name: d.value })}
                input={{ style: mono }}
              />
              <Text size={200}>{asArray(t.seedRows).length} seed rows</Text>
              <span style={{ flexGrow: 1 }} />
              <Button
                disabled={readOnly}
                size="small"
                appearance="subtle"
                icon={<Delete20Regular />}
                aria-label={`Delete table ${t.name}`}
                onClick={() => set(tables.filter((_, j) => j !== i))}
              />
            </div>
            <Table size="extra-small" aria-label={`Columns of ${t.name}`}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Column</TableHeaderCell>
                  <TableHeaderCell style={{ width: 160 }}>Type</TableHeaderCell>
                  <TableHeaderCell style={{ width: 48 }}>
                    <span className="sr-only">Remove</span>
                  </TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {columns.map((c, k) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns have no id, and a key from the editable name would remount the input on each keystroke
                  <TableRow key={k}>
                    <TableCell>
                      <Input
                        disabled={readOnly}
                        size="small"
                        aria-label={`${t.name} column ${k + 1} name`}
                        value={c.name}
                        onChange={(_, d) => setCol(k, { ...c, name: d.value })}
                        input={{ style: mono }}
                      />
                    </TableCell>
                    <TableCell>
                      <Select
                        disabled={readOnly}
                        size="small"
                        aria-label={`${t.name} column ${c.name} type`}
                        value={c.type}
                        onChange={(_, d) => setCol(k, { ...c, type: d.value })}
                      >
                        {[...new Set([c.type, ...TYPES])].map((ty) => (
                          <option key={ty}>{ty}</option>
                        ))}
                      </Select>
                    </TableCell>
                    <TableCell>
                      <Button
                        disabled={readOnly}
                        size="small"
                        appearance="subtle"
                        icon={<Delete20Regular />}
                        aria-label={`Remove column ${c.name}`}
                        onClick={() => setTable(i, { ...t, columns: columns.filter((_, j) => j !== k) })}
                      />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Button
              disabled={readOnly}
              size="small"
              appearance="subtle"
              icon={<Add20Regular />}
              onClick={() => setTable(i, { ...t, columns: [...columns, { name: `Column${columns.length + 1}`, type: 'string' }] })}
            >
              Column
            </Button>
          </div>
        );
      })}
      <Button
        disabled={readOnly}
        icon={<Add20Regular />}
        onClick={() => set([...tables, { name: `Table${tables.length + 1}`, columns: [{ name: 'Timestamp', type: 'datetime' }] }])}
      >
        Table
      </Button>
      <KqlTexts
        title="Functions"
        noun="Function"
        items={asArray<KqlText>(db.functions)}
        field="body"
        path="/functions"
        readOnly={readOnly}
        fieldError={fieldError}
        onChange={(functions) => onChange({ ...db, functions })}
      />
    </section>
  );
}
