import { Suspense, useCallback, useMemo, useState } from 'react';
import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Tab,
  TabList,
  Text,
} from '@fluentui/react-components';
import { ArrowClockwise20Regular, CloudArrowUp20Regular, Save20Regular } from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../api/client';
import { saveContent, useItemTypes } from '../api/items';
import { startApply } from '../api/lifecycle';
import type { Permission } from '../api/access';
import type { Item } from '../api/types';
import { editorFor, JsonEditor } from '../editors';
import { JobRun } from './JobRun';
import { ErrorMessage } from './RequestState';

type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'applying' }
  | { kind: 'conflict' }
  | { kind: 'error'; error: unknown; applying?: boolean };

/**
 * Edits an item's stored content and saves it with If-Match; a conflict keeps the draft and says so. A live type also
 * offers Save and apply: the stored content goes to the backing service through an apply job, followed below.
 */
export function ItemEditor({
  item,
  content,
  etag,
  canEdit,
  canApply,
}: {
  item: Item;
  content: unknown;
  etag: string;
  canEdit: Permission;
  canApply: Permission;
}) {
  const qc = useQueryClient();
  const [draft, setDraft] = useState<unknown>(content);
  const [base, setBase] = useState({ content, etag });
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const [applyJob, setApplyJob] = useState<string>();
  const type = useItemTypes().data?.find((t) => t.id === item.itemType);
  const special = editorFor(type);
  const live = type?.provisioning === 'live';
  // The type's own editor is the first tab once the item types are read, unless the user picked one.
  const [picked, setTab] = useState<string>();
  const tab = picked ?? (special ? 'special' : 'json');
  const dirty = JSON.stringify(draft) !== JSON.stringify(base.content);
  // The JSON tab's parse error: while the text does not parse there is nothing to save (the draft is the last valid text).
  const [unparsed, setUnparsed] = useState<string>();
  const onValidity = useCallback((e: string | undefined) => setUnparsed(e), []);
  const key = ['content', item.workspaceId, item.id];

  const save = async (ifMatch: string): Promise<boolean> => {
    setState({ kind: 'saving' });
    try {
      const r = await saveContent(item.workspaceId, item.id, draft, ifMatch);
      setBase({ content: draft, etag: r.etag });
      qc.setQueryData(key, { ok: true, content: draft, etag: r.etag });
      void qc.invalidateQueries({ queryKey: ['item', item.workspaceId, item.id] });
      void qc.invalidateQueries({ queryKey: ['items', item.workspaceId] });
      setState({ kind: 'saved' });
      return true;
    } catch (err) {
      setState(err instanceof ApiError && err.code === 'etag_mismatch' ? { kind: 'conflict' } : { kind: 'error', error: err });
      return false;
    }
  };
  // Save first (when there is anything to save), then push the stored content to the live resource.
  const saveAndApply = async () => {
    if (dirty && !(await save(base.etag))) return;
    setState({ kind: 'applying' });
    setApplyJob(undefined);
    try {
      const job = await startApply(item.workspaceId, item.id);
      setApplyJob(job.id);
      setState({ kind: 'saved' });
    } catch (err) {
      setState({ kind: 'error', error: err, applying: true });
    }
  };
  const applied = () => {
    void qc.invalidateQueries({ queryKey: ['item', item.workspaceId, item.id] });
    void qc.invalidateQueries({ queryKey: ['items', item.workspaceId] });
    void qc.invalidateQueries({ queryKey: ['drift', item.workspaceId] });
  };
  const busy = state.kind === 'saving' || state.kind === 'applying' || unparsed !== undefined;
  // A refusal naming a content field (body/content/cells/0/source …) is shown at that field's line in the editor.
  const fieldError = useMemo(() => {
    const err = state.kind === 'error' && state.error instanceof ApiError ? state.error : undefined;
    return err?.field?.startsWith('content') ? { path: err.field.slice('content'.length), message: err.message } : undefined;
  }, [state]);
  const reload = async () => {
    const fresh = await qc.fetchQuery({ queryKey: key, queryFn: () => fetchContent(item), staleTime: 0 });
    setBase({ content: fresh.content, etag: fresh.etag });
    setDraft(fresh.content);
    setState({ kind: 'idle' });
  };

  const label = `Content of ${item.displayName}`;
  return (
    <section aria-label="Editor" style={{ display: 'grid', gap: 10, minWidth: 0 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
        <TabList selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as string)} size="small">
          {special && <Tab value="special">{special.tab}</Tab>}
          <Tab value="json">JSON</Tab>
        </TabList>
        <span style={{ flexGrow: 1 }} />
        {canEdit.ok ? (
          <Text size={200} aria-live="polite">
            {unparsed ? 'Not valid JSON: nothing to save' : dirty ? 'Unsaved changes' : state.kind === 'saved' ? 'Saved' : 'No changes'}
          </Text>
        ) : (
          <Text size={200} data-testid="read-only-note">
            Read only: {canEdit.reason}
          </Text>
        )}
        {canEdit.ok && (
          <Button
            appearance={live ? 'secondary' : 'primary'}
            icon={<Save20Regular />}
            disabled={!dirty || busy}
            onClick={() => void save(base.etag)}
          >
            {state.kind === 'saving' ? 'Saving…' : 'Save'}
          </Button>
        )}
        {live && canApply.ok && (
          <Button appearance="primary" icon={<CloudArrowUp20Regular />} disabled={busy} onClick={() => void saveAndApply()}>
            {state.kind === 'applying' ? 'Starting…' : dirty ? 'Save and apply' : 'Apply'}
          </Button>
        )}
      </div>
      {type && !live && (
        <MessageBar intent="info" layout="multiline" data-testid="stored-only-note">
          <MessageBarBody>
            <MessageBarTitle>Stored in the service only</MessageBarTitle>
            {type.displayName} items have no backing service: saving keeps the content here, and there is nothing to apply.
          </MessageBarBody>
        </MessageBar>
      )}
      {applyJob && (
        <section
          aria-label="Apply"
          data-testid="apply-panel"
          style={{ border: '1px solid var(--colorNeutralStroke2)', borderRadius: 6, padding: 10 }}
        >
          <JobRun jobId={applyJob} onEnd={applied} />
        </section>
      )}
      {state.kind === 'conflict' && (
        <MessageBar intent="warning" layout="multiline" role="alert" data-testid="conflict-message">
          <MessageBarBody>
            <MessageBarTitle>Someone else saved this item since you opened it</MessageBarTitle>
            Your changes were not saved, and they are still here in the editor. Load the latest version to start again from theirs (your
            changes are discarded), or overwrite their version with yours.
          </MessageBarBody>
          <MessageBarActions>
            <Button icon={<ArrowClockwise20Regular />} onClick={() => void reload()}>
              Load latest (discard mine)
            </Button>
            <Button onClick={() => void save('*')}>Overwrite with mine</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {state.kind === 'error' && (
        <ErrorMessage
          error={state.error}
          title={state.applying ? 'Apply was refused; the content is saved' : 'Save failed; your changes are still in the editor'}
        />
      )}
      <Suspense fallback={<Spinner size="small" label="Loading the editor…" />}>
        {/* A disabled fieldset makes every control of the editor read only for a caller who cannot save. */}
        <fieldset disabled={!canEdit.ok} style={{ border: 'none', margin: 0, padding: 0, minWidth: 0 }} data-testid="editor-fields">
          {tab === 'special' && special ? (
            <special.Editor value={draft} onChange={setDraft} label={label} readOnly={!canEdit.ok} fieldError={fieldError} />
          ) : (
            <JsonEditor
              value={draft}
              onChange={setDraft}
              label={label}
              readOnly={!canEdit.ok}
              fieldError={fieldError}
              onValidity={onValidity}
            />
          )}
        </fieldset>
      </Suspense>
    </section>
  );
}

function fetchContent(item: Item) {
  return api<{ content: unknown; etag: string }>('GET', `/api/workspaces/${item.workspaceId}/items/${item.id}/content`);
}
