import { useState } from 'react';
import { Text } from '@fluentui/react-components';
import { Wand20Regular } from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { saveDefinition, useDefinition, useReportMutations } from '../api/reports';
import { PageHeader } from '../components/PageHeader';
import { RequestState } from '../components/RequestState';
import { Designer } from '../designer/Designer';
import { NewReportStart } from '../designer/NewReportStart';
import type { PublishState } from '../designer/PublishBar';

/** A publish's refusal as the designer shows it. */
function outcome(err: unknown): PublishState {
  if (err instanceof ApiError && err.code === 'etag_mismatch') return { kind: 'conflict' };
  if (err instanceof ApiError && err.status === 400) return { kind: 'invalid', message: err.message };
  return { kind: 'error', error: err };
}

/** The report designer: an existing report's definition (`?report=`), or a new report (`?new=1`), in a workspace. */
export default function ReportDesignerPage() {
  const [params] = useSearchParams();
  const workspaceId = params.get('workspace') ?? '';
  const reportId = params.get('report') ?? undefined;
  const crumbs = [
    {
      to: `/reports?workspace=${encodeURIComponent(workspaceId)}${reportId ? `&report=${encodeURIComponent(reportId)}` : ''}`,
      label: 'Paginated reports',
    },
  ];
  if (!workspaceId) return <Text>Open the designer from the Paginated reports page (a workspace is needed).</Text>;
  return reportId ? (
    <Existing workspaceId={workspaceId} reportId={reportId} crumbs={crumbs} />
  ) : (
    <New workspaceId={workspaceId} crumbs={crumbs} />
  );
}

function Existing({
  workspaceId,
  reportId,
  crumbs,
}: {
  workspaceId: string;
  reportId: string;
  crumbs: Array<{ to: string; label: string }>;
}) {
  const def = useDefinition(workspaceId, reportId);
  const qc = useQueryClient();
  return (
    <RequestState query={def} label="the report's definition">
      {(d) => {
        let etag = d.etag;
        const publish = async (text: string, overwrite: boolean): Promise<PublishState> => {
          try {
            const r = await saveDefinition(workspaceId, reportId, text, overwrite ? '*' : etag);
            etag = r.etag;
            qc.setQueryData(['report-definition', workspaceId, reportId], { ...d, definition: text, etag: r.etag, report: r.report });
            void qc.invalidateQueries({ queryKey: ['report', workspaceId, reportId] });
            void qc.invalidateQueries({ queryKey: ['reports', workspaceId] });
            return { kind: 'published', at: new Date() };
          } catch (err) {
            return outcome(err);
          }
        };
        return (
          <>
            <PageHeader title={`Design: ${d.report.name}`} crumbs={crumbs} icon={<Wand20Regular aria-hidden />} />
            <Designer
              key={reportId}
              workspaceId={workspaceId}
              initial={d.definition}
              report={d.report}
              name={d.report.name}
              publish={publish}
            />
          </>
        );
      }}
    </RequestState>
  );
}

function New({ workspaceId, crumbs }: { workspaceId: string; crumbs: Array<{ to: string; label: string }> }) {
  const [draft, setDraft] = useState<{ name: string; text: string } | null>(null);
  const { publish } = useReportMutations(workspaceId);
  const navigate = useNavigate();
  const create = async (text: string): Promise<PublishState> => {
    try {
      const r = await publish.mutateAsync({ name: draft!.name, definition: text });
      // The published report opens as an existing one: its definition, its ETag for the next publish.
      navigate(`/reports/design?workspace=${encodeURIComponent(workspaceId)}&report=${encodeURIComponent(r.id)}`, { replace: true });
      return { kind: 'published', at: new Date() };
    } catch (err) {
      return outcome(err);
    }
  };
  return (
    <>
      <PageHeader title={draft ? `Design: ${draft.name} (new)` : 'New report'} crumbs={crumbs} icon={<Wand20Regular aria-hidden />} />
      {draft ? (
        <Designer workspaceId={workspaceId} initial={draft.text} name={draft.name} publish={create} />
      ) : (
        <NewReportStart workspaceId={workspaceId} onStart={(name, text) => setDraft({ name, text })} />
      )}
    </>
  );
}
