import { sql } from 'kysely';
import type { CloudProfile } from '../cloud/profiles.js';
import { isItemTypeId } from '../item-types/index.js';
import type { LiveRecord } from '../lifecycle/item-state.js';
import type { TextRow } from '../store/text-reads.js';
import { liveView } from './live-view.js';

/**
 * A timestamp column as Date#toISOString writes it (UTC, milliseconds cut), formatted by the store: reading timestamps
 * as Dates and writing them back cost the listing more than the rest of its rows.
 */
export const isoText = (column: 'items.created_at' | 'items.updated_at') =>
  sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// The item's fields the store writes, in the response schema's order (ItemSchema), before its live record.
const HEAD: ReadonlyArray<readonly [field: string, column: string, nullable?: 'nullable']> = [
  ['id', 'id'],
  ['workspaceId', 'workspace_id'],
  ['itemType', 'item_type'],
  ['displayName', 'display_name'],
  ['description', 'description'],
  ['appId', 'app_id', 'nullable'],
  ['contentSource', 'content_source'],
];

// to_json escapes text as JSON.stringify does (quote, backslash, \b \f \n \r \t, \u00xx for the other controls). A
// column of a row without an item (the listing's left join) is null, and so is the whole text then.
const headText = HEAD.map(([field, column, nullable]) => {
  const value = nullable ? `coalesce(to_json(items.${column})::text, 'null')` : `to_json(items.${column})::text`;
  return `'${field === 'id' ? '{' : ','}"${field}":' || ${value}`;
}).join(' || ');

/**
 * A listed item's columns, all text: the item's JSON up to its live record (`head`) and from its timestamps on
 * (`tail`), written by the store; between them what the cloud decides (itemJson), from the type, the live record and
 * the content's ETag.
 */
export const ITEM_JSON_COLUMNS = [
  sql<string>`${sql.raw(headText)} || ',"provisioning":'`.as('head'),
  'items.item_type',
  sql<string>`items.provisioning::text`.as('provisioning'),
  'items.etag',
  sql<string>`',"createdAt":"' || ${isoText('items.created_at')} || '","updatedAt":"' || ${isoText('items.updated_at')} || '"}'`.as('tail'),
] as const;

/**
 * Items' JSON as the listing answers them, byte for byte what the response schema writes (items-list.test.ts): the
 * store's text around the live record and the live view. An item without a live record shows what its type alone
 * decides in this cloud, written once per type.
 */
export class ItemJson {
  private readonly unprovisioned = new Map<string, string>();

  constructor(private readonly profile: CloudProfile) {}

  /** A listed row's item (columns as ITEM_JSON_COLUMNS). */
  of(row: TextRow): string {
    const [head, itemType, provisioning, etag, tail] = row as [string, string, string | null, string, string];
    if (provisioning === null) return head + this.withoutLiveRecord(itemType) + tail;
    const live = JSON.parse(provisioning) as LiveRecord | null;
    return head + this.live(itemType, etag, live) + tail;
  }

  /** Where a listed row's item stands in the list: what a cursor after it holds. */
  position(row: TextRow): { id: string; createdAt: string } {
    return JSON.parse(`${row[0]}null${row[4]}`) as { id: string; createdAt: string };
  }

  private withoutLiveRecord(itemType: string): string {
    let text = this.unprovisioned.get(itemType);
    if (text === undefined) {
      text = this.live(itemType, '', null);
      if (isItemTypeId(itemType)) this.unprovisioned.set(itemType, text);
    }
    return text;
  }

  // The live record and the live view, from `"provisioning":` on.
  private live(itemType: string, etag: string, live: LiveRecord | null): string {
    const view = liveView(itemType, etag, live, this.profile);
    return `${JSON.stringify(live)},"liveState":${JSON.stringify(view.liveState)},"backend":${JSON.stringify(view.backend)},"portal":${JSON.stringify(view.portal)}`;
  }
}
