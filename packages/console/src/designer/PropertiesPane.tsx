import { useState } from 'react';
import { Field, Input, makeStyles, Select, Switch, Text, tokens } from '@fluentui/react-components';
import { ExpressionField } from './ExpressionEditor';
import { dataSets } from './model/data';
import { contextFor } from './model/expression-check';
import { hiddenOf, setHidden, setStyle, setTextboxValue, type StyleName, styleOf, textboxValue } from './model/items';
import { parameters } from './model/params';
import type { RdlDocument } from './model/report';
import { setChildText } from './model/report';
import { type PAGE_SETTINGS, setBand, setDescription, setItemBounds, setPageSetting, setRegionSize } from './model/report-props';
import { renameItem } from './model/tablix-fields';
import { readTablix } from './model/tablix';
import { setTrackSize } from './model/tablix-groups';
import { toInches } from './model/units';
import { childText, local } from './model/xml';
import type { Selection } from './useDesigner';

const useStyles = makeStyles({
  root: { display: 'grid', gap: '10px', alignContent: 'start' },
  grid: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', gap: '8px' },
  input: { width: '100%', minWidth: 0 },
  group: {
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground2,
    marginTop: '6px',
  },
});

type Edit = (fn: (doc: RdlDocument) => void) => void;

/** A text property committed on Enter or when the field loses focus. */
function TextProp({
  label,
  value,
  onCommit,
  type = 'text',
}: {
  label: string;
  value: string;
  onCommit: (v: string) => void;
  type?: 'text' | 'number';
}) {
  const s = useStyles();
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setDraft(value);
  }
  const commit = () => draft !== value && onCommit(draft);
  return (
    <Field label={label}>
      <Input
        className={s.input}
        type={type}
        step={type === 'number' ? 0.0625 : undefined}
        value={draft}
        onChange={(_, d) => setDraft(d.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
    </Field>
  );
}

const inch = (v: number) => String(Math.round(v * 10000) / 10000);

/** The properties of the selected item (or of the report when nothing is): size, position, font, border, fill, format, visibility. */
export function PropertiesPane({ doc, selection, edit }: { doc: RdlDocument; selection: Selection; edit: Edit }) {
  const s = useStyles();
  const name =
    selection.kind === 'items' && selection.names.length === 1
      ? selection.names[0]
      : selection.kind === 'cell'
        ? selection.item
        : undefined;
  const el = name ? doc.find(name) : undefined;
  if (selection.kind === 'items' && selection.names.length > 1)
    return <Text size={200}>{selection.names.length} items selected: use Format to align them, Delete to remove them.</Text>;
  if (!el || !name) return <ReportProps doc={doc} edit={edit} />;
  const kind = local(el.name);
  const sets = dataSets(doc);
  const ctx = contextFor(doc, sets, parameters(doc), name);
  const style = (prop: StyleName, label: string, options?: string[]) => {
    const value = styleOf(el, prop) ?? '';
    const set = (v: string) => edit((d) => setStyle(d.find(name)!, prop, v));
    return options ? (
      <Field label={label}>
        <Select className={s.input} value={value} onChange={(_, d) => set(d.value)}>
          <option value="">(default)</option>
          {options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </Select>
      </Field>
    ) : (
      <TextProp label={label} value={value} onCommit={set} />
    );
  };
  const placed = selection.kind === 'items';
  const bound = (key: 'Top' | 'Left' | 'Width' | 'Height') => (
    <TextProp
      label={`${key} (in)`}
      type="number"
      value={inch(toInches(childText(el, key)) ?? 0)}
      onCommit={(v) => edit((d) => setItemBounds(d, name, { [key.toLowerCase()]: Number(v) }))}
    />
  );
  return (
    <div className={s.root} data-testid="properties">
      <Text weight="semibold">
        {kind === 'Tablix' ? 'Tablix' : kind} {name}
        {selection.kind === 'cell' ? ` (a cell of ${selection.tablix})` : ''}
      </Text>
      <TextProp label="Name" value={name} onCommit={(v) => edit((d) => renameItem(d, name, v))} />
      {placed && (
        <div className={s.grid}>
          {bound('Left')}
          {bound('Top')}
          {bound('Width')}
          {bound('Height')}
        </div>
      )}
      {selection.kind === 'cell' && selection.row !== undefined && selection.col !== undefined && (
        <TrackSizes doc={doc} tablix={selection.tablix} row={selection.row} col={selection.col} edit={edit} />
      )}
      {kind === 'Textbox' && (
        <ExpressionField
          label="Value"
          value={textboxValue(el)}
          context={ctx}
          onCommit={(v) => edit((d) => setTextboxValue(d.find(name)!, v))}
        />
      )}
      {kind === 'Image' && (
        <TextProp
          label="Image address (URL)"
          value={childText(el, 'Value') ?? ''}
          onCommit={(v) => edit((d) => setChildText(d.find(name)!, 'Value', v))}
        />
      )}
      {kind === 'Tablix' && (
        <Field label="Data set">
          <Select
            value={childText(el, 'DataSetName') ?? ''}
            onChange={(_, d) => edit((x) => setChildText(x.find(name)!, 'DataSetName', d.value || undefined))}
          >
            <option value="">(none)</option>
            {sets.map((ds) => (
              <option key={ds.name}>{ds.name}</option>
            ))}
          </Select>
        </Field>
      )}
      {kind === 'Textbox' && (
        <>
          <span className={s.group}>Font</span>
          <div className={s.grid}>
            {style('FontFamily', 'Font family')}
            {style('FontSize', 'Font size')}
            {style('FontWeight', 'Weight', ['Normal', 'SemiBold', 'Bold'])}
            {style('FontStyle', 'Style', ['Normal', 'Italic'])}
            {style('Color', 'Color')}
            {style('TextAlign', 'Text align', ['Left', 'Center', 'Right'])}
          </div>
          {style('Format', 'Format string (N2, C, d, yyyy-MM-dd…)')}
        </>
      )}
      <span className={s.group}>Border and fill</span>
      <div className={s.grid}>
        {style('BorderStyle', 'Border', ['None', 'Solid', 'Dashed', 'Dotted', 'Double'])}
        {style('BorderColor', 'Border color')}
        {style('BorderWidth', 'Border width')}
        {style('BackgroundColor', 'Fill')}
      </div>
      <ExpressionField
        label="Hidden (visibility)"
        value={hiddenOf(el)}
        context={ctx}
        placeholder="=Parameters!Show.Value = False"
        onCommit={(v) => edit((d) => setHidden(d.find(name)!, v))}
      />
    </div>
  );
}

/** The width of a body cell's column and the height of its row (the tablix grows or shrinks with them). */
function TrackSizes({ doc, tablix, row, col, edit }: { doc: RdlDocument; tablix: string; row: number; col: number; edit: Edit }) {
  const s = useStyles();
  const el = doc.find(tablix);
  if (!el) return null;
  const t = readTablix(el);
  return (
    <div className={s.grid}>
      <TextProp
        label="Column width (in)"
        type="number"
        value={inch(t.columns[col] ?? 1)}
        onCommit={(v) => edit((d) => setTrackSize(d, tablix, 'column', col, Number(v)))}
      />
      <TextProp
        label="Row height (in)"
        type="number"
        value={inch(t.rows[row] ?? 0.25)}
        onCommit={(v) => edit((d) => setTrackSize(d, tablix, 'row', row, Number(v)))}
      />
    </div>
  );
}

function ReportProps({ doc, edit }: { doc: RdlDocument; edit: Edit }) {
  const s = useStyles();
  const page = (name: (typeof PAGE_SETTINGS)[number], label: string, fallback: number) => (
    <TextProp
      label={label}
      type="number"
      value={inch(doc.pageSize(name, fallback))}
      onCommit={(v) => edit((d) => setPageSetting(d, name, Number(v)))}
    />
  );
  return (
    <div className={s.root} data-testid="properties">
      <Text weight="semibold">Report</Text>
      <TextProp label="Description" value={doc.property('Description') ?? ''} onCommit={(v) => edit((d) => setDescription(d, v))} />
      <span className={s.group}>Page (inches)</span>
      <div className={s.grid}>
        {page('PageWidth', 'Page width', 8.5)}
        {page('PageHeight', 'Page height', 11)}
        {page('LeftMargin', 'Left margin', 1)}
        {page('RightMargin', 'Right margin', 1)}
        {page('TopMargin', 'Top margin', 1)}
        {page('BottomMargin', 'Bottom margin', 1)}
      </div>
      <span className={s.group}>Body (inches)</span>
      <div className={s.grid}>
        <TextProp
          label="Body width"
          type="number"
          value={inch(doc.bodyWidth())}
          onCommit={(v) => edit((d) => setRegionSize(d, 'width', Number(v)))}
        />
        <TextProp
          label="Body height"
          type="number"
          value={inch(doc.regionHeight('body'))}
          onCommit={(v) => edit((d) => setRegionSize(d, 'body', Number(v)))}
        />
      </div>
      <Switch label="Page header" checked={!!doc.regionEl('header')} onChange={(_, d) => edit((x) => setBand(x, 'header', d.checked))} />
      <Switch label="Page footer" checked={!!doc.regionEl('footer')} onChange={(_, d) => edit((x) => setBand(x, 'footer', d.checked))} />
    </div>
  );
}
