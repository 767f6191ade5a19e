/** A broken curated app: names the app, the item (when one is at fault) and the problem. The service refuses to start on it. */
export class CatalogError extends Error {
  constructor(
    readonly appId: string,
    readonly itemKey: string | undefined,
    readonly problem: string,
  ) {
    super(`catalog app '${appId}'${itemKey ? `, item '${itemKey}'` : ''}: ${problem}`);
    this.name = 'CatalogError';
  }
}
