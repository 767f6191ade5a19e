import { Suspense, useState } from 'react';
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
import { ArrowClockwise20Regular, Save20Regular } from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../api/client';
import { saveContent, useItemTypes } from '../api/items';
import type { Item } from '../api/types';
import { editorFor, JsonEditor } from '../editors';
import { ErrorMessage } from './RequestState';

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'conflict' } | { kind: 'error'; error: unknown };

/** Edits an item's stored content and saves it with If-Match; a conflict keeps the draft and says so. */
export function ItemEditor({ item, content, etag }: { item: Item; content: unknown; etag: string }) {
  const qc = useQueryClient();
  const [draft, setDraft] = useState<unknown>(content);
  const [base, setBase] = useState({ content, etag });
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const special = editorFor(useItemTypes().data?.find((t) => t.id === item.itemType));
  // The type's own editor is the first tab once the item types are read, unless the user picked one.
  const [picked, setTab] = useState<string>();
  const tab = picked ?? (special ? 'special' : 'json');
  const dirty = JSON.stringify(draft) !== JSON.stringify(base.content);
  const key = ['content', item.workspaceId, item.id];

  const save = async (ifMatch: string) => {
    setState({ kind: 'saving' });
    try {
      const r = await saveContent(item.workspaceId, item.id, draft, ifMatch);
      setBase({ content: draft, etag: r.etag });
      qc.setQueryData(key, { ok: true, content: draft, etag: r.etag });
      void qc.invalidateQueries({ queryKey: ['item', item.workspaceId, item.id] });
      setState({ kind: 'saved' });
    } catch (err) {
      setState(err instanceof ApiError && err.code === 'etag_mismatch' ? { kind: 'conflict' } : { kind: 'error', error: err });
    }
  };
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
        <Text size={200} aria-live="polite">
          {dirty ? 'Unsaved changes' : state.kind === 'saved' ? 'Saved' : 'No changes'}
        </Text>
        <Button
          appearance="primary"
          icon={<Save20Regular />}
          disabled={!dirty || state.kind === 'saving'}
          onClick={() => void save(base.etag)}
        >
          {state.kind === 'saving' ? 'Saving…' : 'Save'}
        </Button>
      </div>
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
      {state.kind === 'error' && <ErrorMessage error={state.error} title="Save failed; your changes are still in the editor" />}
      <Suspense fallback={<Spinner size="small" label="Loading the editor…" />}>
        {tab === 'special' && special ? (
          <special.Editor value={draft} onChange={setDraft} label={label} />
        ) : (
          <JsonEditor value={draft} onChange={setDraft} label={label} />
        )}
      </Suspense>
    </section>
  );
}

function fetchContent(item: Item) {
  return api<{ content: unknown; etag: string }>('GET', `/api/workspaces/${item.workspaceId}/items/${item.id}/content`);
}
