import type { SynapseArtifact } from '../backends/synapse.js';
import type { StepContext, TypedProvisionContext } from '../provisioning/context.js';
import {
  canonical,
  ensureArtifact,
  ensureCalls,
  onSynapse,
  readCall,
  removeArtifact,
  removeCalls,
  sparkPool,
  synapseName,
  synapseWorkspace,
} from '../provisioning/synapse-artifact.js';
import type { LiveBackend, LiveParts } from './descriptor.js';
import type { NotebookContent } from './notebook.js';

/** A cell's source as Jupyter keeps it: its lines, each but the last with its newline. */
const lines = (text: string) => text.split(/(?<=\n)/);

/** The Spark session a notebook asks of its pool: the Small node size (4 cores, 28 GB), two executors. */
const SESSION = { driverMemory: '28g', driverCores: 4, executorMemory: '28g', executorCores: 4, numExecutors: 2 };

/** The Synapse name of a notebook item of the step's app: its display name under the tenant's prefix. */
export const synapseNotebookName = (ctx: StepContext, displayName = ctx.item.displayName) => synapseName(ctx, displayName);

/** The notebook as the artifacts API takes it (ipynb-shaped properties, attached to the target's Spark pool). */
export function notebookProperties(ctx: TypedProvisionContext<NotebookContent>): Record<string, unknown> {
  const c = ctx.content;
  const sql = c.language === 'sql';
  return {
    ...(ctx.item.description ? { description: ctx.item.description } : {}),
    bigDataPool: { type: 'BigDataPoolReference', referenceName: sparkPool(ctx) },
    sessionProperties: SESSION,
    metadata: {
      kernelspec: { name: 'synapse_pyspark', display_name: 'Synapse PySpark' },
      language_info: { name: sql ? 'sql' : 'python' },
    },
    nbformat: 4,
    nbformat_minor: 2,
    cells: c.cells.map((cell) =>
      cell.kind === 'markdown'
        ? { cell_type: 'markdown', metadata: {}, source: lines(cell.source) }
        : { cell_type: 'code', metadata: {}, source: lines(sql ? `%%sql\n${cell.source}` : cell.source), outputs: [] },
    ),
  };
}

/** What plan and drift compare: the cells (type and text), the kernel and the Spark pool. */
function partsOf(properties: Record<string, unknown>): LiveParts {
  const p = properties as {
    cells?: Array<{ cell_type?: string; source?: string[] | string }>;
    metadata?: { kernelspec?: { name?: string }; language_info?: { name?: string } };
    bigDataPool?: { referenceName?: string } | null;
  };
  const cells = (p.cells ?? []).map((c) => ({ type: c.cell_type, source: Array.isArray(c.source) ? c.source.join('') : (c.source ?? '') }));
  return {
    cells: canonical(cells),
    kernel: `${p.metadata?.kernelspec?.name ?? ''} ${p.metadata?.language_info?.name ?? ''}`.trim(),
    bigDataPool: p.bigDataPool?.referenceName ?? '',
  };
}

const sameParts = (a: LiveParts, b: LiveParts) => canonical(a) === canonical(b);

/**
 * notebook → a Synapse notebook (artifacts API): PUT /notebooks/{name}, long-running, created or updated in place,
 * `exists` when it already holds the cells.
 */
export const notebookSynapse: LiveBackend<NotebookContent> = {
  backing: 'synapse',
  calls: () => ensureCalls('notebooks'),
  async provision(ctx) {
    const name = synapseNotebookName(ctx);
    const properties = notebookProperties(ctx);
    const want = partsOf(properties);
    const { created } = await ensureArtifact(ctx, 'notebooks', name, properties, (live) => sameParts(partsOf(live.properties), want));
    return {
      status: created ? 'created' : 'exists',
      resourceId: name,
      secondaryIds: { synapseWorkspace: synapseWorkspace(ctx), sparkPool: sparkPool(ctx) },
    };
  },
  desired: async (ctx) => partsOf(notebookProperties(ctx)),
  async readLive(ctx) {
    const ws = synapseWorkspace(ctx);
    const name = synapseNotebookName(ctx);
    const live: SynapseArtifact | undefined = await onSynapse(ctx, () => ctx.backends.synapse.get(ws, 'notebooks', name));
    return live ? { resourceId: name, secondaryIds: { synapseWorkspace: ws }, parts: partsOf(live.properties) } : undefined;
  },
  readCalls: () => [readCall('notebooks')],
  remove: (ctx, resourceId) => removeArtifact(ctx, 'notebooks', resourceId),
  removeCalls: () => removeCalls('notebooks'),
};
