import { Text, tokens, Tree, TreeItem, TreeItemLayout } from '@fluentui/react-components';
import { DocumentTable16Regular, Folder16Regular } from '@fluentui/react-icons';
import type { PaginatedReport } from '../../api/reports';

/** The workspace's paginated reports as a tree: one branch, a leaf per report; the selected one is marked. */
export function ReportTree({
  reports,
  selected,
  onSelect,
}: {
  reports: PaginatedReport[];
  selected?: string;
  onSelect: (id: string) => void;
}) {
  return (
    <Tree aria-label="Paginated reports" defaultOpenItems={['paginated']}>
      <TreeItem itemType="branch" value="paginated">
        <TreeItemLayout iconBefore={<Folder16Regular />}>Paginated reports ({reports.length})</TreeItemLayout>
        <Tree>
          {reports.length === 0 && (
            <TreeItem itemType="leaf" value="none">
              <TreeItemLayout>
                <Text italic>No paginated reports in this workspace</Text>
              </TreeItemLayout>
            </TreeItem>
          )}
          {reports.map((r) => (
            <TreeItem
              key={r.id}
              itemType="leaf"
              value={r.id}
              data-testid="report-leaf"
              aria-selected={r.id === selected}
              onClick={() => onSelect(r.id)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') onSelect(r.id);
              }}
              style={
                r.id === selected
                  ? { backgroundColor: tokens.colorNeutralBackground1Selected, fontWeight: tokens.fontWeightSemibold }
                  : undefined
              }
            >
              <TreeItemLayout iconBefore={<DocumentTable16Regular />}>{r.name}</TreeItemLayout>
            </TreeItem>
          ))}
        </Tree>
      </TreeItem>
    </Tree>
  );
}
