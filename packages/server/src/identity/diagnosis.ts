import type { BackingService } from '../backends/http-pipeline.js';
import { InputError } from '../errors.js';
import { PLATFORM_CALLS, roleNeeded, WORKSPACE_ROLES, type PlatformNeed } from '../provisioning/gates.js';
import { IDENTITY_TYPES, type IdentityType } from './identity-types.js';
import { ownRoleAdvice, REQUIRED_GRANTS } from './service-grants.js';

/** One row of SPEC.md's "Identity-provider and backing-API failures" table, with the actions an operator takes. */
interface Symptom {
  id: string;
  symptom: string;
  likelyCauses: string[];
  /** The identity type the symptom points at when the caller names none. */
  suggests: IdentityType;
  actions: Array<{ action: string; command: string }>;
}

const probe = { action: 'acquire a token as the failing identity and read the workspace', command: 'svc identity probe' };
const inspect = { action: 'inspect the failing token: aud, appid, oid, tid, roles and exp', command: 'svc identity inspect-token' };
// The role is the failing call's (grantAction); without the call, the required grant lists the role of each call.
const grant = {
  action: 'grant the identity the workspace role the failing call needs (see the required grant; journaled, can be rolled back)',
  command: 'svc identity grant',
};
const grantAction = (call: PlatformNeed) => ({
  ...grant,
  action: `grant the identity ${roleNeeded(call)} on the workspace (journaled, can be rolled back)`,
});
const rotate = {
  action: 'rotate the secret: new secret while the old stays valid, vault, restart consumers, verify, delete the old after 24 h',
  command: 'svc identity secrets rotate',
};
const listAssignments = { action: 'list the role assignments of the principal id on the workspace', command: 'svc identity probe' };
const lakehouse = { action: 'review the lakehouse data access roles', command: 'svc identity probe --lakehouse' };
const incident = { action: 'open an incident; its severity is computed from the recorded signals', command: 'svc identity incident open' };

const SYMPTOMS: Symptom[] = [
  {
    id: 'http-401',
    symptom: 'HTTP 401 from the data platform API',
    suggests: 'service-principal',
    likelyCauses: ['expired or rotated secret', 'identity not granted', 'expired token'],
    actions: [
      { action: 'check the secret expiry and rotation history of the client id', command: 'svc identity secrets list' },
      inspect,
      grant,
      probe,
    ],
  },
  {
    id: 'http-403-authorization-failed',
    symptom: 'HTTP 403 with AuthorizationFailed',
    suggests: 'workspace-identity',
    likelyCauses: ['workspace identity missing a role', 'data access roles misconfigured'],
    actions: [listAssignments, grant, lakehouse],
  },
  {
    id: 'AADSTS50076',
    symptom: 'AADSTS50076',
    suggests: 'user',
    likelyCauses: ['MFA challenge in a non-interactive job: a user principal was used where a workload identity is needed'],
    actions: [
      { action: 'replace the user in the job with a service principal or managed identity', command: 'svc identity grant' },
      inspect,
    ],
  },
  {
    id: 'AADSTS700016',
    symptom: 'AADSTS700016 or AADSTS7000215',
    suggests: 'service-principal',
    likelyCauses: ['invalid client or invalid secret: rotated or expired secret, wrong client id'],
    actions: [
      { action: 'compare the client id in the job with the app registration', command: 'svc identity secrets list' },
      rotate,
      probe,
    ],
  },
  {
    id: 'AADSTS50105',
    symptom: 'AADSTS50105',
    suggests: 'user',
    likelyCauses: ['user not assigned to the application: conditional access scope, group membership'],
    actions: [
      { action: 'assign the user (or a group holding the user) to the application', command: 'svc identity incident change' },
      probe,
    ],
  },
  {
    id: 'AADSTS53003',
    symptom: 'AADSTS53003',
    suggests: 'conditional-access',
    likelyCauses: ['blocked by conditional access, often many users at once: policy change, IP firewall, country block'],
    actions: [
      incident,
      {
        action:
          'snapshot the policy, get the identity change board’s approval (verbal for SEV1), prefer adding an exclusion over disabling the policy',
        command: 'svc identity incident change --kind conditional-access',
      },
      { action: 'check the caller’s egress address against the firewall rules', command: 'svc identity firewall check' },
    ],
  },
  {
    id: 'AADSTS500011',
    symptom: 'AADSTS500011',
    suggests: 'cross-tenant-guest',
    likelyCauses: ['resource principal not found in tenant: removed guest, broken federation'],
    actions: [
      {
        action: 'check the guest state and cross-tenant access settings; re-invite or re-consent',
        command: 'svc identity incident change',
      },
      inspect,
    ],
  },
  {
    id: 'expired_token',
    symptom: 'expired_token',
    suggests: 'user',
    likelyCauses: ['refresh token expired in a long-running job'],
    actions: [
      {
        action: 'move the long-running job to client credentials or a managed identity; re-authenticate now',
        command: 'svc identity probe --refresh-token',
      },
    ],
  },
  {
    id: 'client-ip-not-allowed',
    symptom: 'client IP not allowed',
    suggests: 'ip-firewall',
    likelyCauses: ['workspace IP firewall does not list the caller’s egress address'],
    actions: [
      { action: 'check the egress address against the rules', command: 'svc identity firewall check' },
      { action: 'add a rule for the egress address (journaled, can be rolled back)', command: 'svc identity firewall add' },
    ],
  },
];

const PLATFORM_SETTING =
  'the tenant setting "Service principals can use Fabric APIs" is enabled for the identity (or a security group holding it)';

/** The data platform's grant: the role of the failing call when it is known, else the role of each call. */
function platformGrant(call?: PlatformNeed): string {
  if (call)
    return `the identity holds ${roleNeeded(call)} or higher on the workspace (${PLATFORM_CALLS[call.call].what} needs it), and ${PLATFORM_SETTING}`;
  const byRole = WORKSPACE_ROLES.map((role) => {
    const calls = Object.values(PLATFORM_CALLS)
      .filter((c) => c.role === role)
      .map((c) => c.what);
    return `${role} for ${calls.join(', ')}`;
  });
  return `the identity holds the workspace role the failing call needs (${byRole.join('; ')}), and ${PLATFORM_SETTING}`;
}

/** Every name a backing service goes by in the API (signals, install steps, the catalog's `backing`) and the sandbox. */
const SERVICE_NAMES: Record<string, BackingService> = {
  dataplatform: 'data-platform',
  arm: 'arm',
  resourcemanager: 'arm',
  kql: 'kql',
  search: 'search',
  sql: 'sql',
  warehouse: 'sql',
  reporting: 'reporting',
  identity: 'identity',
  storage: 'storage',
  onelake: 'storage',
  synapse: 'synapse',
};

/** The backing service a name means (case, hyphens, underscores and spaces aside), or 400 naming the known names. */
function backingServiceOf(name: string): BackingService {
  const service = SERVICE_NAMES[name.toLowerCase().replace(/[-_\s]/g, '')];
  if (!service)
    throw new InputError(
      `Unknown backing service '${name}': use one of data-platform (dataPlatform), arm, kql, search, sql (warehouse), reporting, identity, storage (oneLake), synapse`,
      'service',
    );
  return service;
}

const AADSTS_ROWS: Record<string, string> = {
  AADSTS50076: 'AADSTS50076',
  AADSTS700016: 'AADSTS700016',
  AADSTS7000215: 'AADSTS700016',
  AADSTS7000222: 'AADSTS700016',
  AADSTS50105: 'AADSTS50105',
  AADSTS53003: 'AADSTS53003',
  AADSTS500011: 'AADSTS500011',
  AADSTS700082: 'expired_token',
};

/** What an operator reports: the failing answer (status, code, body) and, when known, the identity type and service. */
export interface DiagnoseInput {
  status?: number;
  code?: string;
  body?: string;
  identityType?: IdentityType;
  service?: string;
  /** The data-platform call that failed, when the caller knows it (the probes do): its role is named. */
  call?: PlatformNeed;
}

export interface Diagnosis {
  symptom: { id: string; text: string };
  matchedOn: string;
  likelyCauses: string[];
  identityType: IdentityType;
  identityTypeInferred: boolean;
  firstChecks: string[];
  actions: Array<{ action: string; command: string }>;
  requiredGrant?: string;
}

/** The AADSTS code named by a code or an Entra error body (error_codes or the description's prefix). */
function aadstsOf(input: DiagnoseInput): string | undefined {
  const fromCode =
    /AADSTS(\d{5,8})/i.exec(input.code ?? '') ?? (/^\d{5,8}$/.test(input.code ?? '') ? [`AADSTS${input.code}`, input.code!] : null);
  if (fromCode) return `AADSTS${fromCode[1]}`;
  try {
    const codes = JSON.parse(input.body ?? '')?.error_codes;
    if (Array.isArray(codes) && codes.length) return `AADSTS${codes[0]}`;
  } catch {
    /* not JSON */
  }
  const m = /AADSTS(\d{5,8})/.exec(input.body ?? '');
  return m ? `AADSTS${m[1]}` : undefined;
}

function match(input: DiagnoseInput): { row: Symptom; on: string } | undefined {
  const byId = (id: string) => SYMPTOMS.find((s) => s.id === id)!;
  const aadsts = aadstsOf(input);
  if (aadsts && AADSTS_ROWS[aadsts]) return { row: byId(AADSTS_ROWS[aadsts]!), on: aadsts };
  const text = `${input.code ?? ''} ${input.body ?? ''}`;
  if (/client ip\b.*not allowed|ClientIpNotAllowed|IpNotAllowed/i.test(text))
    return { row: byId('client-ip-not-allowed'), on: 'client IP not allowed' };
  if (/expired_token/i.test(text)) return { row: byId('expired_token'), on: 'expired_token' };
  if (input.status === 401) return { row: byId('http-401'), on: `HTTP 401${input.code ? ` ${input.code}` : ''}` };
  if (input.status === 403) return { row: byId('http-403-authorization-failed'), on: `HTTP 403${input.code ? ` ${input.code}` : ''}` };
  return undefined;
}

/** SPEC.md's likely causes, the first checks for the identity type, and the actions, for one failing answer. */
export function diagnose(input: DiagnoseInput): Diagnosis {
  if (input.status === undefined && !input.code && !input.body) throw new InputError('Give at least one of status, code or body', 'status');
  const service = input.service ? backingServiceOf(input.service) : undefined;
  const found = match(input);
  if (!found) {
    const type = input.identityType ?? 'service-principal';
    return {
      symptom: { id: 'unrecognized', text: 'not an identity failure of SPEC.md’s table' },
      matchedOn: [input.status && `HTTP ${input.status}`, input.code].filter(Boolean).join(' ') || 'body',
      likelyCauses: [
        'the answer names no identity failure (no 401/403, AADSTS code, expired_token or client IP refusal): look at the backing service itself',
      ],
      identityType: type,
      identityTypeInferred: !input.identityType,
      firstChecks: [...IDENTITY_TYPES[type].firstChecks],
      actions: [inspect, probe],
    };
  }
  const type = input.identityType ?? found.row.suggests;
  // An HTTP service's grant answers its 401/403; the identity provider's answers any of its symptoms.
  const grantText =
    !service || !(input.status === 401 || input.status === 403 || service === 'identity')
      ? undefined
      : service === 'data-platform'
        ? platformGrant(input.call)
        : REQUIRED_GRANTS[service];
  // The diagnosis follows the failing service: a service with a role of its own (search, KQL…) is granted there.
  const own =
    service && (found.row.id === 'http-401' || found.row.id === 'http-403-authorization-failed')
      ? ownRoleAdvice(service, input.status)
      : undefined;
  const actions = own
    ? found.row.actions.filter((a) => a !== lakehouse).map((a) => (a === grant ? own.assign : a === listAssignments ? own.list : a))
    : input.call
      ? found.row.actions.map((a) => (a === grant ? grantAction(input.call!) : a))
      : found.row.actions;
  return {
    symptom: { id: found.row.id, text: own?.symptom ?? found.row.symptom },
    matchedOn: found.on,
    likelyCauses: own?.likelyCauses ?? found.row.likelyCauses,
    identityType: type,
    identityTypeInferred: !input.identityType,
    firstChecks: [...IDENTITY_TYPES[type].firstChecks],
    actions,
    ...(grantText ? { requiredGrant: grantText } : {}),
  };
}
