import { key, type Transport } from '../transport.js';
import type { AppDetail, AppSummary } from '../types.js';

/** The app catalog. */
export function catalogApi(t: Transport) {
  return {
    listApps: () => t.run('listApps', (i) => t.api.GET('/api/apps', i), key<AppSummary[]>('apps')),
    getApp: (appId: string) =>
      t.run('getApp', (i) => t.api.GET('/api/apps/{appId}', { ...i, params: { path: { appId } } }), key<AppDetail>('app')),
  };
}
