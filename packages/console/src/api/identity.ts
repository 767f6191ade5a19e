import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { useWhoAmI } from './session';
import type { Answer, Body, Schema } from './schemas';

// Identity operations (SPEC.md: identity failure handling), all under /api/admin/identity/ and admin scope.
const BASE = '/api/admin/identity';

export const IDENTITY_TYPES = {
  'service-principal': 'service principal (CI/CD)',
  'workspace-identity': 'workspace identity',
  'system-assigned-managed-identity': 'system-assigned managed identity',
  'user-assigned-managed-identity': 'user-assigned managed identity',
  user: 'user (OAuth)',
  'conditional-access': 'conditional access',
  'ip-firewall': 'IP firewall',
  'cross-tenant-guest': 'cross-tenant guest',
} as const;
export type IdentityType = keyof typeof IDENTITY_TYPES;

export type IdentitySignal = Schema<'IdentitySignal'>;
export type Diagnosis = Schema<'IdentityDiagnosis'>;
export interface DiagnoseInput {
  status?: number;
  code?: string;
  body?: string;
  identityType?: IdentityType;
  service?: string;
}
export type ClaimCheck = Schema<'IdentityClaimCheck'>;
export interface TokenInspection {
  valid: boolean;
  alg?: unknown;
  claims: Record<string, unknown>;
  checks: ClaimCheck[];
}
export type ProbeResult = Schema<'IdentityProbeResult'>;
export type ProbeIdentity =
  | { kind: 'service' }
  | { kind: 'client-credentials'; tenantId?: string; clientId: string; clientSecret: string }
  | { kind: 'refresh-token'; tenantId?: string; clientId: string; refreshToken: string };
export interface ProbeRequest {
  identity: ProbeIdentity;
  workspaceId: string;
  pipelineId?: string;
  lakehouse?: { lakehouseId: string; table: string };
  identityType?: IdentityType;
}
export interface ProbeRun {
  passed: boolean;
  principal: string;
  results: ProbeResult[];
}
/** A platform workspace's firewall rule, as the service answers it. */
export type FirewallRule = Answer<'listFirewallRules'>['rules'][number];
/** A role assignment of a platform workspace, as the service answers it. */
export type RoleAssignment = Answer<'listWorkspaceRoleAssignments'>['assignments'][number];
export type IdentityChange = Schema<'IdentityChange'>;
export type Credential = Schema<'IdentityCredential'>;
export type ExpiryAlert = Schema<'IdentityAlert'>;
export type Rotation = Schema<'IdentityRotation'>;
export type Incident = Schema<'IdentityIncident'>;

/** Whether the signed-in caller holds the admin scope (identity operations need it). */
export const useIsAdmin = () => useWhoAmI().data?.scopes.includes('admin') ?? false;

const get = async <T>(path: string, key: string): Promise<T> => (await api<Record<string, T>>('GET', `${BASE}${path}`))[key]!;

export const useSignals = () =>
  useQuery({ queryKey: ['identity', 'signals'], queryFn: () => get<IdentitySignal[]>('/signals', 'signals') });

/** Expiry alerts of registered secrets (90, 30, 7 days); only asked for when the caller is an admin. */
export const useExpiryAlerts = (enabled: boolean) =>
  useQuery({
    queryKey: ['identity', 'alerts'],
    queryFn: () => get<ExpiryAlert[]>('/alerts', 'alerts'),
    enabled,
    staleTime: 60_000,
    refetchInterval: 5 * 60_000,
  });

/** A diagnosis for the query string of a step's or a probe's link; disabled until there is something to diagnose. */
export const useDiagnosis = (input: DiagnoseInput | undefined) =>
  useQuery({
    queryKey: ['identity', 'diagnose', input],
    queryFn: async () => (await api<{ diagnosis: Diagnosis }>('POST', `${BASE}/diagnose`, input)).diagnosis,
    enabled: !!input,
    staleTime: Infinity,
  });

/** Runs a probe; the secret or refresh token goes in this one request body and is kept by neither side. */
export const runProbe = (body: ProbeRequest) => api<ProbeRun>('POST', `${BASE}/probes`, body);

export const useFirewallRules = (workspaceId: string) =>
  useQuery({
    queryKey: ['identity', 'firewall', workspaceId],
    queryFn: () => get<FirewallRule[]>(`/workspaces/${encodeURIComponent(workspaceId)}/firewall-rules`, 'rules'),
    enabled: !!workspaceId,
  });

export const useRoleAssignments = (workspaceId: string) =>
  useQuery({
    queryKey: ['identity', 'roles', workspaceId],
    queryFn: () => get<RoleAssignment[]>(`/workspaces/${encodeURIComponent(workspaceId)}/role-assignments`, 'assignments'),
    enabled: !!workspaceId,
  });

export const useChanges = () =>
  useQuery({ queryKey: ['identity', 'changes'], queryFn: () => get<IdentityChange[]>('/changes', 'changes') });

/** Fixes that write the change journal: each refreshes the journal and the lists it changes. */
export const useFixes = (workspaceId: string) => {
  const qc = useQueryClient();
  const refresh = () =>
    void qc.invalidateQueries({
      queryKey: ['identity'],
      predicate: (q) => ['firewall', 'roles', 'changes', 'incidents'].includes(q.queryKey[1] as string),
    });
  const ws = `${BASE}/workspaces/${encodeURIComponent(workspaceId)}`;
  return {
    addRule: useMutation({
      mutationFn: (rule: Omit<FirewallRule, 'id'>) =>
        api<{ rule: FirewallRule; change: IdentityChange }>('POST', `${ws}/firewall-rules`, rule),
      onSuccess: refresh,
    }),
    removeRule: useMutation({
      mutationFn: (ruleId: string) => api<{ change: IdentityChange }>('DELETE', `${ws}/firewall-rules/${encodeURIComponent(ruleId)}`),
      onSuccess: refresh,
    }),
    checkEgress: useMutation({
      mutationFn: (ip: string) =>
        api<{ ip: string; allowed: boolean; allowingRules: FirewallRule[]; ruleCount: number }>(
          'GET',
          `${ws}/firewall-check?ip=${encodeURIComponent(ip)}`,
        ),
    }),
    grant: useMutation({
      mutationFn: (body: { principalId: string; role: string; principalType?: string }) =>
        api<{ assignment: RoleAssignment; change: IdentityChange }>('POST', `${ws}/role-assignments`, body),
      onSuccess: refresh,
    }),
  };
};

/** Rolls a journaled change back (performs its inverse) and refreshes what it touched. */
export const useRollbackChange = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (changeId: string) => api<{ change: IdentityChange }>('POST', `${BASE}/changes/${encodeURIComponent(changeId)}/rollback`),
    onSettled: () =>
      void qc.invalidateQueries({
        queryKey: ['identity'],
        predicate: (q) => ['firewall', 'roles', 'changes', 'incidents', 'rotations'].includes(q.queryKey[1] as string),
      }),
  });
};

export const useCredentials = () =>
  useQuery({ queryKey: ['identity', 'credentials'], queryFn: () => get<Credential[]>('/credentials', 'credentials') });
export const useRotations = () =>
  useQuery({ queryKey: ['identity', 'rotations'], queryFn: () => get<Rotation[]>('/rotations', 'rotations') });

/** Register a credential by metadata, start a rotation, run its next step, roll it back. */
export const useSecretActions = () => {
  const qc = useQueryClient();
  const refresh = () =>
    void qc.invalidateQueries({
      queryKey: ['identity'],
      predicate: (q) => ['credentials', 'rotations', 'alerts', 'changes'].includes(q.queryKey[1] as string),
    });
  return {
    register: useMutation({
      mutationFn: (body: {
        displayName: string;
        clientId: string;
        keyId: string;
        expiresAt: string;
        vaultSecretName?: string;
        consumers?: string[];
      }) => api<{ credential: Credential }>('POST', `${BASE}/credentials`, body),
      onSuccess: refresh,
    }),
    rotate: useMutation({
      mutationFn: (credentialId: string) =>
        api<{ rotation: Rotation }>('POST', `${BASE}/credentials/${encodeURIComponent(credentialId)}/rotations`, {}),
      onSuccess: refresh,
    }),
    step: useMutation({
      mutationFn: ({ rotationId, step }: { rotationId: string; step: string }) =>
        api<{ rotation: Rotation }>('POST', `${BASE}/rotations/${encodeURIComponent(rotationId)}/steps/${step}`, {}),
      onSettled: refresh,
    }),
    rollback: useMutation({
      mutationFn: (rotationId: string) =>
        api<{ rotation: Rotation }>('POST', `${BASE}/rotations/${encodeURIComponent(rotationId)}/rollback`),
      onSuccess: refresh,
    }),
  };
};

export const useIncidents = () =>
  useQuery({ queryKey: ['identity', 'incidents'], queryFn: () => get<Incident[]>('/incidents', 'incidents') });

/** Open an incident (severity computed by the service) and close one (refused until its monitoring window ends). */
export const useIncidentActions = () => {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['identity', 'incidents'] });
  return {
    open: useMutation({
      mutationFn: (body: { title: string; identityType?: IdentityType; lookbackMinutes?: number }) =>
        api<{ incident: Incident }>('POST', `${BASE}/incidents`, body),
      onSuccess: refresh,
    }),
    close: useMutation({
      mutationFn: (incidentId: string) => api<{ incident: Incident }>('POST', `${BASE}/incidents/${encodeURIComponent(incidentId)}/close`),
      onSuccess: refresh,
    }),
  };
};

export type IncidentEvent = Answer<'listIncidentEvents'>['events'][number];
export type VerifyRequest = Body<'verifyIncidentFix'>;

/** An incident's timeline; under the incidents key, so whatever refreshes the incidents refreshes it too. */
export const useIncidentEvents = (incidentId: string) =>
  useQuery({
    queryKey: ['identity', 'incidents', incidentId, 'events'],
    queryFn: () => get<IncidentEvent[]>(`/incidents/${encodeURIComponent(incidentId)}/events`, 'events'),
  });

/** An incident's workflow: approve a change, file a verbal approval's change request, snapshot a policy, record a change, verify the fix. */
export const useIncidentWorkflow = (incidentId: string) => {
  const qc = useQueryClient();
  const refresh = () =>
    void qc.invalidateQueries({ queryKey: ['identity'], predicate: (q) => ['incidents', 'changes'].includes(q.queryKey[1] as string) });
  const at = `${BASE}/incidents/${encodeURIComponent(incidentId)}`;
  return {
    approve: useMutation({
      mutationFn: (body: Body<'approveIncidentChange'>) => api<Answer<'approveIncidentChange'>>('POST', `${at}/approvals`, body),
      onSuccess: refresh,
    }),
    fileChangeRequest: useMutation({
      mutationFn: ({ approvalId, ...body }: Body<'fileChangeRequest'> & { approvalId: string }) =>
        api<Answer<'fileChangeRequest'>>('POST', `${at}/approvals/${encodeURIComponent(approvalId)}/change-request`, body),
      onSuccess: refresh,
    }),
    snapshot: useMutation({
      mutationFn: (body: Body<'snapshotPolicy'>) => api<Answer<'snapshotPolicy'>>('POST', `${at}/snapshots`, body),
      onSuccess: refresh,
    }),
    recordChange: useMutation({
      mutationFn: (body: Body<'recordIncidentChange'>) => api<Answer<'recordIncidentChange'>>('POST', `${at}/changes`, body),
      onSuccess: refresh,
    }),
    // A failed checklist is an answer too (recorded on the incident and its timeline), so refresh either way.
    verify: useMutation({
      mutationFn: (body: VerifyRequest) => api<Answer<'verifyIncidentFix'>>('POST', `${at}/verify`, body),
      onSettled: refresh,
    }),
  };
};

/** The console address of a diagnosis link the service gives (`/api/admin/identity/diagnose?…`), or undefined for any other link. */
export function consoleDiagnosisLink(link: string | undefined): string | undefined {
  const m = link ? /\/api\/admin\/identity\/diagnose\?([^\s)]+)/.exec(link) : null;
  if (!m) return undefined;
  const q = new URLSearchParams(m[1]);
  q.set('tab', 'diagnose');
  return `/identity?${q}`;
}
