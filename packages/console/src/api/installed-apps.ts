import { useQuery } from '@tanstack/react-query';
import { allPages } from './client';
import type { InstalledApp } from './types';

/** The apps installed in a workspace (the page refreshes them as its install jobs move). */
export const useInstalledApps = (workspaceId: string) =>
  useQuery({
    queryKey: ['installed-apps', workspaceId],
    queryFn: () => allPages<InstalledApp>(`/api/workspaces/${workspaceId}/apps`, 'apps'),
  });
