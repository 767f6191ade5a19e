import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { InstallPlanAnswer, TargetOverrides } from './types';

/** The install body a plan is asked for. */
export interface PlanRequest {
  workspaceId: string;
  deploy: boolean;
  mode: 'shared' | 'dedicated';
  targetOverrides?: TargetOverrides;
}

/** The live plan of an install body: read from the backing services when the body changes, never retried on its own. */
export const useInstallPlan = (appId: string, body: PlanRequest | undefined) =>
  useQuery({
    queryKey: ['plan', appId, body],
    queryFn: async () => (await api<{ plan: InstallPlanAnswer }>('POST', `/api/apps/${appId}/plan`, body)).plan,
    enabled: !!body?.workspaceId,
    retry: false,
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
