import { useEffect, useState } from 'react';
import { Checkbox, Field, Input, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { WhoAmI } from '../../api/types';
import {
  type CreatedToken,
  DEFAULT_EXPIRY_DAYS,
  grantableScopes,
  MAX_EXPIRY_DAYS,
  type TokenScope,
  useCreateToken,
} from '../../api/tokens';
import { useWorkspaces } from '../../api/workspaces';
import { FormDialog } from '../FormDialog';

const useStyles = makeStyles({
  group: { display: 'grid', gap: '2px', border: 'none', margin: 0, padding: 0 },
  legend: { fontWeight: tokens.fontWeightSemibold, paddingBottom: '4px' },
  hint: { color: tokens.colorNeutralForeground3, marginLeft: '32px', marginTop: '-6px' },
  workspaces: { display: 'grid', gap: '0', maxHeight: '180px', overflowY: 'auto', paddingLeft: '24px', border: 'none', margin: 0 },
});

/**
 * Creates an API token: its name, its scopes (checkboxes of the scopes the caller holds), its expiry in days and an
 * optional workspace limit. Checked here before sending; what the service refuses shows its own message.
 */
export function CreateTokenDialog({ me, onClose, onCreated }: { me: WhoAmI; onClose: () => void; onCreated: (t: CreatedToken) => void }) {
  const s = useStyles();
  const create = useCreateToken();
  const workspaces = useWorkspaces();
  // The list may predate workspaces made elsewhere (a client, another tab): read it again when the dialog opens.
  const { refetch } = workspaces;
  useEffect(() => {
    void refetch();
  }, [refetch]);
  const scopes = grantableScopes(me.scopes);
  const [name, setName] = useState('');
  const [picked, setPicked] = useState<ReadonlySet<TokenScope>>(
    new Set(['read' as TokenScope].filter((x) => scopes.some((s2) => s2.scope === x))),
  );
  const [days, setDays] = useState(String(DEFAULT_EXPIRY_DAYS));
  // A session limited to some workspaces can only make tokens limited to a subset of them (the service's rule).
  const mustLimit = me.workspaceIds !== null;
  const [limit, setLimit] = useState(mustLimit);
  const [wsPicked, setWsPicked] = useState<ReadonlySet<string>>(new Set());
  const [touched, setTouched] = useState(false);
  const choosable = (workspaces.data ?? []).filter((w) => !mustLimit || me.workspaceIds?.includes(w.id));

  const nameError = name.trim() ? undefined : 'Give the token a name (what it is for).';
  const scopeError = picked.size ? undefined : 'Choose at least one scope.';
  const n = Number(days);
  const daysError =
    Number.isInteger(n) && n >= 1 && n <= MAX_EXPIRY_DAYS ? undefined : `Expiry: a whole number of days from 1 to ${MAX_EXPIRY_DAYS}.`;
  const wsError = limit && wsPicked.size === 0 ? 'Choose the workspaces the token is limited to.' : undefined;
  const invalid = !!(nameError || scopeError || daysError || wsError);

  const toggle = <T,>(set: ReadonlySet<T>, v: T, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(v);
    else next.delete(v);
    return next;
  };
  const submit = () => {
    setTouched(true);
    if (invalid) return;
    create.mutate(
      {
        name: name.trim(),
        scopes: scopes.map((x) => x.scope).filter((x) => picked.has(x)),
        expiresInDays: n,
        ...(limit ? { workspaceIds: [...wsPicked] } : {}),
      },
      { onSuccess: onCreated },
    );
  };
  const show = (e: string | undefined) => (touched ? e : undefined);
  return (
    <FormDialog
      open
      onClose={onClose}
      title="New API token"
      submitLabel="Create token"
      onSubmit={submit}
      pending={create.isPending}
      error={create.error}
    >
      <Field label="Name" required validationMessage={show(nameError)}>
        <Input value={name} onChange={(_, d) => setName(d.value)} maxLength={100} placeholder="e.g. nightly export job" />
      </Field>
      <fieldset className={s.group}>
        <legend className={s.legend}>Scopes</legend>
        {scopes.map(({ scope, text }) => (
          <div key={scope}>
            <Checkbox
              label={scope}
              checked={picked.has(scope)}
              onChange={(_, d) => setPicked((p) => toggle(p, scope, !!d.checked))}
              aria-describedby={`scope-${scope}`}
            />
            <Text id={`scope-${scope}`} size={200} block className={s.hint}>
              {text}
            </Text>
          </div>
        ))}
        {show(scopeError) && (
          <Text size={200} role="alert" style={{ color: tokens.colorPaletteRedForeground1 }}>
            {scopeError}
          </Text>
        )}
        <Text size={200}>Only the scopes you hold are offered: a token never grants more than its maker has.</Text>
      </fieldset>
      <Field
        label="Expires in (days)"
        required
        validationMessage={show(daysError)}
        hint={`1 to ${MAX_EXPIRY_DAYS}; never later than the token you signed in with`}
      >
        <Input type="number" min={1} max={MAX_EXPIRY_DAYS} value={days} onChange={(_, d) => setDays(d.value)} style={{ width: 120 }} />
      </Field>
      <fieldset className={s.group}>
        <legend className={s.legend}>Workspaces</legend>
        <Checkbox
          label={mustLimit ? 'Limited to some of the workspaces your session is limited to' : 'Limit the token to some workspaces'}
          checked={limit}
          disabled={mustLimit}
          onChange={(_, d) => setLimit(!!d.checked)}
        />
        {limit && (
          <fieldset className={s.workspaces} aria-label="Workspaces the token is limited to">
            {choosable.map((w) => (
              <Checkbox
                key={w.id}
                label={w.name}
                checked={wsPicked.has(w.id)}
                onChange={(_, d) => setWsPicked((p) => toggle(p, w.id, !!d.checked))}
              />
            ))}
            {workspaces.isSuccess && choosable.length === 0 && <Text size={200}>No workspace to choose.</Text>}
          </fieldset>
        )}
        {show(wsError) && (
          <Text size={200} role="alert" style={{ color: tokens.colorPaletteRedForeground1 }}>
            {wsError}
          </Text>
        )}
      </fieldset>
    </FormDialog>
  );
}
