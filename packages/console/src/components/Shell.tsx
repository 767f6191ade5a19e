import { useEffect, useRef, useState } from 'react';
import { Button, makeStyles, Text, tokens, useId } from '@fluentui/react-components';
import {
  Apps20Regular,
  Dismiss20Regular,
  Navigation20Regular,
  DocumentTable20Regular,
  Folder20Regular,
  History20Regular,
  Key20Regular,
  Shield20Regular,
  ShieldKeyhole20Regular,
} from '@fluentui/react-icons';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { useIsAdmin } from '../api/identity';
import { CloudBadge } from './CloudBadge';
import { ExpiryBanner } from './ExpiryBanner';
import { JobsTray } from './JobsTray';
import { JobNotifications } from './JobNotifications';
import { OfflineBanner } from './OfflineBanner';
import { ThemeMenu } from './ThemeMenu';
import { UserMenu } from './UserMenu';

// Below this width the navigation leaves the page's side and opens from a button in the brand bar.
const NARROW = '@media (max-width: 899px)';

const useStyles = makeStyles({
  root: {
    display: 'grid',
    gridTemplateRows: '48px minmax(0, 1fr)',
    gridTemplateColumns: '200px minmax(0, 1fr)',
    height: '100%',
    [NARROW]: { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  header: {
    gridColumn: '1 / -1',
    display: 'flex',
    alignItems: 'center',
    gap: '12px',
    minWidth: 0,
    padding: '0 8px 0 16px',
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    [NARROW]: { gap: '4px', padding: '0 4px 0 4px' },
  },
  menuButton: { display: 'none', [NARROW]: { display: 'inline-flex' } },
  product: {
    color: 'inherit',
    textDecoration: 'none',
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase400,
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    minWidth: '3em',
    flexShrink: 1,
    ':hover': { color: 'inherit' },
  },
  spacer: { flexGrow: 1 },
  // The header's controls never shrink below their content: the product name gives way first.
  tools: { display: 'flex', alignItems: 'center', gap: '4px', flexShrink: 0 },
  nav: {
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    padding: '12px 8px',
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    overflowY: 'auto',
    backgroundColor: tokens.colorNeutralBackground2,
    [NARROW]: { display: 'none' },
  },
  // The open navigation on a narrow window: over the page, below the brand bar.
  navOpen: {
    [NARROW]: {
      display: 'flex',
      position: 'fixed',
      top: '48px',
      left: 0,
      bottom: 0,
      width: '240px',
      zIndex: 20,
      boxShadow: tokens.shadow16,
    },
  },
  scrim: {
    display: 'none',
    [NARROW]: { display: 'block', position: 'fixed', inset: '48px 0 0 0', zIndex: 19, backgroundColor: tokens.colorBackgroundOverlay },
  },
  link: {
    display: 'flex',
    alignItems: 'center',
    gap: '8px',
    padding: '8px 10px',
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover, color: tokens.colorNeutralForeground1 },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '1px' },
  },
  // The current page: a brand bar at the link's start; the text keeps the neutral colour, which has enough contrast
  // on the selected background in both themes (the brand foreground has 4.17:1 in the dark theme).
  active: {
    backgroundColor: tokens.colorNeutralBackground1Selected,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground1Selected,
    boxShadow: `inset 3px 0 0 ${tokens.colorCompoundBrandStroke}`,
    ':hover': { color: tokens.colorNeutralForeground1Selected },
  },
  main: { overflow: 'auto', padding: '20px 28px', minWidth: 0, [NARROW]: { padding: '16px' } },
  skip: {
    position: 'absolute',
    left: '-9999px',
    ':focus': { left: '8px', top: '8px', zIndex: 30, background: tokens.colorNeutralBackground1, padding: '8px' },
  },
});

/** The frame of every signed-in page: brand bar, cloud, jobs tray, theme, account; navigation on the left (a drawer when narrow). */
export function Shell() {
  const s = useStyles();
  const toasterId = useId('toaster');
  const isAdmin = useIsAdmin();
  const location = useLocation();
  const [navOpen, setNavOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);
  const cls = ({ isActive }: { isActive: boolean }) => (isActive ? `${s.link} ${s.active}` : s.link);

  // A page chosen in the drawer closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation, not on what it reads
  useEffect(() => setNavOpen(false), [location.pathname]);
  // Opened by keyboard or pointer, the drawer takes focus so its first link is one Tab away.
  useEffect(() => {
    if (navOpen) nav.current?.querySelector('a')?.focus();
  }, [navOpen]);
  const closeNav = () => {
    setNavOpen(false);
    menuButton.current?.focus();
  };

  return (
    <div className={s.root}>
      <a href="#main" className={s.skip}>
        Skip to content
      </a>
      <header className={s.header}>
        <Button
          ref={menuButton}
          className={s.menuButton}
          // Inline, so the transparent button's hover colour (brand blue) never hides it on the brand bar.
          style={{ color: 'inherit' }}
          appearance="transparent"
          icon={navOpen ? <Dismiss20Regular /> : <Navigation20Regular />}
          aria-label="Navigation"
          aria-expanded={navOpen}
          aria-controls="main-nav"
          data-testid="nav-button"
          onClick={() => setNavOpen((o) => !o)}
        />
        <NavLink to="/workspaces" className={s.product}>
          Analytics Workspace
        </NavLink>
        <CloudBadge />
        <span className={s.spacer} />
        <div className={s.tools}>
          <JobsTray />
          <ThemeMenu />
          <UserMenu />
        </div>
      </header>
      {navOpen && <div className={s.scrim} onClick={() => setNavOpen(false)} aria-hidden />}
      <nav
        id="main-nav"
        ref={nav}
        className={navOpen ? `${s.nav} ${s.navOpen}` : s.nav}
        aria-label="Main"
        onKeyDown={(e) => {
          if (e.key === 'Escape' && navOpen) closeNav();
        }}
      >
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
