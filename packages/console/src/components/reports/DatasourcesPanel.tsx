import { useState } from 'react';
import { Card, Field, Input, Text, tokens } from '@fluentui/react-components';
import { Save20Regular } from '@fluentui/react-icons';
import { useCanOn } from '../../api/access';
import { useDatasources, useReportMutations, type ReportDatasource } from '../../api/reports';
import { GuardedButton } from '../GuardedButton';
import { ErrorMessage, RequestState } from '../RequestState';

/** The report's data sources, and rebinding one to another server or database (same type only, as the reporting service allows). */
export function DatasourcesPanel({ workspaceId, reportId }: { workspaceId: string; reportId: string }) {
  const list = useDatasources(workspaceId, reportId);
  return (
    <section aria-label="Data sources" style={{ display: 'grid', gap: 12 }}>
      <Text size={200} style={{ color: tokens.colorNeutralForeground3 }}>
        The reporting service rebinds only the server and database of a data source, keeps its type, and refuses ODBC sources.
      </Text>
      <RequestState query={list} label="data sources">
        {(sources) =>
          sources.length === 0 ? (
            <Text>The report declares no data sources.</Text>
          ) : (
            <>
              {sources.map((d, i) => (
                <Source key={d.datasourceId ?? d.name ?? i} workspaceId={workspaceId} reportId={reportId} source={d} />
              ))}
            </>
          )
        }
      </RequestState>
    </section>
  );
}

function Source({ workspaceId, reportId, source }: { workspaceId: string; reportId: string; source: ReportDatasource }) {
  const m = useReportMutations(workspaceId);
  const allow = useCanOn(workspaceId);
  const [server, setServer] = useState(source.connectionDetails.server ?? '');
  const [database, setDatabase] = useState(source.connectionDetails.database ?? '');
  const changed = server !== (source.connectionDetails.server ?? '') || database !== (source.connectionDetails.database ?? '');
  const save = () =>
    m.rebind.mutate({
      reportId,
      updateDetails: [
        { datasourceName: source.name ?? '', connectionDetails: { ...(server ? { server } : {}), ...(database ? { database } : {}) } },
      ],
    });
  return (
    <Card aria-label={`Data source ${source.name ?? ''}`} data-testid="datasource">
      <Text weight="semibold">
        {source.name ?? '(unnamed)'} · {source.datasourceType ?? 'unknown type'}
      </Text>
      <Text size={200}>
        Data source id {source.datasourceId ?? '—'}
        {source.gatewayId ? ` · gateway ${source.gatewayId}` : ''}
      </Text>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr auto', gap: 12, alignItems: 'end' }}>
        <Field label="Server">
          <Input value={server} onChange={(_, d) => setServer(d.value)} />
        </Field>
        <Field label="Database">
          <Input value={database} onChange={(_, d) => setDatabase(d.value)} />
        </Field>
        <GuardedButton
          icon={<Save20Regular />}
          appearance="primary"
          disabled={!changed || !source.name || m.rebind.isPending}
          permission={allow('report.datasources')}
          onClick={save}
        >
          {m.rebind.isPending ? 'Rebinding…' : 'Rebind'}
        </GuardedButton>
      </div>
      {m.rebind.error ? <ErrorMessage error={m.rebind.error} title="The reporting service refused the rebind" /> : null}
    </Card>
  );
}
