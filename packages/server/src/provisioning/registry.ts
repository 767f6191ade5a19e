import type { Provisioner } from './context.js';
import { boundItemKeys } from '../catalog/bindings.js';
import { provisionActivator } from './provisioners/activator.js';
import { provisionDataPipeline } from './provisioners/data-pipeline.js';
import { provisionEventstream } from './provisioners/eventstream.js';
import { provisionKqlDashboard } from './provisioners/kql-dashboard.js';
import { provisionKqlDatabase, provisionKqlQueryset } from './provisioners/kql-database.js';
import { provisionLakehouse } from './provisioners/lakehouse.js';
import { provisionMirroredDatabase } from './provisioners/mirrored-database.js';
import { provisionNotebook } from './provisioners/notebook.js';
import { provisionReport } from './provisioners/report.js';
import { provisionSearchIndex } from './provisioners/search-index.js';
import { provisionSemanticModel } from './provisioners/semantic-model.js';
import { provisionWarehouse } from './provisioners/warehouse.js';

/** The one map from live item type to its provisioner. */
export const PROVISIONERS: Readonly<Record<string, Provisioner>> = {
  notebook: provisionNotebook,
  lakehouse: provisionLakehouse,
  warehouse: provisionWarehouse,
  'kql-database': provisionKqlDatabase,
  eventhouse: provisionKqlDatabase,
  'kql-queryset': provisionKqlQueryset,
  'search-index': provisionSearchIndex,
  'semantic-model': provisionSemanticModel,
  activator: provisionActivator,
  'data-pipeline': provisionDataPipeline,
  eventstream: provisionEventstream,
  'kql-dashboard': provisionKqlDashboard,
  'mirrored-database': provisionMirroredDatabase,
  report: provisionReport,
};

/** Keys of other items an item's provisioning needs first: those its content references or binds with ${item:<key>.…}. */
export function dependenciesOf(itemType: string, content: any): string[] {
  const refs: string[] = [];
  switch (itemType) {
    case 'activator': case 'semantic-model': refs.push(content.source); break;
    case 'eventstream': refs.push(content.destination?.database ?? content.destination?.lakehouse); break;
    case 'kql-queryset': case 'kql-dashboard': refs.push(content.database); break;
    case 'notebook': refs.push(content.lakehouse); break;
    case 'report': refs.push(content.semanticModel); break;
    // Its dbt views read lakehouse tables across databases: the lakehouse (and its SQL endpoint) must exist first.
    case 'warehouse': refs.push(...Object.values((content.sources ?? {}) as Record<string, { lakehouse?: string }>).flatMap((s) => (s.lakehouse ? [s.lakehouse] : []))); break;
  }
  return [...new Set([...refs.filter(Boolean), ...boundItemKeys(content)])];
}
