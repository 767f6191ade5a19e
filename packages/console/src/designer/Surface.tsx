import { useRef, useState } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { boxCss, shownText } from './display';
import { carriesField, dropped, type DragPayload } from './dnd';
import type { Region, RdlDocument, ReportItem } from './model/report';
import type { FieldTarget } from './model/tablix-fields';
import { TablixView } from './TablixView';
import type { Selection } from './useDesigner';
import { selectedNames } from './useDesigner';

const useStyles = makeStyles({
  page: {
    backgroundColor: '#ffffff',
    color: '#1a1a1a',
    boxShadow: tokens.shadow8,
    margin: '12px auto',
    fontFamily: 'Segoe UI, Helvetica, Arial, sans-serif',
  },
  band: { position: 'relative', borderBottom: '1px dashed #b0b0b0', outline: 'none' },
  bandLabel: { position: 'absolute', right: '4px', bottom: '2px', fontSize: '11px', color: '#555555', pointerEvents: 'none' },
  over: { backgroundColor: 'rgba(15, 108, 189, 0.08)' },
  item: {
    position: 'absolute',
    boxSizing: 'border-box',
    overflow: 'hidden',
    cursor: 'move',
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  textbox: { padding: '2px', whiteSpace: 'pre-wrap', border: '1px dotted #b8b8b8' },
  container: { overflow: 'visible', border: '1px dotted #8a8a8a' },
  selected: { outline: `2px solid ${tokens.colorBrandStroke1}`, zIndex: 3 },
  handle: {
    position: 'absolute',
    top: '-18px',
    left: '-1px',
    fontSize: '11px',
    lineHeight: '16px',
    padding: '0 4px',
    border: 'none',
    backgroundColor: '#e6eef8',
    color: '#1a1a1a',
    cursor: 'pointer',
    whiteSpace: 'nowrap',
  },
  grip: {
    position: 'absolute',
    right: '-5px',
    bottom: '-5px',
    width: '9px',
    height: '9px',
    backgroundColor: tokens.colorBrandBackground,
    cursor: 'nwse-resize',
  },
  line: { position: 'absolute', borderTop: '1px solid #1a1a1a', cursor: 'move' },
});

/** An edit the surface asks of the page (so each lands in the draft as one undo step). */
export interface SurfaceActions {
  select: (s: Selection) => void;
  move: (names: string[], dx: number, dy: number) => void;
  resize: (name: string, width: number, height: number) => void;
  remove: (names: string[]) => void;
  dropOnTablix: (tablix: string, payload: DragPayload, target: FieldTarget) => void;
  dropOnPage: (region: Region, payload: DragPayload, top: number, left: number) => void;
}

const REGION_LABEL: Record<Region, string> = { header: 'Page header', body: 'Body', footer: 'Page footer' };
const snap = (inches: number) => Math.round(inches * 16) / 16;

type Drag = { names: string[]; mode: 'move' | 'resize'; x0: number; y0: number; dx: number; dy: number };

/** The design surface: the page header, body and footer with their items, to select, move, resize and drop fields on. */
export function Surface({
  doc,
  selection,
  actions,
  scale = 1,
}: {
  doc: RdlDocument;
  selection: Selection;
  actions: SurfaceActions;
  scale?: number;
}) {
  const s = useStyles();
  const ppi = 96 * scale;
  const [drag, setDrag] = useState<Drag | null>(null);
  const [over, setOver] = useState<Region>();
  const chosen = selectedNames(selection);
  const width = doc.bodyWidth();

  const startDrag = (e: React.PointerEvent, item: ReportItem, mode: Drag['mode']) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    const names = mode === 'move' && chosen.includes(item.name) ? chosen : [item.name];
    if (!chosen.includes(item.name) || e.shiftKey) pick(item, e.shiftKey);
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    setDrag({ names, mode, x0: e.clientX, y0: e.clientY, dx: 0, dy: 0 });
  };
  const moveDrag = (e: React.PointerEvent) => {
    if (drag) setDrag({ ...drag, dx: e.clientX - drag.x0, dy: e.clientY - drag.y0 });
  };
  const endDrag = (item: ReportItem) => {
    if (!drag) return;
    const dx = snap(drag.dx / ppi);
    const dy = snap(drag.dy / ppi);
    setDrag(null);
    if (!dx && !dy) return;
    if (drag.mode === 'move') actions.move(drag.names, dx, dy);
    else actions.resize(item.name, Math.max(0.125, snap(item.width + dx)), Math.max(0.125, snap(item.height + dy)));
  };
  const pick = (item: ReportItem, add: boolean) => {
    const names = add ? (chosen.includes(item.name) ? chosen.filter((n) => n !== item.name) : [...chosen, item.name]) : [item.name];
    actions.select(names.length ? { kind: 'items', names } : { kind: 'none' });
  };
  const keys = (e: React.KeyboardEvent, item: ReportItem) => {
    const step = e.shiftKey ? 0.25 : 0.0625;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const names = chosen.includes(item.name) ? chosen : [item.name];
    if (moves[e.key]) {
      e.preventDefault();
      actions.move(names, ...moves[e.key]!);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      actions.remove(names);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      pick(item, e.shiftKey);
    }
  };

  const place = (item: ReportItem) => {
    const moving = drag && drag.names.includes(item.name);
    const dx = moving && drag.mode === 'move' ? drag.dx : 0;
    const dy = moving && drag.mode === 'move' ? drag.dy : 0;
    const dw = moving && drag.mode === 'resize' ? drag.dx : 0;
    const dh = moving && drag.mode === 'resize' ? drag.dy : 0;
    return {
      left: item.left * ppi + dx,
      top: item.top * ppi + dy,
      width: Math.max(4, item.width * ppi + dw),
      height: Math.max(item.kind === 'Line' ? 1 : 4, item.height * ppi + dh),
    };
  };

  const renderItem = (item: ReportItem, all: ReportItem[]): React.ReactNode => {
    const selected = chosen.includes(item.name);
    const common = {
      onPointerMove: moveDrag,
      onPointerUp: () => endDrag(item),
      'data-item': item.name,
      'data-kind': item.kind,
    };
    // A tablix takes its size from its columns and rows (set in the properties of a cell), not from a grip.
    const grip = selected && chosen.length === 1 && item.kind !== 'Tablix' && (
      <span
        className={s.grip}
        aria-hidden
        onPointerDown={(e) => startDrag(e, item, 'resize')}
        onPointerMove={moveDrag}
        onPointerUp={() => endDrag(item)}
      />
    );
    if (item.kind === 'Tablix' || item.kind === 'Rectangle') {
      const inner = item.kind === 'Rectangle' ? all.filter((x) => x.container === item.name) : [];
      return (
        // biome-ignore lint/a11y/useSemanticElements: a group of cells or items; the handle button selects it
        <div
          key={item.name}
          role="group"
          aria-label={`${item.kind === 'Tablix' ? 'Tablix' : 'Rectangle'} ${item.name}`}
          className={`${s.item} ${s.container} ${selected ? s.selected : ''}`}
          style={place(item)}
          {...common}
        >
          <button
            type="button"
            className={s.handle}
            aria-pressed={selected}
            onPointerDown={(e) => startDrag(e, item, 'move')}
            onClick={(e) => e.stopPropagation()}
            onKeyDown={(e) => keys(e, item)}
          >
            {item.name}
          </button>
          {item.kind === 'Tablix' ? (
            <TablixView
              el={item.el}
              scale={scale}
              selection={selection}
              onSelect={actions.select}
              onDrop={(p, t) => actions.dropOnTablix(item.name, p, t)}
            />
          ) : (
            inner.map((x) => renderItem(x, all))
          )}
          {grip}
        </div>
      );
    }
    const label = item.kind === 'Textbox' ? `Text box ${item.name}: ${shownText(item.el) || 'empty'}` : `${item.kind} ${item.name}`;
    return (
      // biome-ignore lint/a11y/useSemanticElements: positioned, movable and resizable; a <button> cannot hold the resize grip
      <div
        key={item.name}
        role="button"
        tabIndex={0}
        aria-pressed={selected}
        aria-label={label}
        className={`${item.kind === 'Line' ? s.line : `${s.item} ${item.kind === 'Textbox' ? s.textbox : s.container}`} ${selected ? s.selected : ''}`}
        style={{ ...place(item), ...(item.kind === 'Textbox' ? boxCss(item.el, scale) : {}) }}
        onPointerDown={(e) => startDrag(e, item, 'move')}
        onKeyDown={(e) => keys(e, item)}
        onClick={(e) => e.stopPropagation()}
        {...common}
      >
        {item.kind === 'Textbox' ? shownText(item.el) : item.kind === 'Image' ? '🖼 Image' : null}
        {grip}
      </div>
    );
  };

  const band = (region: Region) => {
    const el = doc.regionEl(region);
    if (!el) return null;
    const items = doc.items(region);
    return (
      <section
        key={region}
        aria-label={REGION_LABEL[region]}
        data-region={region}
        className={`${s.band} ${over === region ? s.over : ''}`}
        style={{ height: Math.max(0.25, doc.regionHeight(region)) * ppi }}
        onClick={() => actions.select({ kind: 'none' })}
        onKeyDown={undefined}
        onDragOver={(e) => {
          if (!carriesField(e)) return;
          e.preventDefault();
          setOver(region);
        }}
        onDragLeave={() => setOver(undefined)}
        onDrop={(e) => {
          setOver(undefined);
          const p = dropped(e);
          if (!p) return;
          e.preventDefault();
          const box = (e.currentTarget as HTMLElement).getBoundingClientRect();
          actions.dropOnPage(region, p, snap((e.clientY - box.top) / ppi), snap((e.clientX - box.left) / ppi));
        }}
      >
        {items.filter((i) => !i.container).map((i) => renderItem(i, items))}
        <span className={s.bandLabel}>{REGION_LABEL[region]}</span>
      </section>
    );
  };

  return (
    // A drop anywhere on the page ends the drag: no band stays marked as a drop target.
    // biome-ignore lint/a11y/noStaticElementInteractions: drag bookkeeping only; the page's items and bands carry the interactions
    <div
      className={s.page}
      style={{ width: width * ppi }}
      data-testid="design-surface"
      onDropCapture={() => setOver(undefined)}
      onDragEnd={() => setOver(undefined)}
    >
      {band('header')}
      {band('body')}
      {band('footer')}
    </div>
  );
}
