/** The identity types of SPEC.md's failure-handling table, with what each is used for and its first check. */
export const IDENTITY_TYPES = {
  'workspace-identity': {
    label: 'workspace identity',
    usedFor: 'shortcuts to storage, notebooks reading a secret vault, data access roles',
    firstChecks: ['role assignments of its principal id'],
  },
  'service-principal': {
    label: 'service principal (CI/CD)',
    usedFor: 'deployment automation',
    firstChecks: ['secret expiry', 'client id', 'workspace role', 'conditional-access exclusion'],
  },
  'system-assigned-managed-identity': {
    label: 'system-assigned managed identity',
    usedFor: 'function apps calling the API',
    firstChecks: ['identity enabled', 'identity granted workspace access'],
  },
  'user-assigned-managed-identity': {
    label: 'user-assigned managed identity',
    usedFor: 'VMs, logic apps, container apps',
    firstChecks: ['role assignments of its principal id'],
  },
  user: { label: 'user (OAuth)', usedFor: 'desktop and portal', firstChecks: ['token expiry', 'MFA', 'device policy'] },
  'conditional-access': {
    label: 'conditional access',
    usedFor: 'all',
    firstChecks: ['policy changes', 'sign-in log conditional-access status'],
  },
  'ip-firewall': { label: 'IP firewall', usedFor: 'workspace, tenant', firstChecks: ['current egress IP against the firewall ranges'] },
  'cross-tenant-guest': {
    label: 'cross-tenant guest',
    usedFor: 'external partners',
    firstChecks: ['guest state', 'cross-tenant access settings', 'consent'],
  },
} as const;

export type IdentityType = keyof typeof IDENTITY_TYPES;
export const IDENTITY_TYPE_NAMES = Object.keys(IDENTITY_TYPES) as IdentityType[];
