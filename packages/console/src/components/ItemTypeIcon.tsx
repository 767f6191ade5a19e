import type { FluentIcon } from '@fluentui/react-icons';
import {
  Alert20Regular, Board20Regular, Bot20Regular, ChartMultiple20Regular, Database20Regular, DatabaseLightning20Regular,
  DatabaseMultiple20Regular, DatabaseSearch20Regular, DataFunnel20Regular, DataTrending20Regular, Document20Regular,
  DocumentText20Regular, Flow20Regular, Grid20Regular, HomeDatabase20Regular, Notebook20Regular, ArrowSync20Regular,
  Server20Regular, Sparkle20Regular, Target20Regular, Box20Regular, Search20Regular,
} from '@fluentui/react-icons';

const ICONS: Record<string, FluentIcon> = {
  notebook: Notebook20Regular,
  lakehouse: HomeDatabase20Regular,
  warehouse: Server20Regular,
  'kql-database': DatabaseLightning20Regular,
  'kql-queryset': DatabaseSearch20Regular,
  eventhouse: DatabaseMultiple20Regular,
  'search-index': Search20Regular,
  'semantic-model': DataTrending20Regular,
  activator: Alert20Regular,
  'data-pipeline': Flow20Regular,
  eventstream: ArrowSync20Regular,
  report: DocumentText20Regular,
  'kql-dashboard': Grid20Regular,
  'mirrored-database': Database20Regular,
  dashboard: Board20Regular,
  scorecard: Target20Regular,
  'data-product': Box20Regular,
  'prompt-flow': Sparkle20Regular,
  'dataflow-spec': DataFunnel20Regular,
  'power-bi-report': ChartMultiple20Regular,
  'data-agent': Bot20Regular,
};

/** The icon of an item type (a plain document for types it does not know). */
export function ItemTypeIcon({ itemType, title }: { itemType: string; title?: string }) {
  const Icon = ICONS[itemType] ?? Document20Regular;
  return <Icon aria-label={title} aria-hidden={title ? undefined : true} style={{ flexShrink: 0 }} />;
}
