import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Text,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useHealth, useSignIn, useWhoAmI } from '../api/session';
import { CloudNotice } from '../components/CloudNotice';
import { ErrorMessage } from '../components/RequestState';
import { forgetTypedToken, typedToken } from '../prerendered';
import { SignedIn } from '../signed-in-page';

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
  // Fluent's Divider look in a line of CSS (its component would join the first script for this one line).
  or: {
    display: 'grid',
    gridTemplateColumns: '1fr auto 1fr',
    alignItems: 'center',
    gap: '8px',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    '::before': { content: '""', borderTop: `1px solid ${tokens.colorNeutralStroke2}` },
    '::after': { content: '""', borderTop: `1px solid ${tokens.colorNeutralStroke2}` },
  },
});

/**
 * A sign-in the identity provider or the service refused: the service's callback sends the browser here with the
 * failure's code, message and request id in the query. Shown as text only; a link can put anything in a query.
 */
function ProviderFailure({ params }: { params: URLSearchParams }) {
  const code = params.get('error');
  if (!code || !/^[a-z0-9_]{1,64}$/.test(code)) return null;
  const message = (params.get('message') ?? '').slice(0, 600);
  const requestId = params.get('requestId')?.slice(0, 100);
  return (
    <MessageBar intent="error" layout="multiline" role="alert" data-testid="sign-in-failure">
      <MessageBarBody>
        <MessageBarTitle>Sign-in failed</MessageBarTitle>
        {message || 'The identity provider sign-in did not complete.'} <code data-testid="sign-in-failure-code">({code})</code>
        {requestId && <div>Request id: {requestId}</div>}
        <div>Try again, or sign in with an API token.</div>
      </MessageBarBody>
    </MessageBar>
  );
}

/**
 * Sign in with the cloud's identity provider (when the deployment has one configured) or with an API token
 * (svc_pat_…); either way the service keeps the session in an httpOnly cookie.
 */
export function SignInPage() {
  const s = useStyles();
  // The pages behind the session load while the user types the token (App.tsx keeps them out of the first script).
  useEffect(() => {
    void SignedIn.preload().catch(() => undefined);
  }, []);
  // What was typed into the form the service sent drawn (main.tsx), before this page took over from it.
  const [token, setToken] = useState(typedToken);
  const field = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    const carried = typedToken();
    forgetTypedToken();
    // Typing goes on at its end, where it stopped.
    if (carried) field.current?.setSelectionRange(carried.length, carried.length);
  }, []);
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
        <CloudNotice />
        <ProviderFailure params={params} />
        {params.get('ended') === '1' && (
          <MessageBar intent="info" layout="multiline" data-testid="session-ended">
            <MessageBarBody>
              <MessageBarTitle>Your session has ended</MessageBarTitle>
              It expired or its token was revoked. Sign in again to go back to the page you were on.
            </MessageBarBody>
          </MessageBar>
        )}
        {idp ? (
          <>
            <Button as="a" appearance="primary" href={`${idp.loginUrl}?returnTo=${encodeURIComponent(next)}`} data-testid="sign-in-idp">
              Sign in with {idp.name}
            </Button>
            <div className={s.or}>or</div>
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
            <Input
              ref={field}
              type="password"
              value={token}
              onChange={(_, d) => setToken(d.value)}
              autoFocus={!idp}
              autoComplete="off"
              name="token"
            />
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
