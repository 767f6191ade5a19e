import { part } from '../../backends/data-platform.js';
import type { Provisioner } from '../context.js';
import { ensurePlatformItem, platformPart } from './platform-item.js';

/** The notebook's cells in the platform's source format (notebook-content.py). */
export function notebookSource(content: { language: string; cells: Array<{ kind: string; source: string }> }, lakehouse?: string): string {
  const meta = { kernel_info: { name: content.language === 'sql' ? 'synapse_pyspark' : 'synapse_pyspark' }, dependencies: lakehouse ? { lakehouse: { default_lakehouse_name: lakehouse } } : {} };
  const lines = ['# Fabric notebook source', '', '# METADATA ********************', '', ...JSON.stringify(meta, null, 2).split('\n').map((l) => `# META ${l}`), ''];
  for (const cell of content.cells) {
    if (cell.kind === 'markdown') {
      lines.push('# MARKDOWN ********************', '', ...cell.source.split('\n').map((l) => `# ${l}`), '');
    } else {
      lines.push('# CELL ********************', '', content.language === 'sql' ? `%%sql\n${cell.source}` : cell.source, '');
    }
  }
  return lines.join('\n');
}

/** notebook: POST /workspaces/{ws}/notebooks, then update definition (SPEC.md). */
export const provisionNotebook: Provisioner = async (ctx) => {
  const lakehouseName = ctx.content.lakehouse ? ctx.app.items.find((i) => i.key === ctx.content.lakehouse)?.displayName : undefined;
  const definition = { format: 'fabricGitSource', parts: [part('notebook-content.py', notebookSource(ctx.content, lakehouseName)), platformPart(ctx, 'Notebook')] };
  const { item, created } = await ensurePlatformItem(ctx, { type: 'Notebook', collection: 'notebooks', definition });
  return { status: created ? 'created' : 'exists', resourceId: item.id, secondaryIds: { platformWorkspaceId: ctx.target.platformWorkspaceId! } };
};
