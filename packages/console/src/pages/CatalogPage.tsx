import { makeStyles } from '@fluentui/react-components';
import { useSearchParams } from 'react-router-dom';
import { useInstallPermission } from '../api/access';
import { useApps } from '../api/catalog';
import { AppCard } from '../components/AppCard';
import { InstallDialog } from '../components/InstallDialog';
import { PageHeader } from '../components/PageHeader';
import { RequestState } from '../components/RequestState';

const useStyles = makeStyles({ grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(320px, 1fr))', gap: '16px' } });

/** The curated apps; ?install=<appId> deep-links to the install dialog, ?workspaceId= preselects the target. */
export default function CatalogPage() {
  const s = useStyles();
  const apps = useApps();
  const permission = useInstallPermission();
  const [params, setParams] = useSearchParams();
  const installing = params.get('install');
  const setInstall = (id?: string) =>
    setParams((p) => {
      if (id) p.set('install', id);
      else p.delete('install');
      return p;
    });
  return (
    <>
      <PageHeader title="App catalog" />
      <RequestState query={apps} label="the app catalog">
        {(list) => (
          <div className={s.grid}>
            {list.map((a) => (
              <AppCard key={a.id} app={a} onInstall={() => setInstall(a.id)} permission={permission} />
            ))}
          </div>
        )}
      </RequestState>
      {installing && (
        <InstallDialog
          appId={installing}
          initialWorkspaceId={params.get('workspaceId') ?? undefined}
          onClose={() => setInstall(undefined)}
        />
      )}
    </>
  );
}
