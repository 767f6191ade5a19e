import { isIPv4 } from 'node:net';
import type { Caller } from '../auth/caller.js';
import type { CloudProfile } from '../cloud/profiles.js';
import { InputError } from '../errors.js';
import { backing } from '../backends/failures.js';
import { WORKSPACE_ROLES, type PlatformNeed, type WorkspaceRole } from '../provisioning/gates.js';
import type { ApplicationCredentialClient } from '../backends/graph.js';
import type { VaultClient } from '../backends/vault.js';
import { rulesAllowing } from './firewall.js';
import type { Change, ChangeJournal, Inverse } from './journal.js';
import type { DataPlatformClient, FirewallRule } from '../backends/data-platform.js';
import type { TenancyService } from '../tenancy/tenancy-service.js';

/** The workspace role a string names, if it names one. */
const workspaceRole = (role: string | undefined): WorkspaceRole | undefined => WORKSPACE_ROLES.find((r) => r === role);

export interface FixDeps {
  profile: CloudProfile;
  platform: DataPlatformClient;
  journal: ChangeJournal;
  graph?: ApplicationCredentialClient;
  vault?: VaultClient;
  tenancy: TenancyService;
}

/** Fixes with rollback: firewall rules and workspace role grants, each journaled with its inverse. */
export class FixService {
  constructor(private readonly deps: FixDeps) {}

  /** A data-platform call as the service identity: its 401/403 is the gate naming the role or setting the call needs. */
  private platformCall<T>(need: PlatformNeed, fn: () => Promise<T>): Promise<T> {
    return backing(fn, { profile: this.deps.profile, gates: { platform: need } });
  }

  listFirewallRules(workspaceId: string): Promise<FirewallRule[]> {
    return this.platformCall({ call: 'firewall-rules', workspaceId }, () => this.deps.platform.listFirewallRules(workspaceId));
  }

  /** Whether the egress address is inside a rule's range, and which rules allow it. */
  async checkEgress(workspaceId: string, ip: string) {
    if (!isIPv4(ip)) throw new InputError('ip must be an IPv4 address', 'ip');
    const rules = await this.listFirewallRules(workspaceId);
    const allowing = rulesAllowing(rules, ip);
    return { ip, allowed: allowing.length > 0, allowingRules: allowing, ruleCount: rules.length };
  }

  async addFirewallRule(
    caller: Caller,
    workspaceId: string,
    rule: { name: string; startIpAddress: string; endIpAddress: string },
    incidentId?: string,
  ): Promise<{ rule: FirewallRule; change: Change }> {
    for (const f of ['startIpAddress', 'endIpAddress'] as const)
      if (!isIPv4(rule[f])) throw new InputError(`${f} must be an IPv4 address`, f);
    await this.deps.journal.requireIncident(caller, incidentId); // before the backing change, which could not be journaled after
    const created = await this.platformCall({ call: 'firewall-rules', workspaceId }, () =>
      this.deps.platform.addFirewallRule(workspaceId, rule),
    );
    const change = await this.deps.journal.record(caller, {
      kind: 'firewall-rule-added',
      summary: `added firewall rule ${rule.name} (${rule.startIpAddress}-${rule.endIpAddress}) on workspace ${workspaceId}`,
      target: { workspaceId, rule: created },
      inverse: { kind: 'delete-firewall-rule', workspaceId, ruleId: created.id },
      incidentId,
    });
    return { rule: created, change };
  }

  async removeFirewallRule(caller: Caller, workspaceId: string, ruleId: string, incidentId?: string): Promise<{ change: Change }> {
    await this.deps.journal.requireIncident(caller, incidentId);
    const rule = (await this.listFirewallRules(workspaceId)).find((r) => r.id === ruleId);
    if (!rule) throw new InputError(`No firewall rule '${ruleId}' on workspace ${workspaceId}`, 'ruleId');
    await this.platformCall({ call: 'firewall-rules', workspaceId }, () => this.deps.platform.deleteFirewallRule(workspaceId, ruleId));
    const change = await this.deps.journal.record(caller, {
      kind: 'firewall-rule-removed',
      summary: `removed firewall rule ${rule.name} from workspace ${workspaceId}`,
      target: { workspaceId, rule },
      inverse: {
        kind: 'add-firewall-rule',
        workspaceId,
        name: rule.name,
        startIpAddress: rule.startIpAddress,
        endIpAddress: rule.endIpAddress,
      },
      incidentId,
    });
    return { change };
  }

  async grantRole(
    caller: Caller,
    workspaceId: string,
    input: { principalId: string; role: string; principalType?: string },
    incidentId?: string,
  ) {
    await this.deps.journal.requireIncident(caller, incidentId);
    const need: PlatformNeed = { call: 'grant-role', role: workspaceRole(input.role), workspaceId };
    const assignment = await this.platformCall(need, () =>
      this.deps.platform.addRoleAssignment(workspaceId, input.principalId, input.role, input.principalType ?? 'ServicePrincipal'),
    );
    const change = await this.deps.journal.record(caller, {
      kind: 'role-assigned',
      summary: `granted ${input.role} on workspace ${workspaceId} to ${input.principalId}`,
      target: { workspaceId, assignment },
      inverse: { kind: 'delete-role-assignment', workspaceId, assignmentId: assignment.id },
      incidentId,
    });
    return { assignment, change };
  }

  listRoleAssignments(workspaceId: string) {
    return this.platformCall({ call: 'list-role-assignments', workspaceId }, () => this.deps.platform.listRoleAssignments(workspaceId));
  }

  /** Performs a change's inverse, then marks it rolled back. */
  async rollback(caller: Caller, changeId: string): Promise<Change> {
    const change = await this.deps.journal.get(caller, changeId);
    if (change.state !== 'applied') return this.deps.journal.markRolledBack(caller, changeId); // answers 409
    // The platform workspace may have been taken from the tenant since the change: then it is not the tenant's to touch.
    if ('workspaceId' in change.inverse) await this.deps.tenancy.requirePlatformWorkspace(caller, change.inverse.workspaceId);
    if ('clientId' in change.inverse) await this.deps.tenancy.requireApplication(caller, change.inverse.clientId);
    if ('secretName' in change.inverse) await this.deps.tenancy.requireVaultSecret(caller, change.inverse.secretName);
    await this.perform(change);
    return this.deps.journal.markRolledBack(caller, changeId);
  }

  private async perform(change: Change): Promise<void> {
    const { platform, graph, vault } = this.deps;
    const inv: Inverse = change.inverse;
    switch (inv.kind) {
      case 'delete-firewall-rule':
        return this.platformCall({ call: 'firewall-rules', workspaceId: inv.workspaceId }, () =>
          platform.deleteFirewallRule(inv.workspaceId, inv.ruleId),
        );
      case 'add-firewall-rule':
        await this.platformCall({ call: 'firewall-rules', workspaceId: inv.workspaceId }, () =>
          platform.addFirewallRule(inv.workspaceId, { name: inv.name, startIpAddress: inv.startIpAddress, endIpAddress: inv.endIpAddress }),
        );
        return;
      case 'delete-role-assignment': {
        // Removing an Admin's assignment needs Admin: the role is the one the journaled grant made.
        const role = workspaceRole((change.target.assignment as { role?: string } | undefined)?.role);
        return this.platformCall({ call: 'remove-role-assignment', role, workspaceId: inv.workspaceId }, () =>
          platform.deleteRoleAssignment(inv.workspaceId, inv.assignmentId),
        );
      }
      case 'remove-password':
        if (!graph) throw new InputError('The identity provider’s application API is not configured (SVC_GRAPH_URL)', 'changeId');
        return backing(() => graph.removePassword(inv.clientId, inv.keyId));
      case 'restore-vault-version': {
        if (!vault) throw new InputError('The secret vault is not configured (SVC_VAULT_URL)', 'changeId');
        if (!inv.version) return; // there was no earlier version to go back to
        const previous = await backing(() => vault.get(inv.secretName, inv.version!));
        if (previous) await backing(() => vault.set(inv.secretName, previous.value, { restoredFrom: inv.version! }));
        return;
      }
      case 'restore-policy-snapshot':
        // Conditional-access policies are edited outside the service; the snapshot is handed back for re-application.
        return;
    }
  }
}
