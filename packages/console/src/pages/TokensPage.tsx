import { useState } from 'react';
import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { useWhoAmI } from '../api/session';
import { type ApiToken, type CreatedToken, useRevokeToken, useTokens } from '../api/tokens';
import { useWorkspaces } from '../api/workspaces';
import { PageHeader } from '../components/PageHeader';
import { ErrorMessage, RequestState } from '../components/RequestState';
import { CreateTokenDialog } from '../components/tokens/CreateTokenDialog';
import { NewSecret } from '../components/tokens/NewSecret';

// Short enough to fit a column; the exact time is the cell's title.
const when = (iso: string | null) =>
  iso ? (
    <span title={new Date(iso).toLocaleString()}>
      {new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
    </span>
  ) : (
    'never'
  );

/** Confirms revoking a token; the service's refusal shows its message. */
function RevokeDialog({ token, isSession, onClose }: { token: ApiToken; isSession: boolean; onClose: () => void }) {
  const revoke = useRevokeToken();
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>Revoke “{token.name}”?</DialogTitle>
          <DialogContent style={{ display: 'grid', gap: 8 }}>
            <Text>
              Every request made with it is refused from the next one on, and so is every token made with it. This cannot be undone.
            </Text>
            {isSession && <Text weight="semibold">This is the token your console session was opened with: revoking it signs you out.</Text>}
            {revoke.error ? <ErrorMessage error={revoke.error} title="The service refused the revocation" /> : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Cancel</Button>
            <Button
              appearance="primary"
              style={{ backgroundColor: 'var(--colorPaletteRedBackground3)' }}
              disabled={revoke.isPending}
              onClick={() => revoke.mutate(token.id, { onSuccess: onClose })}
            >
              {revoke.isPending ? 'Revoking…' : 'Revoke'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** The caller's API tokens (every token of the tenant for an admin): list, create with the secret shown once, revoke. */
export default function TokensPage() {
  const me = useWhoAmI().data;
  const list = useTokens();
  const workspaces = useWorkspaces();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedToken>();
  const [revoking, setRevoking] = useState<ApiToken>();
  const wsName = (id: string) => workspaces.data?.find((w) => w.id === id)?.name ?? id;
  const mayCreate = !!me && (me.scopes.includes('tokens') || me.scopes.includes('admin'));
  return (
    <>
      <PageHeader
        title="API tokens"
        actions={
          <Button
            appearance="primary"
            icon={<Add20Regular />}
            onClick={() => setCreating(true)}
            disabledFocusable={!mayCreate}
            title={mayCreate ? undefined : 'Needs the tokens scope'}
          >
            New token
          </Button>
        }
      />
      <Text block style={{ marginBottom: 12, maxWidth: 760 }}>
        A token lets the Python and TypeScript clients (and any HTTP caller) act as you, limited to its scopes and, when you choose, to some
        workspaces. Its secret is shown once, when it is created.
      </Text>
      {created && <NewSecret created={created} onDone={() => setCreated(undefined)} />}
      <RequestState query={list} label="your API tokens">
        {(tokens) =>
          tokens.length === 0 ? (
            <Text>No live tokens. Create one with “New token”.</Text>
          ) : (
            <Table size="small" aria-label="API tokens" style={{ tableLayout: 'auto' }}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Name</TableHeaderCell>
                  <TableHeaderCell>Scopes</TableHeaderCell>
                  <TableHeaderCell>Workspaces</TableHeaderCell>
                  <TableHeaderCell>Created</TableHeaderCell>
                  <TableHeaderCell>Expires</TableHeaderCell>
                  <TableHeaderCell>Last used</TableHeaderCell>
                  <TableHeaderCell>
                    <span className="sr-only">Actions</span>
                  </TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {[...tokens]
                  .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
                  .map((t) => (
                    <TableRow key={t.id} data-testid="token-row" data-token={t.id}>
                      <TableCell>
                        <Text weight="semibold" block style={{ minWidth: 160 }}>
                          {t.name}
                        </Text>
                        {t.id === me?.tokenId && (
                          <Badge appearance="tint" color="informative" style={{ whiteSpace: 'nowrap' }}>
                            this session
                          </Badge>
                        )}
                        {me && t.userId !== me.userId && (
                          <Text size={200} block>
                            of user {t.userId}
                          </Text>
                        )}
                      </TableCell>
                      <TableCell>
                        <span style={{ display: 'flex', gap: 4, flexWrap: 'wrap', padding: '4px 0', minWidth: 170 }}>
                          {t.scopes.map((sc) => (
                            <Badge key={sc} appearance="outline">
                              {sc}
                            </Badge>
                          ))}
                        </span>
                      </TableCell>
                      <TableCell>{t.workspaceIds ? t.workspaceIds.map(wsName).join(', ') : 'all'}</TableCell>
                      <TableCell>{when(t.createdAt)}</TableCell>
                      <TableCell>{when(t.expiresAt)}</TableCell>
                      <TableCell>{when(t.lastUsedAt)}</TableCell>
                      <TableCell>
                        <Button size="small" icon={<Delete20Regular />} onClick={() => setRevoking(t)} aria-label={`Revoke ${t.name}`}>
                          Revoke
                        </Button>
                      </TableCell>
                    </TableRow>
                  ))}
              </TableBody>
            </Table>
          )
        }
      </RequestState>
      {creating && me && (
        <CreateTokenDialog
          me={me}
          onClose={() => setCreating(false)}
          onCreated={(t) => {
            setCreating(false);
            setCreated(t);
          }}
        />
      )}
      {revoking && <RevokeDialog token={revoking} isSession={revoking.id === me?.tokenId} onClose={() => setRevoking(undefined)} />}
    </>
  );
}
