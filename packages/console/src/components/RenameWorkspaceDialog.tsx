import { useState } from 'react';
import { Field, Input } from '@fluentui/react-components';
import { ApiError } from '../api/client';
import type { Workspace } from '../api/types';
import { useWorkspaceMutations } from '../api/workspaces';
import { FormDialog } from './FormDialog';

/** Renames a workspace; a refusal naming the field (a name the tenant already has) shows on the Name field. */
export function RenameWorkspaceDialog({ workspace, onClose }: { workspace: Workspace; onClose: () => void }) {
  const [name, setName] = useState(workspace.name);
  const { update } = useWorkspaceMutations();
  const fieldError = update.error instanceof ApiError && update.error.field === 'name' ? update.error.message : undefined;
  return (
    <FormDialog
      open
      onClose={onClose}
      title={`Rename ${workspace.name}`}
      submitLabel="Rename"
      pending={update.isPending}
      error={fieldError ? undefined : update.error}
      disabled={!name.trim() || name.trim() === workspace.name}
      onSubmit={() => update.mutate({ id: workspace.id, name: name.trim() }, { onSuccess: onClose })}
    >
      <Field label="Name" required validationMessage={fieldError}>
        <Input value={name} onChange={(_, d) => setName(d.value)} maxLength={200} autoFocus />
      </Field>
    </FormDialog>
  );
}
