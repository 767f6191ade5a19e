import { useState } from 'react';
import { Checkbox, Field, Input, Select, Textarea } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../api/client';
import { useCreateItem, useItemTypes } from '../api/items';
import type { ItemTypeId } from '../api/types';
import { FormDialog } from './FormDialog';

/** A first content a new item of these types can be provisioned with (the service checks it against the type's schema). */
const STARTER: Partial<Record<ItemTypeId, (name: string) => unknown>> = {
  notebook: (name) => ({ language: 'python', cells: [{ kind: 'markdown', source: `# ${name}` }] }),
};

/** New item of any type; a live type can be deployed now (an apply job). Opens its editor once created, following the job. */
export function CreateItemDialog({ workspaceId, open, onClose }: { workspaceId: string; open: boolean; onClose: () => void }) {
  const types = useItemTypes();
  const create = useCreateItem(workspaceId);
  const navigate = useNavigate();
  const [itemType, setItemType] = useState<ItemTypeId>('notebook');
  const [displayName, setDisplayName] = useState('');
  const [description, setDescription] = useState('');
  const [deploy, setDeploy] = useState(false);
  const err = create.error instanceof ApiError ? create.error : undefined;
  const close = () => {
    create.reset();
    setDisplayName('');
    setDescription('');
    setDeploy(false);
    onClose();
  };
  const live = types.data?.filter((t) => t.provisioning === 'live') ?? [];
  const stored = types.data?.filter((t) => t.provisioning !== 'live') ?? [];
  const isLive = live.some((t) => t.id === itemType);
  const name = displayName.trim();
  const starter = STARTER[itemType];
  return (
    <FormDialog
      open={open}
      onClose={close}
      title="New item"
      submitLabel={isLive && deploy ? 'Create and deploy' : 'Create'}
      pending={create.isPending}
      error={err?.field === 'displayName' ? undefined : (create.error ?? types.error)}
      disabled={!displayName.trim() || !types.data}
      onSubmit={() =>
        create.mutate(
          {
            itemType,
            displayName: name,
            ...(description.trim() ? { description: description.trim() } : {}),
            ...(isLive && deploy ? { deploy: true, ...(starter ? { content: starter(name) } : {}) } : {}),
          },
          {
            onSuccess: (item) => {
              close();
              // With deploy the item's live record names the apply job provisioning it: the item page follows it.
              const jobId = deploy && isLive ? item.provisioning?.jobId : undefined;
              navigate(`/workspaces/${workspaceId}/items/${item.id}${jobId ? `?job=${jobId}` : ''}`);
            },
          },
        )
      }
    >
      <Field label="Item type" required hint={types.data?.find((t) => t.id === itemType)?.description}>
        <Select
          value={itemType}
          onChange={(_, d) => setItemType(types.data?.find((t) => t.id === d.value)?.id ?? itemType)}
          disabled={!types.data}
        >
          <optgroup label="Live in a backing service">
            {live.map((t) => (
              <option key={t.id} value={t.id}>
                {t.displayName}
              </option>
            ))}
          </optgroup>
          <optgroup label="Stored in the service">
            {stored.map((t) => (
              <option key={t.id} value={t.id}>
                {t.displayName}
              </option>
            ))}
          </optgroup>
        </Select>
      </Field>
      <Field label="Name" required validationMessage={err?.field === 'displayName' ? err.message : undefined}>
        <Input value={displayName} onChange={(_, d) => setDisplayName(d.value)} maxLength={256} autoFocus />
      </Field>
      <Field label="Description">
        <Textarea value={description} onChange={(_, d) => setDescription(d.value)} maxLength={2000} />
      </Field>
      {isLive ? (
        <Field hint="Creates it in its backing service right away (an apply job); otherwise it is stored here until you Apply it.">
          <Checkbox label="Deploy now" checked={deploy} onChange={(_, d) => setDeploy(!!d.checked)} />
        </Field>
      ) : (
        <Field hint="This type is stored in the service only: there is nothing to deploy.">
          <Checkbox label="Deploy now" checked={false} disabled />
        </Field>
      )}
    </FormDialog>
  );
}
