import { useState } from 'react';
import { Field, Input } from '@fluentui/react-components';
import type { Workspace } from '../api/types';
import { useWorkspaceMutations } from '../api/workspaces';
import { FormDialog } from './FormDialog';

/** Admins bind a workspace to a platform workspace (its capacity), or clear the binding. */
export function BindWorkspaceDialog({ workspace, onClose }: { workspace: Workspace; onClose: () => void }) {
  const [value, setValue] = useState(workspace.platformWorkspaceId ?? '');
  const { update } = useWorkspaceMutations();
  return (
    <FormDialog
      open
      onClose={onClose}
      title="Platform workspace binding"
      submitLabel={value.trim() ? 'Bind' : 'Clear binding'}
      pending={update.isPending}
      error={update.error}
      onSubmit={() => update.mutate({ id: workspace.id, platformWorkspaceId: value.trim() || null }, { onSuccess: onClose })}
    >
      <Field
        label="Platform workspace id"
        hint="One of the platform workspaces the operator assigned to your tenant; installs and reports of this workspace use it. Leave empty to use the tenant's default one."
      >
        <Input value={value} onChange={(_, d) => setValue(d.value)} autoFocus />
      </Field>
    </FormDialog>
  );
}
