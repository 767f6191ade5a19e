import { useState } from 'react';
import { Card, CardHeader, makeStyles, Text } from '@fluentui/react-components';
import { Delete20Regular } from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useCan } from '../api/access';
import { useItem, useItemContent, useItemTypes } from '../api/items';
import { useWorkspace } from '../api/workspaces';
import { DeleteItemDialog } from '../components/DeleteItemDialog';
import { GuardedButton } from '../components/GuardedButton';
import { ItemEditor } from '../components/ItemEditor';
import { ItemTypeIcon } from '../components/ItemTypeIcon';
import { JobRun } from '../components/JobRun';
import { PageHeader } from '../components/PageHeader';
import { ProvisioningPanel } from '../components/ProvisioningPanel';
import { RequestState } from '../components/RequestState';

const useStyles = makeStyles({
  layout: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 320px', gap: '20px', alignItems: 'start' },
  side: { display: 'grid', gap: '12px' },
  facts: { display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '4px 12px', fontSize: '12px', wordBreak: 'break-all' },
});

/** One item: its content in the editor suited to its type, its live state, a job started for it, and Delete. */
export default function ItemPage() {
  const s = useStyles();
  const { workspaceId = '', itemId = '' } = useParams();
  const ws = useWorkspace(workspaceId);
  const item = useItem(workspaceId, itemId);
  const content = useItemContent(workspaceId, itemId);
  const type = useItemTypes().data?.find((t) => t.id === item.data?.itemType);
  const name = item.data?.displayName ?? 'Item';
  // A job started elsewhere for this item (New item with Deploy now): followed here until it ends.
  const [params] = useSearchParams();
  const jobId = params.get('job');
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const allow = useCan(ws.data);
  return (
    <>
      <PageHeader
        title={name}
        icon={item.data && <ItemTypeIcon itemType={item.data.itemType} title={type?.displayName} />}
        crumbs={[
          { to: '/workspaces', label: 'Workspaces' },
          { to: `/workspaces/${workspaceId}`, label: ws.data?.name ?? 'Workspace' },
          { to: `/workspaces/${workspaceId}/items/${itemId}`, label: name },
        ]}
        actions={
          <GuardedButton
            icon={<Delete20Regular />}
            onClick={() => setDeleting(true)}
            disabled={!item.data}
            permission={allow('item.delete')}
          >
            Delete
          </GuardedButton>
        }
      />
      {deleting && item.data && (
        <DeleteItemDialog item={item.data} onClose={() => setDeleting(false)} onDeleted={() => navigate(`/workspaces/${workspaceId}`)} />
      )}
      <RequestState query={item} label="the item">
        {(it) => (
          <div className={s.layout}>
            <RequestState query={content} label="the content">
              {(c) => (
                <ItemEditor
                  key={`${it.id}`}
                  item={it}
                  content={c.content}
                  etag={c.etag}
                  canEdit={allow('item.edit')}
                  canApply={allow('item.apply')}
                />
              )}
            </RequestState>
            <aside className={s.side} aria-label="Item details">
              {jobId && (
                <Card data-testid="deploy-panel">
                  <JobRun
                    jobId={jobId}
                    onEnd={() => {
                      void qc.invalidateQueries({ queryKey: ['item', workspaceId, itemId] });
                      void qc.invalidateQueries({ queryKey: ['items', workspaceId] });
                    }}
                  />
                </Card>
              )}
              <Card>
                <CardHeader header={<Text weight="semibold">{type?.displayName ?? it.itemType}</Text>} description={type?.description} />
                <div className={s.facts}>
                  <Text size={200}>Id</Text>
                  <Text size={200} font="monospace">
                    {it.id}
                  </Text>
                  <Text size={200}>App</Text>
                  <Text size={200}>{it.appId ?? 'created here'}</Text>
                  <Text size={200}>Content</Text>
                  <Text size={200}>{it.contentSource === 'user' ? 'saved by a user' : 'from the catalog'}</Text>
                  <Text size={200}>Updated</Text>
                  <Text size={200}>{new Date(it.updatedAt).toLocaleString()}</Text>
                </div>
                {it.description && <Text size={200}>{it.description}</Text>}
              </Card>
              <ProvisioningPanel item={it} live={type?.provisioning === 'live'} />
            </aside>
          </div>
        )}
      </RequestState>
    </>
  );
}
