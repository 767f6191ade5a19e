import { useMemo, useState } from 'react';
import { Button, Link, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, Text } from '@fluentui/react-components';
import { ArrowClockwise20Regular, ArrowDownload20Regular, CloudArrowUp20Regular } from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { useCanOn } from '../../api/access';
import { ApiError } from '../../api/client';
import { saveDefinition, useDefinition, type ReportDefinition } from '../../api/reports';
import { CodeEditor } from '../../editors/code';
import { faultLine, rdlFaults } from '../../editors/code/rdl-faults';
import { GuardedButton } from '../GuardedButton';
import { ErrorMessage, RequestState } from '../RequestState';

type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'conflict' }
  | { kind: 'invalid'; error: ApiError }
  | { kind: 'error'; error: unknown };

/** The report's RDL source: view, edit, download for the desktop builder, and publish back (import with Overwrite). */
export function DefinitionEditor({ workspaceId, reportId }: { workspaceId: string; reportId: string }) {
  const def = useDefinition(workspaceId, reportId);
  return (
    <RequestState query={def} label="the definition">
      {(d) => <Editor key={d.etag} workspaceId={workspaceId} reportId={reportId} initial={d} reload={() => def.refetch()} />}
    </RequestState>
  );
}

function Editor({
  workspaceId,
  reportId,
  initial,
  reload,
}: {
  workspaceId: string;
  reportId: string;
  initial: ReportDefinition;
  reload: () => unknown;
}) {
  const qc = useQueryClient();
  const allow = useCanOn(workspaceId);
  const [draft, setDraft] = useState(initial.definition);
  const [base, setBase] = useState({ definition: initial.definition, etag: initial.etag });
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const [goTo, setGoTo] = useState<{ line: number }>();
  const dirty = draft !== base.definition;
  const lines = draft.split('\n').length;
  const canPublish = allow('report.publish');
  // The check's faults at their lines in the editor and listed above it; they stay until the next publish.
  const faults = useMemo(() => (state.kind === 'invalid' ? rdlFaults(state.error.message) : []), [state]);
  const diagnostics = useMemo(() => faults.map((f) => ({ ...f, message: f.element ? `${f.element}: ${f.message}` : f.message })), [faults]);

  const save = async (ifMatch: string) => {
    setState({ kind: 'saving' });
    try {
      const r = await saveDefinition(workspaceId, reportId, draft, ifMatch);
      setBase({ definition: draft, etag: r.etag });
      setState({ kind: 'saved' });
      void qc.invalidateQueries({ queryKey: ['report', workspaceId, reportId] });
      void qc.invalidateQueries({ queryKey: ['report-datasources', workspaceId, reportId] });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'etag_mismatch') setState({ kind: 'conflict' });
      else if (err instanceof ApiError && err.status === 400) setState({ kind: 'invalid', error: err });
      else setState({ kind: 'error', error: err });
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([draft], { type: 'application/xml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${initial.report.name}.rdl`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <section aria-label="Definition" style={{ display: 'grid', gap: 10 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
        <Text size={200}>
          {lines} lines · {initial.parameters.length} parameter{initial.parameters.length === 1 ? '' : 's'}
        </Text>
        <span style={{ flexGrow: 1 }} />
        <Text size={200} aria-live="polite" data-testid="definition-state">
          {state.kind === 'saving' ? 'Publishing…' : dirty ? 'Unsaved changes' : state.kind === 'saved' ? 'Published' : 'No changes'}
        </Text>
        <Button icon={<ArrowDownload20Regular />} onClick={download}>
          Download .rdl
        </Button>
        <GuardedButton
          appearance="primary"
          icon={<CloudArrowUp20Regular />}
          disabled={!dirty || state.kind === 'saving'}
          permission={canPublish}
          onClick={() => void save(base.etag)}
        >
          {state.kind === 'saving' ? 'Publishing…' : 'Publish'}
        </GuardedButton>
      </div>
      {state.kind === 'invalid' && (
        <MessageBar intent="error" layout="multiline" role="alert" data-testid="definition-invalid">
          <MessageBarBody>
            <MessageBarTitle>The definition was not published</MessageBarTitle>
            {faults.length ? (
              <ul data-testid="definition-faults" style={{ margin: '4px 0 0', paddingLeft: 18 }}>
                {faults.map((f) => (
                  <li key={faultLine(f)}>
                    <Link as="button" onClick={() => setGoTo({ line: f.line })}>
                      {faultLine(f)}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              state.error.message
            )}
          </MessageBarBody>
        </MessageBar>
      )}
      {state.kind === 'conflict' && (
        <MessageBar intent="warning" layout="multiline" role="alert" data-testid="definition-conflict">
          <MessageBarBody>
            <MessageBarTitle>The report changed in the reporting service since you opened it</MessageBarTitle>
            Your changes were not published and are still in the editor. Load the current definition (yours are discarded), or publish yours
            over it.
          </MessageBarBody>
          <MessageBarActions>
            <Button icon={<ArrowClockwise20Regular />} onClick={() => void reload()}>
              Load current
            </Button>
            <Button onClick={() => void save('*')}>Publish mine over it</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {state.kind === 'error' && <ErrorMessage error={state.error} title="Publish failed; your changes are still in the editor" />}
      <CodeEditor
        label="RDL source"
        language="xml"
        value={draft}
        onChange={setDraft}
        readOnly={!canPublish.ok}
        diagnostics={diagnostics}
        minHeight={480}
        maxHeight={720}
        testId="rdl-source"
        reveal
        goTo={goTo}
      />
    </section>
  );
}
