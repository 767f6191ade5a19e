import { useEffect } from 'react';
import { Button, Card, Field, makeStyles, Select, Text, tokens } from '@fluentui/react-components';
import { ArrowClockwise20Regular, Wand20Regular, DocumentTable20Regular } from '@fluentui/react-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useWorkspaces } from '../api/workspaces';
import { useReports } from '../api/reports';
import { PageHeader } from '../components/PageHeader';
import { RequestState } from '../components/RequestState';
import { ReportTree } from '../components/reports/ReportTree';
import { ReportDetails } from '../components/reports/ReportDetails';
import { NewReportButton } from '../components/reports/NewReportDialog';
import { ReportingWorkspaceNote } from '../components/reports/ReportingWorkspaceNote';

const useStyles = makeStyles({
  bar: { display: 'flex', alignItems: 'end', gap: '12px', marginBottom: '16px', flexWrap: 'wrap' },
  // The tree beside the report on a wide page, above it on a narrower one (the report's tabs need the width).
  body: {
    display: 'grid',
    gridTemplateColumns: '280px minmax(0, 1fr)',
    gap: '20px',
    alignItems: 'start',
    '@media (max-width: 1199px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  side: { padding: '8px', minHeight: '200px' },
  empty: { color: tokens.colorNeutralForeground3, padding: '24px' },
});

/** The paginated report editor: a workspace, its reports in a tree, and the selected report's metadata, definition, export and data sources. */
export default function ReportsPage() {
  const s = useStyles();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const workspaces = useWorkspaces();
  const workspaceId = params.get('workspace') ?? undefined;
  const reportId = params.get('report') ?? undefined;
  const reports = useReports(workspaceId);

  // Start in the first workspace so the tree is never empty for lack of a choice.
  useEffect(() => {
    if (!workspaceId && workspaces.data?.length) setParams({ workspace: workspaces.data[0]!.id }, { replace: true });
  }, [workspaceId, workspaces.data, setParams]);

  const select = (id: string | undefined) => setParams(id ? { workspace: workspaceId!, report: id } : { workspace: workspaceId! });

  return (
    <>
      <PageHeader title="Paginated reports" icon={<DocumentTable20Regular aria-hidden />} />
      <div className={s.bar}>
        <Field label="Workspace">
          <Select
            aria-label="Workspace"
            value={workspaceId ?? ''}
            style={{ minWidth: 260 }}
            onChange={(_, d) => setParams({ workspace: d.value })}
          >
            {!workspaceId && <option value="">Choose a workspace</option>}
            {(workspaces.data ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </Select>
        </Field>
        <Button icon={<ArrowClockwise20Regular />} disabled={!workspaceId || reports.isFetching} onClick={() => void reports.refetch()}>
          {reports.isFetching ? 'Refreshing…' : 'Refresh'}
        </Button>
        {workspaceId && <NewReportButton workspaceId={workspaceId} onCreated={(id) => select(id)} />}
        {workspaceId && (
          <Button
            as="a"
            href={`/reports/design?workspace=${encodeURIComponent(workspaceId)}&new=1`}
            icon={<Wand20Regular />}
            onClick={(e) => {
              e.preventDefault();
              navigate(`/reports/design?workspace=${encodeURIComponent(workspaceId)}&new=1`);
            }}
          >
            New report in the designer
          </Button>
        )}
      </div>
      {workspaces.data?.length === 0 && (
        <Text className={s.empty}>There are no workspaces yet. Create one on the Workspaces page first.</Text>
      )}
      {workspaceId && <ReportingWorkspaceNote workspaceId={workspaceId} />}
      {workspaceId && (
        <div className={s.body}>
          <Card className={s.side} aria-label="Reports of the workspace">
            <RequestState query={reports} label="paginated reports">
              {(list) => <ReportTree reports={list} selected={reportId} onSelect={select} />}
            </RequestState>
          </Card>
          {reportId ? (
            <ReportDetails
              key={reportId}
              workspaceId={workspaceId}
              reportId={reportId}
              onGone={() => select(undefined)}
              onSelect={select}
            />
          ) : (
            <Text className={s.empty}>Choose a report in the tree to see its metadata, definition, export and data sources.</Text>
          )}
        </div>
      )}
    </>
  );
}
