import { Type, type Static } from '@sinclair/typebox';
import { part } from '../backends/data-platform.js';
import { validateNotebook } from '../catalog/validate-flows.js';
import type { TypedProvisionContext } from '../provisioning/context.js';
import { ensurePlatformItem, platformItemCalls, platformPart, type PlatformKind } from '../provisioning/platform-item.js';
import { platformLifecycle } from '../provisioning/platform-read.js';
import { Key, Name } from './content-parts.js';
import type { LiveItemType } from './descriptor.js';
import { PLATFORM_REMOVAL } from '../provisioning/remove.js';
import { notebookSynapse } from './notebook-synapse.js';

/** Notebook content: cells, the default lakehouse, and what the code reads and writes. */
export const NotebookContent = Type.Object({
  language: Type.Union([Type.Literal('python'), Type.Literal('sql')]),
  cells: Type.Array(Type.Object({ kind: Type.Union([Type.Literal('code'), Type.Literal('markdown')]), source: Name }), { minItems: 1 }),
  lakehouse: Type.Optional(Key),
  reads: Type.Optional(Type.Array(Key)),
  writes: Type.Optional(Type.Array(Key)),
});
export type NotebookContent = Static<typeof NotebookContent>;

const PLATFORM: PlatformKind = { type: 'Notebook', collection: 'notebooks' };

/** The notebook's cells in the platform's source format (notebook-content.py). */
export function notebookSource(content: { language: string; cells: Array<{ kind: string; source: string }> }, lakehouse?: string): string {
  const meta = {
    kernel_info: { name: content.language === 'sql' ? 'synapse_pyspark' : 'synapse_pyspark' },
    dependencies: lakehouse ? { lakehouse: { default_lakehouse_name: lakehouse } } : {},
  };
  const lines = [
    '# Fabric notebook source',
    '',
    '# METADATA ********************',
    '',
    ...JSON.stringify(meta, null, 2)
      .split('\n')
      .map((l) => `# META ${l}`),
    '',
  ];
  for (const cell of content.cells) {
    if (cell.kind === 'markdown') {
      lines.push('# MARKDOWN ********************', '', ...cell.source.split('\n').map((l) => `# ${l}`), '');
    } else {
      lines.push('# CELL ********************', '', content.language === 'sql' ? `%%sql\n${cell.source}` : cell.source, '');
    }
  }
  return lines.join('\n');
}

/** The definition a notebook's provisioning sends: its source and the .platform part. */
function definitionOf(ctx: TypedProvisionContext<NotebookContent>) {
  const lakehouseName = ctx.content.lakehouse ? ctx.app.items.find((i) => i.key === ctx.content.lakehouse)?.displayName : undefined;
  return {
    format: 'fabricGitSource',
    parts: [part('notebook-content.py', notebookSource(ctx.content, lakehouseName)), platformPart(ctx, 'Notebook')],
  };
}

/** notebook: POST /workspaces/{ws}/notebooks carrying its definition (SPEC.md's "then update definition" in one call); an existing one is updated when it differs. */
export const notebook: LiveItemType<'notebook', typeof NotebookContent> = {
  id: 'notebook',
  displayName: 'Notebook',
  description: 'PySpark or SQL cells run against a lakehouse',
  icon: 'Notebook',
  editor: 'cells',
  backing: 'data-platform',
  ...PLATFORM_REMOVAL,
  content: NotebookContent,
  validate: validateNotebook,
  validatesAfter: ['lakehouse', 'search-index', 'kql-database', 'eventhouse', 'eventstream', 'mirrored-database'],
  edges: { from: ['feeds', 'reads-from'], to: ['runs'] },
  dependsOn: (c) => [c.lakehouse],
  calls: () => platformItemCalls(PLATFORM, true),
  ...platformLifecycle(PLATFORM, definitionOf),
  async provision(ctx) {
    const { item, created } = await ensurePlatformItem(ctx, { ...PLATFORM, definition: definitionOf(ctx) });
    return {
      status: created ? 'created' : 'exists',
      resourceId: item.id,
      secondaryIds: { platformWorkspaceId: ctx.target.platformWorkspaceId! },
    };
  },
  alternatives: [notebookSynapse],
};
