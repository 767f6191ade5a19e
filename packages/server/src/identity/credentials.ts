import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { Db } from '../store/db.js';
import type { StoreRow } from '../store/schema.js';
import { expiryAlert, type ExpiryAlert } from './secret-alerts.js';
import { storableInstant } from '../values.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';

/** A service-principal credential registered by metadata: never the secret value. */
export interface Credential {
  id: string;
  displayName: string;
  clientId: string;
  keyId: string;
  expiresAt: string;
  vaultSecretName?: string;
  consumers: string[];
  createdAt: string;
  updatedAt: string;
}

export interface CredentialAlert extends ExpiryAlert {
  credentialId: string;
  displayName: string;
  clientId: string;
  keyId: string;
  expiresAt: string;
  message: string;
}

const toCredential = (r: StoreRow<'identity_credentials'>): Credential => ({
  id: r.id,
  displayName: r.display_name,
  clientId: r.client_id,
  keyId: r.key_id,
  expiresAt: r.expires_at.toISOString(),
  ...(r.vault_secret ? { vaultSecretName: r.vault_secret } : {}),
  consumers: r.consumers ?? [],
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** Registered credentials and their expiry alerts (90, 30, 7 days); a cache of every tenant's serves /metrics. */
export class CredentialRegistry {
  private cache: Array<Credential & { tenantId: string }> = [];

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
    private readonly tenancy: TenancyService,
  ) {}

  /** Loads every tenant's credentials for the metrics gauge. */
  async load(): Promise<void> {
    const rows = await this.db.selectFrom('identity_credentials').selectAll().execute();
    this.cache = rows.map((r) => ({ ...toCredential(r), tenantId: r.tenant_id }));
  }

  /** Registers a credential of an app registration (and vault secret) the operator assigned to the tenant; 404 for another. */
  async register(
    caller: Caller,
    input: { displayName: string; clientId: string; keyId: string; expiresAt: string; vaultSecretName?: string; consumers?: string[] },
  ): Promise<Credential> {
    const expiresAt = storableInstant(input.expiresAt, 'expiresAt');
    await this.tenancy.requireApplication(caller, input.clientId, input.vaultSecretName);
    const at = this.now().toISOString();
    const row = await this.db
      .insertInto('identity_credentials')
      .values({
        id: randomUUID(),
        tenant_id: caller.tenantId,
        display_name: input.displayName,
        client_id: input.clientId.toLowerCase(),
        application_id: null,
        key_id: input.keyId,
        expires_at: expiresAt.toISOString(),
        vault_secret: input.vaultSecretName ?? null,
        consumers: JSON.stringify(input.consumers ?? []),
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row)
      throw new ConflictError(`Key ${input.keyId} of client ${input.clientId} is already registered`, 'duplicate_credential', 'keyId');
    await this.load();
    return toCredential(row);
  }

  async list(caller: Caller): Promise<Credential[]> {
    const rows = await this.db
      .selectFrom('identity_credentials')
      .selectAll()
      .where('tenant_id', '=', caller.tenantId)
      .orderBy('expires_at')
      .orderBy('id')
      .execute();
    return rows.map(toCredential);
  }

  async get(caller: Caller, id: string): Promise<Credential> {
    const row = await this.db
      .selectFrom('identity_credentials')
      .selectAll()
      .where('tenant_id', '=', caller.tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Credential', id);
    return toCredential(row);
  }

  /** Points the registration at the new key after a rotation deleted the old one. */
  async replaceKey(caller: Caller, id: string, keyId: string, expiresAt: string): Promise<void> {
    await this.db
      .updateTable('identity_credentials')
      .set({ key_id: keyId, expires_at: expiresAt, updated_at: this.now().toISOString() })
      .where('tenant_id', '=', caller.tenantId)
      .where('id', '=', id)
      .execute();
    await this.load();
  }

  async remove(caller: Caller, id: string): Promise<void> {
    const r = await this.db
      .deleteFrom('identity_credentials')
      .where('tenant_id', '=', caller.tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!r.numDeletedRows) throw new NotFoundError('Credential', id);
    await this.load();
  }

  /** The alerts of the caller's tenant at the service's clock, most urgent first. */
  async alerts(caller: Caller): Promise<CredentialAlert[]> {
    return alertsOf(await this.list(caller), this.now());
  }

  /** Every tenant's credentials from the cache (the metrics gauges read it at scrape time). */
  cached(): Credential[] {
    return this.cache;
  }
}

function alertsOf(creds: Credential[], now: Date): CredentialAlert[] {
  const out: CredentialAlert[] = [];
  for (const c of creds) {
    const a = expiryAlert(new Date(c.expiresAt), now);
    if (!a) continue;
    const message =
      a.level === 'expired'
        ? `The secret ${c.keyId} of ${c.displayName} (${c.clientId}) expired on ${c.expiresAt}: rotate it now`
        : `The secret ${c.keyId} of ${c.displayName} (${c.clientId}) expires in ${a.daysRemaining} days (${c.expiresAt}): rotate it`;
    out.push({
      ...a,
      credentialId: c.id,
      displayName: c.displayName,
      clientId: c.clientId,
      keyId: c.keyId,
      expiresAt: c.expiresAt,
      message,
    });
  }
  return out.sort((x, y) => Date.parse(x.expiresAt) - Date.parse(y.expiresAt));
}
