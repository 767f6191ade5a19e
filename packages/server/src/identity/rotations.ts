import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { ConflictError, InputError, NotFoundError, ServiceError } from '../errors.js';
import type { Db } from '../store/db.js';
import { backing } from '../backends/failures.js';
import type { ApplicationCredentialClient } from '../backends/graph.js';
import type { VaultClient } from '../backends/vault.js';
import type { CredentialRegistry } from './credentials.js';
import type { FixService } from './fixes.js';
import type { ChangeJournal } from './journal.js';
import { mayRun, nextStep, type RotationProgress, type RotationStep } from './rotation.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';
import { acquireToken } from '../backends/token-endpoint.js';

const CADENCE_MS = 90 * 86_400_000;

/** A rotation of one registered credential, step by step (SPEC.md, credential operations). */
export interface Rotation extends RotationProgress {
  id: string;
  credentialId: string;
  clientId: string;
  oldKeyId: string;
  newKeyId?: string;
  newExpiresAt?: string;
  vaultSecretName: string;
  vaultVersion?: string;
  previousVaultVersion?: string | null;
  consumers: string[];
  changeIds: string[];
  nextStep?: RotationStep;
  log: Array<{ at: string; step: string; detail: string }>;
  createdAt: string;
  updatedAt: string;
}

export interface RotationDeps {
  db: Db;
  credentials: CredentialRegistry;
  journal: ChangeJournal;
  fixes: FixService;
  graph?: ApplicationCredentialClient;
  vault?: VaultClient;
  tenancy: TenancyService;
  authUrl: string;
  scope: string;
  tenantId?: string;
  now: () => Date;
}

/** Runs rotations: new secret while the old stays valid, vault, consumers restarted, verified, old deleted after 24 h. */
export class RotationService {
  constructor(private readonly deps: RotationDeps) {}

  private clients() {
    const { graph, vault } = this.deps;
    if (!graph)
      throw new ServiceError(424, 'deployment_gate', 'The identity provider’s application API is not configured', {
        hint: 'set SVC_GRAPH_URL',
      });
    if (!vault) throw new ServiceError(424, 'deployment_gate', 'The secret vault is not configured', { hint: 'set SVC_VAULT_URL' });
    return { graph, vault };
  }

  /** Starts a rotation and runs its automatic steps: create the new secret, store it in the vault. */
  async start(caller: Caller, credentialId: string, input: { vaultSecretName?: string; consumers?: string[] } = {}): Promise<Rotation> {
    const { graph, vault } = this.clients();
    const cred = await this.deps.credentials.get(caller, credentialId);
    const vaultSecretName = input.vaultSecretName ?? cred.vaultSecretName;
    if (!vaultSecretName) throw new InputError('vaultSecretName is required (the credential names no vault secret)', 'vaultSecretName');
    // The app registration and the vault secret must still be the tenant's: the service's identity can change any.
    await this.deps.tenancy.requireApplication(caller, cred.clientId, vaultSecretName);
    const busy = await this.deps.db
      .selectFrom('identity_rotations')
      .select('id')
      .where('tenant_id', '=', caller.tenantId)
      .where('credential_id', '=', credentialId)
      .where('state', '=', 'in-progress')
      .executeTakeFirst();
    if (busy) throw new ConflictError(`Rotation ${busy.id} of this credential is in progress`, 'rotation_in_progress');
    const now = this.deps.now();
    const r: Rotation = {
      id: randomUUID(),
      state: 'in-progress',
      done: {},
      credentialId,
      clientId: cred.clientId,
      oldKeyId: cred.keyId,
      vaultSecretName,
      consumers: input.consumers ?? cred.consumers,
      changeIds: [],
      log: [],
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    // The new secret's value passes from the identity provider to the vault and is never kept.
    const created = await backing(() =>
      graph.addPassword(cred.clientId, `rotated ${now.toISOString().slice(0, 10)}`, new Date(now.getTime() + CADENCE_MS)),
    );
    r.newKeyId = created.keyId;
    r.newExpiresAt = created.endDateTime;
    r.changeIds.push(
      (
        await this.deps.journal.record(caller, {
          kind: 'secret-added',
          summary: `added secret ${created.keyId} to ${cred.clientId} (old ${cred.keyId} stays valid)`,
          target: { clientId: cred.clientId, keyId: created.keyId },
          inverse: { kind: 'remove-password', clientId: cred.clientId, keyId: created.keyId },
        })
      ).id,
    );
    this.mark(r, 'create-new-secret', `secret ${created.keyId} created, valid until ${created.endDateTime}; ${cred.keyId} stays valid`);
    const previous = await backing(() => vault.get(vaultSecretName));
    const stored = await backing(() =>
      vault.set(vaultSecretName, created.secretText ?? '', { clientId: cred.clientId, keyId: created.keyId }),
    );
    r.vaultVersion = stored.version;
    r.previousVaultVersion = previous?.version ?? null;
    r.changeIds.push(
      (
        await this.deps.journal.record(caller, {
          kind: 'vault-secret-set',
          summary: `stored the new secret as ${vaultSecretName} version ${stored.version}`,
          target: { secretName: vaultSecretName, version: stored.version },
          inverse: { kind: 'restore-vault-version', secretName: vaultSecretName, version: r.previousVaultVersion },
        })
      ).id,
    );
    this.mark(r, 'store-in-vault', `stored in the vault as ${vaultSecretName} version ${stored.version}`);
    await this.deps.db
      .insertInto('identity_rotations')
      .values({
        id: r.id,
        tenant_id: caller.tenantId,
        credential_id: credentialId,
        state: r.state,
        data: JSON.stringify(r),
        created_at: r.createdAt,
        updated_at: r.updatedAt,
      })
      .execute();
    return { ...r, nextStep: nextStep(r) };
  }

  async get(caller: Caller, id: string): Promise<Rotation> {
    const row = await this.deps.db
      .selectFrom('identity_rotations')
      .select(['data', 'state'])
      .where('tenant_id', '=', caller.tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Rotation', id);
    const r = row.data;
    return { ...r, nextStep: r.state === 'in-progress' ? nextStep(r) : undefined };
  }

  /** The tenant's rotations, newest first; of one credential when `credentialId` is given. */
  async list(caller: Caller, credentialId?: string): Promise<Rotation[]> {
    // An unknown credential (or another tenant's) is 404, as for its own routes, never an empty list.
    if (credentialId) await this.deps.credentials.get(caller, credentialId);
    let q = this.deps.db.selectFrom('identity_rotations').select('data').where('tenant_id', '=', caller.tenantId);
    if (credentialId) q = q.where('credential_id', '=', credentialId);
    const rows = await q.orderBy('created_at', 'desc').orderBy('id').execute();
    return rows.map(({ data: r }) => ({ ...r, nextStep: r.state === 'in-progress' ? nextStep(r) : undefined }));
  }

  /** Runs one of the operator-driven steps: restart-consumers, verify, delete-old-secret. */
  async step(caller: Caller, id: string, step: RotationStep, input: { consumers?: string[] } = {}): Promise<Rotation> {
    const r = await this.get(caller, id);
    const now = this.deps.now();
    const allowed = mayRun(r, step, now);
    if (!allowed.ok)
      throw new ConflictError(
        `Cannot ${step} yet: ${allowed.reason}`,
        step === 'delete-old-secret' && allowed.retryAt ? 'overlap_not_over' : 'rotation_step_refused',
      );
    const { graph, vault } = this.clients();
    await this.deps.tenancy.requireApplication(caller, r.clientId, r.vaultSecretName);
    if (step === 'restart-consumers') {
      const consumers = input.consumers ?? r.consumers;
      this.mark(r, step, consumers.length ? `consumers restarted: ${consumers.join(', ')}` : 'no cached consumers registered');
    } else if (step === 'verify') {
      const tenantId = this.deps.tenantId;
      if (!tenantId) throw new InputError('The deployment has no SVC_TENANT_ID to verify against', 'tenantId');
      const secret = await backing(() => vault.get(r.vaultSecretName));
      const t = await acquireToken({
        authUrl: this.deps.authUrl,
        tenantId,
        clientId: r.clientId,
        scope: this.deps.scope,
        clientSecret: secret?.value ?? '',
      });
      if (!t.ok) {
        r.log.push({ at: now.toISOString(), step, detail: `verification failed: ${t.code ?? t.status} ${t.description ?? ''}`.trim() });
        await this.save(caller, r);
        throw new ServiceError(
          502,
          'verification_failed',
          `The new secret did not obtain a token: ${t.description ?? t.code ?? t.status}`,
          { hint: 'the old secret stays valid; roll the rotation back or fix and verify again' },
        );
      }
      this.mark(r, step, `token issued with the vault’s version ${secret!.version}`);
    } else if (step === 'delete-old-secret') {
      await backing(() => graph.removePassword(r.clientId, r.oldKeyId));
      await this.deps.credentials.replaceKey(caller, r.credentialId, r.newKeyId!, r.newExpiresAt!);
      this.mark(
        r,
        step,
        `old secret ${r.oldKeyId} deleted after ${Math.round((now.getTime() - Date.parse(r.done['create-new-secret']!)) / 3_600_000)} h of overlap`,
      );
      r.state = 'completed';
    } else {
      throw new ConflictError(`${step} runs when the rotation starts`, 'rotation_step_refused');
    }
    await this.save(caller, r);
    return { ...r, nextStep: r.state === 'in-progress' ? nextStep(r) : undefined };
  }

  /** Rolls back a rotation that has not deleted the old secret: the new secret removed, the vault's previous version back. */
  async rollback(caller: Caller, id: string): Promise<Rotation> {
    const r = await this.get(caller, id);
    if (r.state !== 'in-progress') throw new ConflictError(`The rotation is ${r.state}`, 'rotation_step_refused');
    for (const changeId of [...r.changeIds].reverse()) await this.deps.fixes.rollback(caller, changeId);
    r.state = 'rolled-back';
    r.log.push({
      at: this.deps.now().toISOString(),
      step: 'rollback',
      detail: `new secret ${r.newKeyId} removed; vault back to ${r.previousVaultVersion ?? 'no version'}`,
    });
    await this.save(caller, r);
    return r;
  }

  private mark(r: Rotation, step: RotationStep, detail: string) {
    const at = this.deps.now().toISOString();
    r.done[step] = at;
    r.log.push({ at, step, detail });
    r.updatedAt = at;
  }

  private async save(caller: Caller, r: Rotation) {
    const { nextStep: _n, ...data } = r;
    await this.deps.db
      .updateTable('identity_rotations')
      .set({ state: r.state, data: JSON.stringify(data), updated_at: this.deps.now().toISOString() })
      .where('tenant_id', '=', caller.tenantId)
      .where('id', '=', r.id)
      .execute();
  }
}
