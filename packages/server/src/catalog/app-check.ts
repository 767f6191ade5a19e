import { CatalogError } from './catalog-error.js';
import type { ItemTypeId } from '../item-types/index.js';
import type { CatalogItem, EdgeKind } from './types.js';

/** An edge an item's content implies; `kind` undefined accepts any kind between the two keys. */
export interface ImpliedEdge {
  from: string;
  to: string;
  kind?: EdgeKind;
  why: string;
}

/** The validation context of one app: its items by key, failure reporting, and the edges content implies. */
export class AppCheck {
  readonly implied: ImpliedEdge[] = [];

  constructor(
    readonly appId: string,
    readonly items: ReadonlyMap<string, CatalogItem>,
  ) {}

  /** Throws a CatalogError naming this app, the item and the problem. */
  fail(item: CatalogItem | string | undefined, problem: string): never {
    throw new CatalogError(this.appId, typeof item === 'string' ? item : item?.key, problem);
  }

  /** The item `key` refers to from `item`'s `field`; fails unless it exists and is one of `types`. */
  ref(item: CatalogItem, key: unknown, types: readonly ItemTypeId[], field: string): CatalogItem {
    if (typeof key !== 'string') this.fail(item, `${field} must be an item key`);
    const target = this.items.get(key);
    if (!target) this.fail(item, `${field} refers to '${key}', which is not an item of this app`);
    if (target.key === item.key) this.fail(item, `${field} refers to the item itself`);
    if (!types.includes(target.itemType))
      this.fail(item, `${field} refers to '${key}' of type ${target.itemType}; expected ${types.join(' or ')}`);
    return target;
  }

  /** Records that the thread must hold an edge `from` → `to` (of `kind`, when given). */
  imply(from: string, to: string, kind: EdgeKind | undefined, why: string): void {
    this.implied.push({ from, to, kind, why });
  }

  /** Items of one type. */
  ofType(itemType: ItemTypeId): CatalogItem[] {
    return [...this.items.values()].filter((i) => i.itemType === itemType);
  }
}

/** The first name of `names` that `text` mentions as a whole word, or undefined. */
export function firstMention(text: string, names: Iterable<string>): string | undefined {
  for (const n of names) if (new RegExp(`(?<![\\w.])${escapeRe(n)}(?![\\w])`).test(text)) return n;
  return undefined;
}

/** `s` with regular-expression metacharacters escaped. */
export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Reports the first duplicate of `values`, or undefined. */
export function firstDuplicate(values: Iterable<string>, fold = false): string | undefined {
  const seen = new Set<string>();
  for (const v of values) {
    const k = fold ? v.toLowerCase() : v;
    if (seen.has(k)) return v;
    seen.add(k);
  }
  return undefined;
}
