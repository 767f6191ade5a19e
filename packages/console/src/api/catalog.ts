import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { AppDetail, AppSummary } from './types';

export const useApps = () =>
  useQuery({
    queryKey: ['apps'],
    queryFn: async () => (await api<{ apps: AppSummary[] }>('GET', '/api/apps')).apps,
    staleTime: 10 * 60_000,
  });

export const useApp = (appId: string | undefined) =>
  useQuery({
    queryKey: ['app', appId],
    queryFn: async () => (await api<{ app: AppDetail }>('GET', `/api/apps/${appId}`)).app,
    enabled: !!appId,
    staleTime: 10 * 60_000,
  });
