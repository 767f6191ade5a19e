import { backingPath, type BackingPipeline } from '../backends/http-pipeline.js';

export interface FirewallRule {
  id: string;
  name: string;
  startIpAddress: string;
  endIpAddress: string;
}

export interface RoleAssignment {
  id: string;
  principal: { id: string; type: string; displayName?: string };
  role: string;
}

/** The data platform's identity-related calls (SPEC.md): firewall rules, role assignments, workspace read, pipeline run. */
export class PlatformIdentityClient {
  constructor(private readonly pipeline: BackingPipeline, private readonly baseUrl: string, private readonly audience: string) {}

  private send(method: string, path: string, json?: unknown) {
    return this.pipeline.send({ service: 'data-platform', method, url: `${this.baseUrl}${path}`, audience: this.audience, ...(json !== undefined ? { json } : {}) });
  }

  private async all<T>(path: string): Promise<T[]> {
    const out: T[] = [];
    let url: string | undefined = `${this.baseUrl}${path}`;
    while (url) {
      const body: { value: T[]; continuationUri?: string } = (await this.pipeline.send({ service: 'data-platform', method: 'GET', url, audience: this.audience })).json();
      out.push(...body.value);
      url = body.continuationUri;
    }
    return out;
  }

  listFirewallRules(ws: string): Promise<FirewallRule[]> {
    return this.all(backingPath`/workspaces/${ws}/firewallRules`);
  }

  async addFirewallRule(ws: string, rule: Omit<FirewallRule, 'id'>): Promise<FirewallRule> {
    return (await this.send('POST', backingPath`/workspaces/${ws}/firewallRules`, rule)).json<FirewallRule>();
  }

  async deleteFirewallRule(ws: string, ruleId: string): Promise<void> {
    await this.send('DELETE', backingPath`/workspaces/${ws}/firewallRules/${ruleId}`);
  }

  listRoleAssignments(ws: string): Promise<RoleAssignment[]> {
    return this.all(backingPath`/workspaces/${ws}/roleAssignments`);
  }

  async addRoleAssignment(ws: string, principalId: string, role: string, type = 'ServicePrincipal'): Promise<RoleAssignment> {
    return (await this.send('POST', backingPath`/workspaces/${ws}/roleAssignments`, { principal: { id: principalId, type }, role })).json<RoleAssignment>();
  }

  async deleteRoleAssignment(ws: string, id: string): Promise<void> {
    await this.send('DELETE', backingPath`/workspaces/${ws}/roleAssignments/${id}`);
  }

  async getWorkspace(ws: string): Promise<{ id: string; displayName?: string }> {
    return (await this.send('GET', backingPath`/workspaces/${ws}`)).json();
  }

  /** Starts a pipeline job instance; answers the job-instance address (202 + Location). */
  async runPipeline(ws: string, pipelineId: string): Promise<{ status: number; location?: string }> {
    const res = await this.send('POST', `${backingPath`/workspaces/${ws}/items/${pipelineId}/jobs/instances`}?jobType=Pipeline`);
    return { status: res.status, location: res.headers.get('location') ?? undefined };
  }
}
