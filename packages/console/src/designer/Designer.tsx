import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Card,
  Select,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Button,
  Tab,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useCanOn } from '../api/access';
import type { PaginatedReport } from '../api/reports';
import { FormDialog } from '../components/FormDialog';
import { ExportPanel } from '../components/reports/ExportPanel';
import { DataPane } from './DataPane';
import { GroupingPane } from './GroupingPane';
import { PreviewPane } from './PreviewPane';
import { PropertiesPane } from './PropertiesPane';
import { Ribbon } from './Ribbon';
import { SourceView } from './SourceView';
import { Surface, type SurfaceActions } from './Surface';
import { align, format, insert, placeAtSelection, remove, targets } from './commands';
import { builderLink, download, readUpload } from './handoff';
import { dataSets } from './model/data';
import { moveItems, setBounds } from './model/items';
import { placeField } from './model/place';
import { parameters } from './model/params';
import { local } from './model/xml';
import { type PublishState, PublishBar } from './PublishBar';
import { useDesigner } from './useDesigner';

const useStyles = makeStyles({
  root: { display: 'grid', gap: '10px' },
  main: {
    display: 'grid',
    gridTemplateColumns: '240px minmax(0, 1fr) 280px',
    gap: '12px',
    alignItems: 'start',
    '@media (max-width: 1199px)': { gridTemplateColumns: '220px minmax(0, 1fr)' },
  },
  pane: { padding: '8px', maxHeight: '78vh', overflowY: 'auto', minWidth: 0 },
  center: { minWidth: 0, display: 'grid', gap: '8px' },
  canvas: {
    backgroundColor: tokens.colorNeutralBackground3,
    padding: '24px 12px',
    overflow: 'auto',
    maxHeight: '70vh',
    borderRadius: tokens.borderRadiusMedium,
  },
  props: { '@media (max-width: 1199px)': { gridColumn: '1 / -1' } },
  views: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '8px' },
});

/** The report designer over one draft: ribbon, report data, the surface or the source, properties, grouping, run and publish. */
export function Designer({
  workspaceId,
  initial,
  report,
  name,
  publish,
}: {
  workspaceId: string;
  initial: string;
  report?: PaginatedReport;
  name: string;
  publish: (text: string, overwrite: boolean) => Promise<PublishState>;
}) {
  const s = useStyles();
  const d = useDesigner(initial);
  const allow = useCanOn(workspaceId);
  const [view, setView] = useState<'design' | 'source' | 'run'>('design');
  const [runSignal, setRunSignal] = useState(0);
  const [published, setPublished] = useState<PublishState>({ kind: 'idle' });
  const [exporting, setExporting] = useState(false);
  // The page fits the canvas's width (never above 100 %), or shows at 100 % and scrolls.
  const [zoom, setZoom] = useState<'fit' | '100'>('fit');
  const [room, setRoom] = useState(0);
  const canvas = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the canvas is there again each time the design view opens
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setRoom(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, [view]);
  const doc = d.doc;
  const sets = useMemo(() => (doc ? dataSets(doc) : []), [doc]);
  const tablix = useMemo(() => {
    if (!doc) return undefined;
    if (d.selection.kind === 'cell') return d.selection.tablix;
    if (d.selection.kind === 'items' && d.selection.names.length === 1) {
      const el = doc.find(d.selection.names[0]!);
      return el && local(el.name) === 'Tablix' ? d.selection.names[0] : undefined;
    }
    return undefined;
  }, [doc, d.selection]);

  // Ctrl+Z / Ctrl+Y (and Ctrl+Shift+Z) undo and redo outside text fields; Escape clears the selection.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select, .cm-editor, [role="dialog"]')) return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        if (e.shiftKey) d.redo();
        else d.undo();
      } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        d.redo();
      } else if (e.key === 'Escape') d.select({ kind: 'none' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [d.undo, d.redo, d.select]);

  const doPublish = async (overwrite = false) => {
    setPublished({ kind: 'publishing' });
    const text = d.text;
    const r = await publish(text, overwrite);
    setPublished(r);
    if (r.kind === 'published') d.markSaved(text);
  };

  const actions: SurfaceActions = {
    select: d.select,
    move: (names, dx, dy) => d.edit((x) => moveItems(x, names, dx, dy)),
    resize: (n, width, height) => d.edit((x) => setBounds(x.find(n)!, { width, height })),
    remove: (names) => d.edit((x) => remove(x, { kind: 'items', names })),
    dropOnTablix: (t, payload, target) => d.edit((x) => void placeField(x, payload, { tablix: t, ...target })),
    dropOnPage: (region, payload, top, left) =>
      d.edit((x) => {
        const made = placeField(x, payload, { kind: 'region', region, top, left });
        if (made) setTimeout(() => d.select({ kind: 'items', names: [made] }));
      }),
  };
  const canPublish = (report ? allow('report.publish') : allow('report.create')).ok;

  return (
    <div className={s.root}>
      <Ribbon
        state={{
          canUndo: d.canUndo,
          canRedo: d.canRedo,
          hasSelection: targets(d.selection).length > 0,
          multiple: d.selection.kind === 'items' && d.selection.names.length > 1,
          canPublish: canPublish && !d.fault,
          publishing: published.kind === 'publishing',
          dirty: d.dirty || !report,
          running: false,
        }}
        commands={{
          run: () => {
            setView('run');
            setRunSignal((n) => n + 1);
          },
          publish: () => void doPublish(),
          exportReport: report ? () => setExporting(true) : undefined,
          undo: d.undo,
          redo: d.redo,
          insert: (kind) =>
            d.edit((x) => {
              const made = insert(x, kind, dataSets(x)[0]?.name);
              setTimeout(() => d.select({ kind: 'items', names: [made] }));
            }),
          format: (prop, value) => d.edit((x) => format(x, d.selection, prop, value)),
          align: (edge) => d.edit((x) => align(x, d.selection, edge)),
          remove: () => {
            d.edit((x) => remove(x, d.selection));
            d.select({ kind: 'none' });
          },
          download: () => download(`${name}.rdl`, d.text),
          builderHref: report ? builderLink(report.webUrl) : undefined,
          upload: (f) => void readUpload(f).then(d.replace),
        }}
      />
      <PublishBar
        state={published}
        dirty={d.dirty}
        refusal={d.refusal}
        onDismiss={d.dismiss}
        onOverwrite={() => void doPublish(true)}
        onShowSource={() => setView('source')}
      />
      {d.fault && (
        <MessageBar intent="warning" role="alert" data-testid="source-fault">
          <MessageBarBody>
            <MessageBarTitle>The source is not well-formed XML</MessageBarTitle>
            Line {d.fault.line}: {d.fault.detail}. The design surface shows the last well-formed draft once it is fixed.
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => setView('source')}>Show the source</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      <div className={s.main}>
        <Card className={s.pane}>
          {doc && (
            <DataPane
              doc={doc}
              workspaceId={workspaceId}
              edit={d.edit}
              onPlace={(p) => d.edit((x) => void placeAtSelection(x, d.selection, p))}
            />
          )}
        </Card>
        <div className={s.center}>
          <div className={s.views}>
            <TabList selectedValue={view} onTabSelect={(_, v) => setView(v.value as typeof view)} aria-label="Designer view">
              <Tab value="design">Design</Tab>
              <Tab value="source">Source (RDL)</Tab>
              <Tab value="run">Run</Tab>
            </TabList>
            {view === 'design' && (
              <Select size="small" aria-label="Zoom" value={zoom} onChange={(_, v) => setZoom(v.value as 'fit' | '100')}>
                <option value="fit">Fit the page</option>
                <option value="100">100 %</option>
              </Select>
            )}
          </div>
          {view === 'design' && (
            <div className={s.canvas} ref={canvas}>
              {doc ? (
                <Surface
                  doc={doc}
                  selection={d.selection}
                  actions={actions}
                  scale={zoom === 'fit' && room ? Math.min(1, Math.max(0.4, (room - 32) / (doc.bodyWidth() * 96))) : 1}
                />
              ) : (
                <Text>Fix the source to see the design.</Text>
              )}
            </div>
          )}
          {view === 'source' && <SourceView text={d.text} onChange={d.replace} fault={d.fault} readOnly={!canPublish} />}
          {view === 'run' && (
            <PreviewPane workspaceId={workspaceId} text={d.text} params={doc ? parameters(doc) : []} runSignal={runSignal} />
          )}
          {view === 'design' && doc && tablix && (
            <Card className={s.pane}>
              <GroupingPane doc={doc} tablix={tablix} edit={d.edit} />
            </Card>
          )}
        </div>
        <Card className={`${s.pane} ${s.props}`} aria-label="Properties">
          {doc && <PropertiesPane doc={doc} selection={d.selection} edit={d.edit} />}
        </Card>
      </div>
      {report && exporting && (
        <FormDialog
          open
          onClose={() => setExporting(false)}
          title={`Export ${report.name}`}
          submitLabel="Close"
          onSubmit={() => setExporting(false)}
        >
          <Text size={200}>Exports the published report{d.dirty ? ' (your unpublished changes are not in it)' : ''}.</Text>
          <ExportPanel workspaceId={workspaceId} report={report} />
        </FormDialog>
      )}
      <Text size={200} style={{ color: tokens.colorNeutralForeground3 }}>
        {sets.length} data set{sets.length === 1 ? '' : 's'} ·{' '}
        {!report ? 'not published yet' : d.dirty ? 'unpublished changes' : 'no unpublished changes'}
      </Text>
    </div>
  );
}
