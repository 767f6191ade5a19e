import type { SandboxIds } from '../ids.js';

export type PrincipalKind = 'managedIdentity' | 'servicePrincipal' | 'application' | 'user' | 'guest';

export interface Secret {
  keyId: string;
  hint: string;
  value: string;
  expiresAt: string;
}

/** A principal of the sandbox tenant. */
export interface Principal {
  objectId: string;
  appId?: string;
  displayName: string;
  kind: PrincipalKind;
  upn?: string;
  secrets?: Secret[];
  enabled: boolean;
  /** Users: every sign-in needs a second factor (AADSTS50076). */
  mfaRequired?: boolean;
  /** The console app: redirect URIs (any loopback address is also accepted in the sandbox). */
  redirectUris?: string[];
  /** The console app: only assigned users may sign in (AADSTS50105). */
  assignmentRequired?: boolean;
  assignedUsers?: string[];
  /** App roles granted to this principal (the `roles` claim). */
  appRoles?: string[];
  /** Directory role template ids (the `wids` claim of user tokens). */
  directoryRoles?: string[];
}

/** The Fabric Administrator directory role template. */
const FABRIC_ADMIN = 'a9ea8996-122f-4c74-9520-8edcd192826c';

/** The sandbox tenant's directory: the service identity, service principals, the console app, users and guests. */
export class Directory {
  readonly principals: Principal[];

  constructor(readonly ids: SandboxIds) {
    const mi = ids.serviceIdentity;
    const secret = (s: { appId: string; secret: string; secretExpiresAt: string }): Secret => ({
      keyId: s.appId.replace(/^(.{8}).*$/, '$1') + '-key1',
      hint: s.secret.slice(0, 3),
      value: s.secret,
      expiresAt: s.secretExpiresAt,
    });
    const userPrincipals: Principal[] = ids.users.map((u) => ({
      objectId: u.objectId,
      displayName: u.displayName,
      kind: u.kind === 'guest' ? 'guest' : 'user',
      upn: u.upn,
      enabled: true,
      mfaRequired: u.upn.startsWith('mo@'),
      ...(u.upn.startsWith('ada@') ? { directoryRoles: [FABRIC_ADMIN] } : {}),
    }));
    this.principals = [
      { objectId: mi.objectId, appId: mi.appId, displayName: mi.name, kind: 'managedIdentity', enabled: true },
      ...ids.servicePrincipals.map(
        (s): Principal => ({
          objectId: s.objectId,
          appId: s.appId,
          displayName: s.name,
          kind: 'servicePrincipal',
          enabled: true,
          secrets: [secret(s)],
          // The CI principal holds an application permission, so its tokens carry a roles claim.
          ...(s.name === 'ci-deployer' ? { appRoles: ['Tenant.Read.All'] } : {}),
        }),
      ),
      {
        objectId: ids.consoleApp.objectId,
        appId: ids.consoleApp.appId,
        displayName: ids.consoleApp.name,
        kind: 'application',
        enabled: true,
        secrets: [
          secret({
            appId: ids.consoleApp.appId,
            secret: ids.consoleApp.secret,
            secretExpiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
          }),
        ],
        redirectUris: [],
        assignmentRequired: true,
        assignedUsers: userPrincipals.filter((u) => !u.upn!.startsWith('una@')).map((u) => u.objectId),
      },
      ...userPrincipals,
    ];
  }

  get serviceIdentity(): Principal {
    return this.principals[0]!;
  }

  /** Finds a principal by object id, app id, UPN or display name (case-insensitive). */
  find(ref: string | undefined): Principal | undefined {
    if (!ref) return undefined;
    const r = ref.toLowerCase();
    return this.principals.find(
      (p) => p.objectId === r || p.appId === r || p.upn?.toLowerCase() === r || p.displayName.toLowerCase() === r,
    );
  }

  byAppId(appId: string | undefined): Principal | undefined {
    return appId ? this.principals.find((p) => p.appId === appId.toLowerCase()) : undefined;
  }

  byObjectId(oid: string | undefined): Principal | undefined {
    return oid ? this.principals.find((p) => p.objectId === oid.toLowerCase()) : undefined;
  }

  users(): Principal[] {
    return this.principals.filter((p) => p.kind === 'user' || p.kind === 'guest');
  }

  /** True for identities that sign in as an application (service principals and managed identities). */
  static isApp(p: Principal): boolean {
    return p.kind === 'managedIdentity' || p.kind === 'servicePrincipal' || p.kind === 'application';
  }

  /** The view the admin state shows: never a secret value. */
  view() {
    return this.principals.map(({ secrets, ...p }) => ({
      ...p,
      ...(secrets ? { secrets: secrets.map(({ value: _v, ...s }) => ({ ...s, expired: Date.parse(s.expiresAt) <= Date.now() })) } : {}),
    }));
  }
}
