import { useState } from 'react';
import { Field, Input, Textarea } from '@fluentui/react-components';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../api/client';
import { useWorkspaceMutations } from '../api/workspaces';
import { FormDialog } from './FormDialog';

/** New workspace: a name and an optional description; opens the workspace once created. */
export function CreateWorkspaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { create } = useWorkspaceMutations();
  const navigate = useNavigate();
  const fieldError = create.error instanceof ApiError && create.error.field === 'name' ? create.error.message : undefined;
  const close = () => {
    create.reset();
    setName('');
    setDescription('');
    onClose();
  };
  return (
    <FormDialog
      open={open}
      onClose={close}
      title="New workspace"
      submitLabel="Create"
      pending={create.isPending}
      error={fieldError ? undefined : create.error}
      disabled={!name.trim()}
      onSubmit={() =>
        create.mutate(
          { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) },
          {
            onSuccess: (ws) => {
              close();
              navigate(`/workspaces/${ws.id}`);
            },
          },
        )
      }
    >
      <Field label="Name" required validationMessage={fieldError}>
        <Input value={name} onChange={(_, d) => setName(d.value)} maxLength={200} autoFocus />
      </Field>
      <Field label="Description">
        <Textarea value={description} onChange={(_, d) => setDescription(d.value)} maxLength={2000} />
      </Field>
    </FormDialog>
  );
}
