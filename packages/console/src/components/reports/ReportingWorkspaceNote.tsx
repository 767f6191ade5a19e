import { Text, tokens } from '@fluentui/react-components';
import { useReportingWorkspace } from '../../api/reports';

/**
 * Which reporting workspace holds a workspace's reports, and why: the workspace's own platform binding, or, for an
 * unbound one, the tenant's default platform workspace (the service's rule, reports/report-service.ts).
 */
export function ReportingWorkspaceNote({ workspaceId }: { workspaceId: string }) {
  const where = useReportingWorkspace(workspaceId).data;
  if (!where) return null;
  return (
    <Text block size={200} data-testid="reporting-workspace" style={{ color: tokens.colorNeutralForeground2, marginBottom: 12 }}>
      {where.source === 'binding' ? (
        <>
          Reports of this workspace live in its bound platform workspace <code>{where.id}</code>.
        </>
      ) : (
        <>
          This workspace has no platform binding, so its reports live in the tenant’s default reporting workspace <code>{where.id}</code>{' '}
          (for the default tenant the SVC_DEFAULT_PLATFORM_WORKSPACE setting, for another tenant the first platform workspace the operator
          assigned to it). Bind the workspace to a platform workspace to use another.
        </>
      )}
    </Text>
  );
}
