import { lazy, type ComponentType } from 'react';
import type { ItemType } from '../api/types';
import type { EditorProps } from './types';

// Editors are loaded only when an item is opened, so they stay out of the first page's JavaScript.
const Notebook = lazy(() => import('./NotebookEditor'));
const KqlSchema = lazy(() => import('./KqlSchemaEditor'));
const Sql = lazy(() => import('./SqlEditor'));
export const JsonEditor = lazy(() => import('./JsonEditor'));

/** The editor of each kind an item type may name (GET /api/item-types `editor`), and its tab; 'json' has the JSON editor alone. */
const EDITORS: Record<Exclude<ItemType['editor'], 'json'>, { tab: string; Editor: ComponentType<EditorProps> }> = {
  cells: { tab: 'Cells', Editor: Notebook },
  'kql-schema': { tab: 'Schema', Editor: KqlSchema },
  sql: { tab: 'SQL', Editor: Sql },
};

/** The editor the service names for an item type and the name of its tab, or undefined when JSON is the editor. */
export function editorFor(type: ItemType | undefined): { tab: string; Editor: ComponentType<EditorProps> } | undefined {
  return !type || type.editor === 'json' ? undefined : EDITORS[type.editor];
}
