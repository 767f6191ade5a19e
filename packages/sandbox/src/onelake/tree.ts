/** A path of a DFS filesystem: a directory or a file with its bytes. */
export interface PathEntry {
  isDirectory: boolean;
  lastModified: number;
  content?: Buffer;
}

/** A filesystem's paths by name ('dir/sub/file.csv'), as one DFS namespace holds them. */
export type PathTree = Map<string, PathEntry>;

/** Creates a path and its missing parent folders. */
export function putPath(tree: PathTree, path: string, entry: PathEntry): void {
  const segs = path.split('/');
  for (let i = 1; i < segs.length; i++) {
    const parent = segs.slice(0, i).join('/');
    if (!tree.has(parent)) tree.set(parent, { isDirectory: true, lastModified: Date.now() });
  }
  tree.set(path, entry);
}

/** Removes a path (and everything under it when recursive); false if it had children and recursive is off. */
export function deletePath(tree: PathTree, path: string, recursive: boolean): boolean {
  const children = [...tree.keys()].filter((k) => k.startsWith(`${path}/`));
  if (children.length && !recursive) return false;
  for (const k of [path, ...children]) tree.delete(k);
  return true;
}

/** Paths under a folder ('' = the root), direct children unless recursive, sorted by name. */
export function listPaths(tree: PathTree, dir: string, recursive: boolean): Array<[string, PathEntry]> {
  const prefix = dir ? `${dir}/` : '';
  return [...tree.entries()]
    .filter(([k]) => k.startsWith(prefix) && k !== dir && (recursive || !k.slice(prefix.length).includes('/')))
    .sort(([a], [b]) => a.localeCompare(b));
}
