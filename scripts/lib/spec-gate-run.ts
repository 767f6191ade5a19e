// What the spec gate has the service do against the sandbox: install every catalog app and install it again, then run
// the paginated-report operations (list, get, export one) and the identity operations (probes, diagnosis, the
// firewall and role-assignment reads) once. Every call goes to a real service process over HTTP, and every backing
// call it makes goes to the sandbox over sockets, so the sandbox's request log holds exactly what the service sends.

export interface Api {
  (method: string, url: string, body?: unknown): Promise<{ status: number; body: any }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An API client of the service at `base` with a bearer token. */
export function apiClient(base: string, token: string): Api {
  return async (method, url, body) => {
    const r = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* a file */
    }
    return { status: r.status, body: parsed };
  };
}

const expectOk = (what: string, r: { status: number; body: any }, ...ok: number[]) => {
  if (!(ok.length ? ok : [200]).includes(r.status)) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`);
  return r.body;
};

/** Installs an app into a new service workspace and waits for the job to end; answers its status and outcome. */
export async function installApp(
  api: Api,
  appId: string,
  workspaceName: string,
  timeoutMs = 180_000,
): Promise<{ status: string; outcome?: string; steps: number; workspaceId: string; backends: string[] }> {
  const ws = expectOk('create workspace', await api('POST', '/api/workspaces', { name: workspaceName }), 201).workspace.id as string;
  const { jobId } = expectOk(`install ${appId}`, await api('POST', `/api/apps/${appId}/install`, { workspaceId: ws }), 202);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = expectOk(`job ${jobId}`, await api('GET', `/api/apps/install-jobs/${jobId}`)).job;
    if (job.status !== 'running') {
      const steps = (job.provision?.steps ?? []) as Array<{ result: { backend?: string } }>;
      const backends = [...new Set(steps.map((s) => s.result.backend ?? '?'))].sort();
      return { status: job.status, outcome: job.provision?.outcome ?? job.outcome, steps: steps.length, workspaceId: ws, backends };
    }
    if (Date.now() > deadline) throw new Error(`install of ${appId} did not end within ${timeoutMs} ms`);
    await sleep(200);
  }
}

/** Lists the paginated reports of a workspace, gets one and exports it to PDF (polled to the file). */
export async function reportOperations(api: Api, workspaceId: string): Promise<string> {
  const base = '/api/items/paginated-report';
  const q = `workspaceId=${encodeURIComponent(workspaceId)}`;
  const reports = expectOk('list paginated reports', await api('GET', `${base}?${q}`)).reports as Array<{ id: string; name: string }>;
  if (!reports.length) throw new Error('no paginated report to get and export');
  // The sandbox's seeded "Sales by Region" takes one required parameter, as in the reports tests.
  const first = reports.find((r) => r.name === 'Sales by Region') ?? reports[0]!;
  expectOk('get paginated report', await api('GET', `${base}/${first.id}?${q}`));
  const parameterValues = first.name === 'Sales by Region' ? [{ name: 'Region', value: 'West' }] : [];
  let job = expectOk('export', await api('POST', `${base}/${first.id}/exports?${q}`, { format: 'PDF', parameterValues }), 202).export;
  const deadline = Date.now() + 60_000;
  while (!['Succeeded', 'Failed'].includes(job.status)) {
    if (Date.now() > deadline) throw new Error('the export did not finish in a minute');
    await sleep(250);
    job = expectOk('export status', await api('GET', `${base}/${first.id}/exports/${encodeURIComponent(job.id)}?${q}`)).export;
  }
  if (job.status === 'Succeeded')
    expectOk('export file', await api('GET', `${base}/${first.id}/exports/${encodeURIComponent(job.id)}/file?${q}`));
  return `${reports.length} reports listed, "${first.name}" read and exported (${job.status})`;
}

/** The identity operations: probes as the service identity, a diagnosis, the firewall and role-assignment reads. */
export async function identityOperations(api: Api, platformWorkspaceId: string): Promise<string> {
  const probes = expectOk(
    'probes',
    await api('POST', '/api/admin/identity/probes', { identity: { kind: 'service' }, workspaceId: platformWorkspaceId }),
  );
  expectOk('diagnose', await api('GET', '/api/admin/identity/diagnose?status=403&service=data-platform'));
  const ws = `/api/admin/identity/workspaces/${platformWorkspaceId}`;
  expectOk('firewall rules', await api('GET', `${ws}/firewall-rules`));
  expectOk('firewall check', await api('GET', `${ws}/firewall-check?ip=203.0.113.7`));
  expectOk('role assignments', await api('GET', `${ws}/role-assignments`));
  const results = (probes.results ?? []) as Array<{ check: string; ok: boolean }>;
  return `probes ${results.map((r) => `${r.check} ${r.ok ? 'ok' : 'failed'}`).join(', ')}; diagnosis, firewall rules and check, role assignments read`;
}

/** Waits for a lifecycle job (GET /api/jobs/{id}) to end; answers its status. */
async function jobEnd(api: Api, jobId: string, timeoutMs = 180_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = expectOk(`job ${jobId}`, await api('GET', `/api/jobs/${jobId}`)).job;
    if (job.status !== 'running') return job.status as string;
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not end within ${timeoutMs} ms`);
    await sleep(200);
  }
}

/**
 * The lifecycle after install, on each installed app: the uninstall plan, a drift check of its workspace, then the
 * uninstall with purgeData (every live resource deleted), so that the reads and deletes of every backend are logged too.
 */
export async function lifecycleOperations(api: Api, installed: Array<{ appId: string; workspaceId: string }>): Promise<string> {
  const ends: string[] = [];
  for (const { appId, workspaceId } of installed) {
    expectOk('uninstall plan', await api('POST', `/api/apps/${appId}/plan`, { workspaceId, operation: 'uninstall', purgeData: true }));
    const drift = expectOk('drift', await api('POST', `/api/workspaces/${workspaceId}/drift`), 202);
    ends.push(`drift ${await jobEnd(api, drift.job.id)}`);
    const un = expectOk('uninstall', await api('DELETE', `/api/workspaces/${workspaceId}/apps/${appId}?purgeData=true`), 202);
    ends.push(`uninstall ${await jobEnd(api, un.job.id)}`);
  }
  const counts = ends.reduce<Record<string, number>>((n, e) => ({ ...n, [e]: (n[e] ?? 0) + 1 }), {});
  return Object.entries(counts)
    .map(([e, n]) => `${n} ${e}`)
    .join(', ');
}
