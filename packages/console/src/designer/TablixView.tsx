import { useState } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { boxCss, shownText } from './display';
import { carriesField, dropped, type DragPayload } from './dnd';
import { placeCells, readTablix, shapeOf, type PlacedCell } from './model/tablix';
import type { FieldTarget } from './model/tablix-fields';
import type { XElement } from './model/xml';
import type { Selection } from './useDesigner';

const useStyles = makeStyles({
  cell: {
    position: 'absolute',
    boxSizing: 'border-box',
    border: '1px dashed #9a9a9a',
    overflow: 'hidden',
    whiteSpace: 'nowrap',
    textOverflow: 'ellipsis',
    padding: '0 2px',
    lineHeight: 1.2,
    cursor: 'default',
    color: '#1a1a1a',
    backgroundColor: 'transparent',
    textAlign: 'left',
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  header: { backgroundColor: 'rgba(31, 56, 100, 0.06)' },
  selected: { outline: `2px solid ${tokens.colorBrandStroke1}`, outlineOffset: '-2px', zIndex: 2 },
  over: { backgroundColor: 'rgba(15, 108, 189, 0.18)' },
  empty: { color: '#555555', fontStyle: 'italic' },
  add: {
    position: 'absolute',
    top: 0,
    width: '18px',
    border: '1px dashed #9a9a9a',
    boxSizing: 'border-box',
    color: '#555555',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontSize: '14px',
  },
});

const PLACEHOLDER: Record<PlacedCell['role'], string> = { corner: '', rowHeader: 'Rows', colHeader: 'Columns', body: 'Data' };

/** Where a field dropped on a placed cell lands. */
function targetOf(c: PlacedCell): FieldTarget | undefined {
  if (c.role === 'body') return { kind: 'cell', row: c.row!, col: c.col! };
  if (c.member) return { kind: 'header', at: { axis: c.role === 'rowHeader' ? 'row' : 'column', path: memberPathOf(c) } };
  return undefined;
}

/** A member's path: the index of it and each of its ancestors among their siblings. */
function memberPathOf(c: PlacedCell): number[] {
  const out: number[] = [];
  let el: XElement | undefined = c.member!.el;
  while (el && el.name.endsWith('TablixMember')) {
    const list: XElement = el.parent!;
    out.unshift(list.children.filter((k) => k.kind === 'el' && k.name.endsWith('TablixMember')).indexOf(el));
    el = list.parent;
  }
  return out;
}

/** A tablix on the surface: every cell placed on its grid, each a drop target for fields and a selectable text box. */
export function TablixView({
  el,
  scale,
  selection,
  onSelect,
  onDrop,
}: {
  el: XElement;
  scale: number;
  selection: Selection;
  onSelect: (s: Selection) => void;
  onDrop: (payload: DragPayload, target: FieldTarget) => void;
}) {
  const s = useStyles();
  const t = readTablix(el);
  const cells = placeCells(t);
  const [over, setOver] = useState<string>();
  const ppi = 96 * scale;
  const table = shapeOf(t) === 'table' && !t.colMembers.some((m) => m.group || m.children.length);
  const right = Math.max(...cells.map((c) => c.x + c.w), 0);
  const bottom = Math.max(...cells.map((c) => c.y + c.h), 0);
  const zone = (key: string, target: FieldTarget | undefined) =>
    target
      ? {
          onDragOver: (e: React.DragEvent) => {
            if (!carriesField(e)) return;
            e.preventDefault();
            e.dataTransfer.dropEffect = 'copy';
            setOver(key);
          },
          onDragLeave: () => setOver((o) => (o === key ? undefined : o)),
          onDrop: (e: React.DragEvent) => {
            const p = dropped(e);
            setOver(undefined);
            if (!p) return;
            e.preventDefault();
            e.stopPropagation();
            onDrop(p, target);
          },
        }
      : {};
  return (
    <>
      {cells.map((c, i) => {
        const name = c.item?.attrs.Name ?? '';
        const key = `${c.role}-${i}`;
        const chosen = selection.kind === 'cell' && selection.tablix === t.name && selection.item === name;
        const text = shownText(c.item);
        const target = targetOf(c);
        return (
          // biome-ignore lint/a11y/useSemanticElements: a cell is a drop target too, which a <button> cannot be in every browser
          <div
            key={key}
            role="button"
            tabIndex={0}
            aria-pressed={chosen}
            aria-label={`${t.name} ${c.role === 'body' ? 'cell' : c.role === 'corner' ? 'corner' : c.role === 'rowHeader' ? 'row header' : 'column header'} ${name}: ${text || 'empty'}`}
            data-cell={name}
            data-role={c.role}
            className={`${s.cell} ${c.role !== 'body' ? s.header : ''} ${chosen ? s.selected : ''} ${over === key ? s.over : ''}`}
            style={{ left: c.x * ppi, top: c.y * ppi, width: c.w * ppi, height: c.h * ppi, ...boxCss(c.item, scale) }}
            onClick={(e) => {
              e.stopPropagation();
              if (c.item)
                onSelect({
                  kind: 'cell',
                  tablix: t.name,
                  item: name,
                  row: c.row,
                  col: c.col,
                  member: target?.kind === 'header' ? target.at : undefined,
                });
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                (e.currentTarget as HTMLElement).click();
              }
            }}
            {...zone(key, target)}
          >
            {text || <span className={s.empty}>{PLACEHOLDER[c.role]}</span>}
          </div>
        );
      })}
      {table && (
        <div
          className={`${s.add} ${over === 'add' ? s.over : ''}`}
          style={{ left: right * ppi, height: bottom * ppi }}
          data-testid={`${t.name}-add-column`}
          title="Drop a field here to add a column"
          {...zone('add', { kind: 'newColumn', index: t.columns.length })}
        >
          +
        </div>
      )}
    </>
  );
}
