import { Text } from '@fluentui/react-components';
import { useParams } from 'react-router-dom';
import { useCan } from '../api/access';
import { useItems } from '../api/items';
import { useEdges } from '../api/thread';
import { useWorkspace } from '../api/workspaces';
import { EdgeEditor } from '../components/EdgeEditor';
import { PageHeader } from '../components/PageHeader';
import { RequestState } from '../components/RequestState';
import { ThreadGraph } from '../components/ThreadGraph';

/** A workspace's thread: the lineage graph, and its edges to add or remove. */
export default function ThreadPage() {
  const { workspaceId = '' } = useParams();
  const ws = useWorkspace(workspaceId);
  const items = useItems(workspaceId);
  const edges = useEdges(workspaceId);
  const name = ws.data?.name ?? 'Workspace';
  const allow = useCan(ws.data);
  return (
    <>
      <PageHeader
        title={`Lineage of ${name}`}
        crumbs={[
          { to: '/workspaces', label: 'Workspaces' },
          { to: `/workspaces/${workspaceId}`, label: name },
          { to: `/workspaces/${workspaceId}/thread`, label: 'Lineage' },
        ]}
      />
      <RequestState query={items} label="items">
        {(list) => (
          <RequestState query={edges} label="the thread">
            {(es) => {
              const connected = new Set(es.flatMap((e) => [e.fromItemId, e.toItemId]));
              const loose = list.filter((i) => !connected.has(i.id));
              return (
                <div style={{ display: 'grid', gap: 16 }}>
                  <ThreadGraph items={list} edges={es} />
                  {loose.length > 0 && <Text size={200}>Not in the thread: {loose.map((i) => i.displayName).join(', ')}</Text>}
                  <EdgeEditor workspaceId={workspaceId} items={list} edges={es} permission={allow('thread.edit')} />
                </div>
              );
            }}
          </RequestState>
        )}
      </RequestState>
    </>
  );
}
