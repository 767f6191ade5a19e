export interface PathEntry {
  isDirectory: boolean;
  lastModified: number;
  content?: Buffer;
}

/** OneLake's folders and files, per (workspace, item). */
export class OneLakeStore {
  private readonly roots = new Map<string, Map<string, PathEntry>>();
  /** The folders of soft-deleted items: in the recycle bin with their item, reachable by no path. */
  private readonly recycled = new Map<string, Map<string, PathEntry>>();

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
    const r = this.root(ws, item);
    const segs = path.split('/');
    for (let i = 1; i < segs.length; i++) {
      const parent = segs.slice(0, i).join('/');
      if (!r.has(parent)) r.set(parent, { isDirectory: true, lastModified: Date.now() });
    }
    r.set(path, entry);
  }

  /** Removes a path (and everything under it when recursive); false if it had children and recursive is off. */
  delete(ws: string, item: string, path: string, recursive: boolean): boolean {
    const r = this.root(ws, item);
    const children = [...r.keys()].filter((k) => k.startsWith(`${path}/`));
    if (children.length && !recursive) return false;
    for (const k of [path, ...children]) r.delete(k);
    return true;
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
    const prefix = dir ? `${dir}/` : '';
    return [...this.root(ws, item).entries()]
      .filter(([k]) => k.startsWith(prefix) && k !== dir && (recursive || !k.slice(prefix.length).includes('/')))
      .sort(([a], [b]) => a.localeCompare(b));
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
