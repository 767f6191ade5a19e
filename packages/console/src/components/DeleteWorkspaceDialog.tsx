import { Text } from '@fluentui/react-components';
import type { Workspace } from '../api/types';
import { useWorkspaceMutations } from '../api/workspaces';
import { FormDialog } from './FormDialog';

/** Confirms deleting a workspace and every item in it. */
export function DeleteWorkspaceDialog({
  workspace,
  onClose,
  onDeleted,
}: {
  workspace: Workspace;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const { remove } = useWorkspaceMutations();
  return (
    <FormDialog
      open
      onClose={onClose}
      title="Delete workspace?"
      submitLabel="Delete"
      danger
      pending={remove.isPending}
      error={remove.error}
      onSubmit={() =>
        remove.mutate(workspace.id, {
          onSuccess: () => {
            onClose();
            onDeleted?.();
          },
        })
      }
    >
      <Text>
        <strong>{workspace.name}</strong> and all of its items and lineage will be deleted. Resources already provisioned in backing
        services are not removed.
      </Text>
    </FormDialog>
  );
}
