import { deletePath, listPaths, putPath, type PathEntry } from './tree.js';

export type { PathEntry } from './tree.js';

/** OneLake's folders and files, per (workspace, item). */
export class OneLakeStore {
  private readonly roots = new Map<string, Map<string, PathEntry>>();
  /** The folders of soft-deleted items: in the recycle bin with their item, reachable by no path. */
  private readonly recycled = new Map<string, Map<string, PathEntry>>();

  /** An item's paths, as the DFS handlers read and change them. */
  tree(ws: string, item: string): Map<string, PathEntry> {
    return this.root(ws, item);
  }

  private root(ws: string, item: string): Map<string, PathEntry> {
    const key = `${ws}/${item}`;
    let r = this.roots.get(key);
    if (!r)
      this.roots.set(
        key,
        (r = new Map([
          ['Files', { isDirectory: true, lastModified: Date.now() }],
          ['Tables', { isDirectory: true, lastModified: Date.now() }],
        ])),
      );
    return r;
  }

  get(ws: string, item: string, path: string): PathEntry | undefined {
    return this.root(ws, item).get(path);
  }

  /** Creates a path and its missing parent folders. */
  put(ws: string, item: string, path: string, entry: PathEntry): void {
    putPath(this.root(ws, item), path, entry);
  }

  /** Removes a path (and everything under it when recursive); false if it had children and recursive is off. */
  delete(ws: string, item: string, path: string, recursive: boolean): boolean {
    return deletePath(this.root(ws, item), path, recursive);
  }

  /**
   * An item's folders when the item is deleted: a soft delete takes them into the recycle bin with the item, a hard
   * delete removes them for good.
   */
  itemDeleted(ws: string, item: string, hard: boolean): void {
    const key = `${ws}/${item}`;
    const r = this.roots.get(key);
    this.roots.delete(key);
    if (hard) this.recycled.delete(key);
    else if (r) this.recycled.set(key, r);
  }

  /** Paths under a folder ('' = item root), direct children unless recursive. */
  list(ws: string, item: string, dir: string, recursive: boolean): Array<[string, PathEntry]> {
    return listPaths(this.root(ws, item), dir, recursive);
  }

  /** Tables of a lakehouse: folders directly under Tables/ (Tables/<schema>/<table> when schema-enabled). */
  tables(ws: string, item: string, schemas: boolean): string[] {
    const depth = schemas ? 3 : 2;
    return this.list(ws, item, 'Tables', true)
      .filter(([k, e]) => e.isDirectory && k.split('/').length === depth)
      .map(([k]) => k.split('/').slice(1).join('.'));
  }

  view() {
    return [...this.roots.entries()].map(([key, r]) => ({
      root: key,
      paths: [...r.keys()].filter((k) => k !== 'Files' && k !== 'Tables').sort(),
    }));
  }
}
