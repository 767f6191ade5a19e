import { useState } from 'react';
import { Field, Input } from '@fluentui/react-components';
import type { Workspace } from '../api/types';
import { useWorkspaceMutations } from '../api/workspaces';
import { FormDialog } from './FormDialog';

export function RenameWorkspaceDialog({ workspace, onClose }: { workspace: Workspace; onClose: () => void }) {
  const [name, setName] = useState(workspace.name);
  const { update } = useWorkspaceMutations();
  return (
    <FormDialog
      open
      onClose={onClose}
      title={`Rename ${workspace.name}`}
      submitLabel="Rename"
      pending={update.isPending}
      error={update.error}
      disabled={!name.trim() || name.trim() === workspace.name}
      onSubmit={() => update.mutate({ id: workspace.id, name: name.trim() }, { onSuccess: onClose })}
    >
      <Field label="Name" required>
        <Input value={name} onChange={(_, d) => setName(d.value)} maxLength={200} autoFocus />
      </Field>
    </FormDialog>
  );
}
