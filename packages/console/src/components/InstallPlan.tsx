import { Badge, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { AppDetail } from '../api/types';
import { ItemTypeIcon } from './ItemTypeIcon';

const useStyles = makeStyles({
  list: {
    display: 'grid',
    gap: '2px',
    maxHeight: '260px',
    overflowY: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: '4px 8px',
  },
  row: { display: 'grid', gridTemplateColumns: '20px minmax(0, 1fr) auto', gap: '8px', alignItems: 'center', padding: '4px 0' },
  action: { gridColumn: '2 / 4', color: tokens.colorNeutralForeground3 },
});

/** What installing the app will do, item by item, for the chosen deploy setting. */
export function InstallPlan({ app, deploy, mode }: { app: AppDetail; deploy: boolean; mode: string }) {
  const s = useStyles();
  const live = app.items.filter((i) => i.provisioning === 'live').length;
  return (
    <section aria-label="Install plan">
      <Text block weight="semibold" style={{ marginBottom: 4 }}>
        Plan
      </Text>
      <Text block size={200} style={{ marginBottom: 6 }}>
        {app.items.length} items are stored in the workspace.{' '}
        {deploy
          ? `${live} are then provisioned live in the ${mode} backing services; the rest stay stored only.`
          : 'Nothing is provisioned: deploy is off.'}
      </Text>
      <div className={s.list}>
        {app.items.map((i) => (
          <div key={i.key} className={s.row} data-testid="plan-item">
            <ItemTypeIcon itemType={i.itemType} title={i.itemType} />
            <Text truncate wrap={false}>
              {i.displayName}
            </Text>
            <Badge appearance="tint" color={i.provisioning === 'live' && deploy ? 'brand' : 'subtle'}>
              {i.provisioning === 'live' ? (deploy ? `live · ${i.backing ?? ''}` : 'live, skipped') : 'stored only'}
            </Badge>
            {deploy && i.provisioning === 'live' && (
              <Text size={200} className={s.action}>
                {i.action}
              </Text>
            )}
          </div>
        ))}
      </div>
    </section>
  );
}
