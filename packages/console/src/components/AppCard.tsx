import { Badge, Card, CardFooter, CardHeader, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Link } from 'react-router-dom';
import type { Permission } from '../api/access';
import { GuardedButton } from './GuardedButton';
import type { AppSummary } from '../api/types';

const useStyles = makeStyles({
  card: { display: 'grid', gridTemplateRows: 'auto 1fr auto auto', gap: '10px' },
  chips: { display: 'flex', flexWrap: 'wrap', gap: '4px', alignItems: 'center' },
  label: { color: tokens.colorNeutralForeground3, marginRight: '4px' },
});

/** A catalog app: what it is for and what installing it creates, live or stored only. */
export function AppCard({ app, onInstall, permission }: { app: AppSummary; onInstall: () => void; permission: Permission }) {
  const s = useStyles();
  return (
    <Card className={s.card} data-testid="app-card" data-app={app.id}>
      <CardHeader
        header={
          <Link to={`/apps/${app.id}`}>
            <Text weight="semibold" size={400}>
              {app.displayName}
            </Text>
          </Link>
        }
        description={
          <Text size={200}>
            {app.totalItems} items · {app.liveItems} live · {app.storedItems} stored only
          </Text>
        }
      />
      <Text size={300}>{app.summary}</Text>
      <div style={{ display: 'grid', gap: 6 }}>
        <div className={s.chips}>
          <Text size={200} className={s.label}>
            Live
          </Text>
          {app.liveTypes.map((t) => (
            <Badge key={t} appearance="tint" color="brand">
              {t}
            </Badge>
          ))}
        </div>
        <div className={s.chips}>
          <Text size={200} className={s.label}>
            Stored
          </Text>
          {app.storedTypes.length ? (
            app.storedTypes.map((t) => (
              <Badge key={t} appearance="tint" color="informative">
                {t}
              </Badge>
            ))
          ) : (
            <Text size={200}>none</Text>
          )}
        </div>
      </div>
      <CardFooter>
        <GuardedButton appearance="primary" onClick={onInstall} aria-label={`Install ${app.displayName}`} permission={permission}>
          Install
        </GuardedButton>
      </CardFooter>
    </Card>
  );
}
