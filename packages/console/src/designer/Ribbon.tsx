import { useRef, useState } from 'react';
import { makeStyles, Select, Tab, TabList, Toolbar, ToolbarButton, ToolbarDivider, Tooltip, tokens } from '@fluentui/react-components';
import {
  AlignBottom20Regular,
  AlignLeft20Regular,
  AlignRight20Regular,
  AlignTop20Regular,
  ArrowDownload20Regular,
  ArrowUndo20Regular,
  CloudArrowUp20Regular,
  Delete20Regular,
  DocumentArrowRight20Regular,
  Image20Regular,
  ColorLine20Regular,
  Open20Regular,
  SlidePlay20Regular,
  Square20Regular,
  Table20Regular,
  Grid20Regular,
  TextAlignCenter20Regular,
  TextAlignLeft20Regular,
  TextAlignRight20Regular,
  TextBold20Regular,
  TextItalic20Regular,
  TextT20Regular,
  TextUnderline20Regular,
  TextBulletList20Regular,
} from '@fluentui/react-icons';
import type { StyleName } from './model/items';

const useStyles = makeStyles({
  root: {
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
    borderRadius: tokens.borderRadiusMedium,
  },
  bar: { flexWrap: 'wrap', rowGap: '2px' },
});

export type InsertCommand = 'Textbox' | 'Table' | 'Matrix' | 'List' | 'Rectangle' | 'Image' | 'Line';

export interface RibbonCommands {
  run: () => void;
  publish: () => void;
  exportReport?: () => void;
  undo: () => void;
  redo: () => void;
  insert: (kind: InsertCommand) => void;
  format: (prop: StyleName, value: string) => void;
  align: (edge: 'left' | 'right' | 'top' | 'bottom') => void;
  remove: () => void;
  download: () => void;
  /** The desktop builder's deep link of the published report. */
  builderHref?: string;
  upload: (file: File) => void;
}

/** The ribbon: Home (run, publish, undo), Insert (report items), Format (text and alignment), Report Builder (hand-off). */
export function Ribbon({
  commands,
  state,
}: {
  commands: RibbonCommands;
  state: {
    canUndo: boolean;
    canRedo: boolean;
    hasSelection: boolean;
    multiple: boolean;
    canPublish: boolean;
    publishing: boolean;
    dirty: boolean;
    running: boolean;
  };
}) {
  const s = useStyles();
  const [tab, setTab] = useState('home');
  const file = useRef<HTMLInputElement>(null);
  const button = (label: string, icon: React.ReactElement, onClick: () => void, disabled = false, tip?: string) => (
    <Tooltip content={tip ?? label} relationship="description" withArrow>
      <ToolbarButton aria-label={label} icon={icon} onClick={onClick} disabled={disabled}>
        {label}
      </ToolbarButton>
    </Tooltip>
  );
  return (
    <div className={s.root}>
      <TabList size="small" selectedValue={tab} onTabSelect={(_, d) => setTab(String(d.value))} aria-label="Ribbon">
        <Tab value="home">Home</Tab>
        <Tab value="insert">Insert</Tab>
        <Tab value="format">Format</Tab>
        <Tab value="builder">Report Builder</Tab>
      </TabList>
      <Toolbar
        aria-label={`${tab === 'builder' ? 'Report Builder' : tab[0]!.toUpperCase() + tab.slice(1)} commands`}
        className={s.bar}
        size="small"
      >
        {tab === 'home' && (
          <>
            {button(
              state.running ? 'Running…' : 'Run',
              <SlidePlay20Regular />,
              commands.run,
              state.running,
              'Render the draft in the reporting service (nothing is published)',
            )}
            {button(
              state.publishing ? 'Publishing…' : 'Publish',
              <CloudArrowUp20Regular />,
              commands.publish,
              !state.canPublish || state.publishing || !state.dirty,
            )}
            {commands.exportReport &&
              button(
                'Export',
                <DocumentArrowRight20Regular />,
                commands.exportReport,
                false,
                'Export the published report (PDF, Word, Excel…)',
              )}
            <ToolbarDivider />
            {button('Undo', <ArrowUndo20Regular />, commands.undo, !state.canUndo)}
            {button('Redo', <ArrowUndo20Regular style={{ transform: 'scaleX(-1)' }} />, commands.redo, !state.canRedo)}
          </>
        )}
        {tab === 'insert' && (
          <>
            {button('Text box', <TextT20Regular />, () => commands.insert('Textbox'))}
            {button('Table', <Table20Regular />, () => commands.insert('Table'))}
            {button('Matrix', <Grid20Regular />, () => commands.insert('Matrix'))}
            {button('List', <TextBulletList20Regular />, () => commands.insert('List'))}
            {button('Rectangle', <Square20Regular />, () => commands.insert('Rectangle'))}
            {button('Image', <Image20Regular />, () => commands.insert('Image'))}
            {button('Line', <ColorLine20Regular />, () => commands.insert('Line'))}
          </>
        )}
        {tab === 'format' && (
          <>
            {button('Bold', <TextBold20Regular />, () => commands.format('FontWeight', 'Bold'), !state.hasSelection)}
            {button('Italic', <TextItalic20Regular />, () => commands.format('FontStyle', 'Italic'), !state.hasSelection)}
            {button('Underline', <TextUnderline20Regular />, () => commands.format('TextDecoration', 'Underline'), !state.hasSelection)}
            <Select
              aria-label="Font size"
              size="small"
              disabled={!state.hasSelection}
              defaultValue=""
              onChange={(_, d) => d.value && commands.format('FontSize', d.value)}
            >
              <option value="">Size</option>
              {['8pt', '9pt', '10pt', '11pt', '12pt', '14pt', '16pt', '18pt', '24pt'].map((v) => (
                <option key={v}>{v}</option>
              ))}
            </Select>
            {button('Align text left', <TextAlignLeft20Regular />, () => commands.format('TextAlign', 'Left'), !state.hasSelection)}
            {button('Center text', <TextAlignCenter20Regular />, () => commands.format('TextAlign', 'Center'), !state.hasSelection)}
            {button('Align text right', <TextAlignRight20Regular />, () => commands.format('TextAlign', 'Right'), !state.hasSelection)}
            <ToolbarDivider />
            {button('Align lefts', <AlignLeft20Regular />, () => commands.align('left'), !state.multiple)}
            {button('Align tops', <AlignTop20Regular />, () => commands.align('top'), !state.multiple)}
            {button('Align rights', <AlignRight20Regular />, () => commands.align('right'), !state.multiple)}
            {button('Align bottoms', <AlignBottom20Regular />, () => commands.align('bottom'), !state.multiple)}
            <ToolbarDivider />
            {button('Delete', <Delete20Regular />, commands.remove, !state.hasSelection)}
          </>
        )}
        {tab === 'builder' && (
          <>
            {button('Download .rdl', <ArrowDownload20Regular />, commands.download)}
            {commands.builderHref && (
              <Tooltip
                content="Opens the published report in Power BI Report Builder (the desktop app, on Windows)"
                relationship="description"
                withArrow
              >
                <ToolbarButton as="a" href={commands.builderHref} icon={<Open20Regular />} data-testid="builder-link">
                  Open in Report Builder
                </ToolbarButton>
              </Tooltip>
            )}
            {button(
              'Upload .rdl',
              <ArrowDownload20Regular style={{ transform: 'rotate(180deg)' }} />,
              () => file.current?.click(),
              false,
              'Replace the draft with a definition edited elsewhere',
            )}
            <input
              ref={file}
              type="file"
              accept=".rdl,.xml,application/xml"
              aria-label="Upload .rdl file"
              data-testid="rdl-upload"
              style={{ display: 'none' }}
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) commands.upload(f);
                e.target.value = '';
              }}
            />
          </>
        )}
      </Toolbar>
    </div>
  );
}
