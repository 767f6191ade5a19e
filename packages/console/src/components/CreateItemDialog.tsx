import { useState } from 'react';
import { Field, Input, Select, Textarea } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../api/client';
import { useCreateItem, useItemTypes } from '../api/items';
import type { ItemTypeId } from '../api/types';
import { FormDialog } from './FormDialog';

/** New item of any type; opens its editor once created. */
export function CreateItemDialog({ workspaceId, open, onClose }: { workspaceId: string; open: boolean; onClose: () => void }) {
  const types = useItemTypes();
  const create = useCreateItem(workspaceId);
  const navigate = useNavigate();
  const [itemType, setItemType] = useState<ItemTypeId>('notebook');
  const [displayName, setDisplayName] = useState('');
  const [description, setDescription] = useState('');
  const err = create.error instanceof ApiError ? create.error : undefined;
  const close = () => {
    create.reset();
    setDisplayName('');
    setDescription('');
    onClose();
  };
  const live = types.data?.filter((t) => t.provisioning === 'live') ?? [];
  const stored = types.data?.filter((t) => t.provisioning !== 'live') ?? [];
  return (
    <FormDialog
      open={open}
      onClose={close}
      title="New item"
      submitLabel="Create"
      pending={create.isPending}
      error={err?.field === 'displayName' ? undefined : (create.error ?? types.error)}
      disabled={!displayName.trim() || !types.data}
      onSubmit={() =>
        create.mutate(
          { itemType, displayName: displayName.trim(), ...(description.trim() ? { description: description.trim() } : {}) },
          {
            onSuccess: (item) => {
              close();
              navigate(`/workspaces/${workspaceId}/items/${item.id}`);
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
          <optgroup label="Provisioned live by installs">
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
    </FormDialog>
  );
}
