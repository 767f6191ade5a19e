import { lazy, type ComponentType } from 'react';
import type { EditorProps } from './types';

// Editors are loaded only when an item is opened, so they stay out of the first page's JavaScript.
const Notebook = lazy(() => import('./NotebookEditor'));
const KqlSchema = lazy(() => import('./KqlSchemaEditor'));
const Sql = lazy(() => import('./SqlEditor'));
export const JsonEditor = lazy(() => import('./JsonEditor'));

/** The editor suited to an item type and the name of its tab, or undefined when JSON is the editor. */
export function editorFor(itemType: string): { tab: string; Editor: ComponentType<EditorProps> } | undefined {
  if (itemType === 'notebook') return { tab: 'Cells', Editor: Notebook };
  if (itemType === 'kql-database' || itemType === 'eventhouse' || itemType === 'kql-queryset') return { tab: 'Schema', Editor: KqlSchema };
  if (itemType === 'warehouse') return { tab: 'SQL', Editor: Sql };
  return undefined;
}
