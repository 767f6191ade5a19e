import { lazyDialog, lazyPart } from './lazy';

// The workspace list's dialogs load when one opens: the first page after sign-in needs none of their code (deleting a
// workspace alone brings the lifecycle plan, diff view and job report).
export const CreateWorkspaceDialog = lazyDialog(() => import('./CreateWorkspaceDialog').then((m) => m.CreateWorkspaceDialog));
export const RenameWorkspaceDialog = lazyPart(() => import('./RenameWorkspaceDialog').then((m) => m.RenameWorkspaceDialog));
export const BindWorkspaceDialog = lazyPart(() => import('./BindWorkspaceDialog').then((m) => m.BindWorkspaceDialog));
export const DeleteWorkspaceDialog = lazyPart(() => import('./DeleteWorkspaceDialog').then((m) => m.DeleteWorkspaceDialog));
