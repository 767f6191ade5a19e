import { Fragment, type ReactNode } from 'react';
import { Breadcrumb, BreadcrumbDivider, BreadcrumbItem, makeStyles, Title2, tokens } from '@fluentui/react-components';
import { Link } from 'react-router-dom';
import { useEffect } from 'react';

const useStyles = makeStyles({
  crumb: { color: tokens.colorNeutralForeground2, padding: '2px 4px', ':hover': { color: tokens.colorBrandForegroundLink } },
  head: { display: 'flex', alignItems: 'center', gap: '12px', flexWrap: 'wrap', marginBottom: '16px' },
  title: { flexGrow: 1, margin: 0, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
});

/** A page's breadcrumb, title (also the document title) and actions. */
export function PageHeader({
  title,
  crumbs = [],
  actions,
  icon,
}: {
  title: string;
  crumbs?: Array<{ to: string; label: string }>;
  actions?: ReactNode;
  icon?: ReactNode;
}) {
  const s = useStyles();
  useEffect(() => {
    document.title = `${title} · Analytics Workspace`;
  }, [title]);
  return (
    <>
      {crumbs.length > 0 && (
        <Breadcrumb aria-label="Breadcrumb" size="small">
          {crumbs.map((c, i) => (
            // A fragment, not an element: the breadcrumb's list may hold only its <li> items (axe: list).
            <Fragment key={c.to}>
              <BreadcrumbItem>
                <Link to={c.to} className={s.crumb}>
                  {c.label}
                </Link>
              </BreadcrumbItem>
              {i < crumbs.length - 1 && <BreadcrumbDivider />}
            </Fragment>
          ))}
        </Breadcrumb>
      )}
      <div className={s.head}>
        {icon}
        <Title2 as="h1" className={s.title}>
          {title}
        </Title2>
        {actions && <div className={s.actions}>{actions}</div>}
      </div>
    </>
  );
}
