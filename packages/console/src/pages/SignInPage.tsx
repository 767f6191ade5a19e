import { useState } from 'react';
import { Button, Divider, Field, Input, makeStyles, Text, Title2, tokens } from '@fluentui/react-components';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useHealth, useSignIn, useWhoAmI } from '../api/session';
import { CloudBadge } from '../components/CloudBadge';
import { ErrorMessage } from '../components/RequestState';

const useStyles = makeStyles({
  page: { minHeight: '100%', display: 'grid', placeItems: 'center', backgroundColor: tokens.colorNeutralBackground3 },
  // A card's look without Fluent's Card (its interactive-card code would load with the first page for nothing).
  card: {
    width: '420px',
    padding: '28px',
    display: 'grid',
    gap: '16px',
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow4,
  },
});

/**
 * Sign in with the cloud's identity provider (when the deployment has one configured) or with an API token
 * (svc_pat_…); either way the service keeps the session in an httpOnly cookie.
 */
export function SignInPage() {
  const s = useStyles();
  const [token, setToken] = useState('');
  const signIn = useSignIn();
  const me = useWhoAmI();
  const health = useHealth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = params.get('next')?.startsWith('/') ? params.get('next')! : '/workspaces';
  if (me.data) return <Navigate to={next} replace />;
  const idp = health.data?.identityProvider;
  return (
    <div className={s.page}>
      <div className={s.card}>
        <Title2 as="h1">Analytics Workspace</Title2>
        <div>
          <CloudBadge />
        </div>
        {idp ? (
          <>
            <Button as="a" appearance="primary" href={`${idp.loginUrl}?returnTo=${encodeURIComponent(next)}`} data-testid="sign-in-idp">
              Sign in with {idp.name}
            </Button>
            <Divider>or</Divider>
          </>
        ) : null}
        <form
          style={{ display: 'grid', gap: 12 }}
          onSubmit={(e) => {
            e.preventDefault();
            signIn.mutate(token.trim(), { onSuccess: () => navigate(next, { replace: true }) });
          }}
        >
          <Field label="API token" hint="A token of the form svc_pat_<id>_<secret>" required>
            <Input type="password" value={token} onChange={(_, d) => setToken(d.value)} autoFocus={!idp} autoComplete="off" name="token" />
          </Field>
          {signIn.isError && <ErrorMessage error={signIn.error} title="Sign-in refused" />}
          <Button appearance={idp ? 'secondary' : 'primary'} type="submit" disabled={!token.trim() || signIn.isPending}>
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
        <Text size={200}>Sessions last a working day; sign out from the account menu.</Text>
      </div>
    </div>
  );
}
