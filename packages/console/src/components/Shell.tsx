import { makeStyles, Text, tokens, useId } from '@fluentui/react-components';
import {
  Apps20Regular,
  DocumentTable20Regular,
  Folder20Regular,
  History20Regular,
  Key20Regular,
  Shield20Regular,
  ShieldKeyhole20Regular,
} from '@fluentui/react-icons';
import { NavLink, Outlet } from 'react-router-dom';
import { useIsAdmin } from '../api/identity';
import { CloudBadge } from './CloudBadge';
import { ExpiryBanner } from './ExpiryBanner';
import { JobsTray } from './JobsTray';
import { JobNotifications } from './JobNotifications';
import { OfflineBanner } from './OfflineBanner';
import { UserMenu } from './UserMenu';

const useStyles = makeStyles({
  root: { display: 'grid', gridTemplateRows: '48px 1fr', gridTemplateColumns: '200px 1fr', height: '100%', minWidth: '1024px' },
  header: {
    gridColumn: '1 / 3',
    display: 'flex',
    alignItems: 'center',
    gap: '16px',
    padding: '0 12px 0 16px',
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
  },
  product: { color: 'inherit', textDecoration: 'none', fontWeight: tokens.fontWeightSemibold, fontSize: tokens.fontSizeBase400 },
  spacer: { flexGrow: 1 },
  nav: {
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    padding: '12px 8px',
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    backgroundColor: tokens.colorNeutralBackground2,
  },
  link: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    padding: '8px 10px',
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '1px' },
  },
  active: {
    backgroundColor: tokens.colorNeutralBackground1Selected,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorBrandForeground1,
  },
  main: { overflow: 'auto', padding: '20px 28px', minWidth: 0 },
  skip: {
    position: 'absolute',
    left: '-9999px',
    ':focus': { left: '8px', top: '8px', zIndex: 10, background: tokens.colorNeutralBackground1, padding: '8px' },
  },
});

/** The frame of every signed-in page: brand bar, cloud, jobs tray, account; navigation on the left. */
export function Shell() {
  const s = useStyles();
  const toasterId = useId('toaster');
  const isAdmin = useIsAdmin();
  const cls = ({ isActive }: { isActive: boolean }) => (isActive ? `${s.link} ${s.active}` : s.link);
  return (
    <div className={s.root}>
      <a href="#main" className={s.skip}>
        Skip to content
      </a>
      <header className={s.header}>
        <NavLink to="/workspaces" className={s.product}>
          Analytics Workspace
        </NavLink>
        <CloudBadge />
        <span className={s.spacer} />
        <JobsTray />
        <UserMenu />
      </header>
      <nav className={s.nav} aria-label="Main">
        <NavLink to="/workspaces" className={cls}>
          <Folder20Regular aria-hidden />
          Workspaces
        </NavLink>
        <NavLink to="/apps" className={cls}>
          <Apps20Regular aria-hidden />
          App catalog
        </NavLink>
        <NavLink to="/jobs" className={cls}>
          <History20Regular aria-hidden />
          Install jobs
        </NavLink>
        <NavLink to="/reports" className={cls}>
          <DocumentTable20Regular aria-hidden />
          Paginated reports
        </NavLink>
        <NavLink to="/tokens" className={cls}>
          <Key20Regular aria-hidden />
          API tokens
        </NavLink>
        {isAdmin && (
          <NavLink to="/identity" className={cls}>
            <ShieldKeyhole20Regular aria-hidden />
            Identity
          </NavLink>
        )}
        {isAdmin && (
          <NavLink to="/audit" className={cls}>
            <Shield20Regular aria-hidden />
            Audit
          </NavLink>
        )}
        <Text size={200} style={{ marginTop: 'auto', padding: 8, color: tokens.colorNeutralForeground3 }}>
          Analytics Workspace Service
        </Text>
      </nav>
      <main id="main" className={s.main} tabIndex={-1}>
        <OfflineBanner />
        <ExpiryBanner />
        <Outlet />
      </main>
      <JobNotifications toasterId={toasterId} />
    </div>
  );
}
