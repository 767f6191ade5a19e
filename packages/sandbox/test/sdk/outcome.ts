/** The sandbox's addresses and ids, as the test process handed them over. */
export const urls: Record<string, string> = JSON.parse(process.env.SANDBOX_URLS!);
export const ids: any = JSON.parse(process.env.SANDBOX_IDS!);

/** Runs each scenario in turn and prints one JSON line: its result, or the name, message and details of what it threw. */
export async function report(scenarios: Record<string, () => Promise<unknown>>): Promise<void> {
  const out: Record<string, unknown> = {};
  for (const [name, run] of Object.entries(scenarios)) {
    try {
      out[name] = { ok: (await run()) ?? null };
    } catch (err) {
      const e = err as Error & Record<string, any>;
      // Azure core's RestError and identity's errors carry statusCode/code/errorResponse; axios errors (azure-kusto-data) the response.
      const response = e.response?.data !== undefined ? { status: e.response.status, data: e.response.data } : undefined;
      out[name] = {
        error: {
          name: e.name,
          message: e.message,
          constructor: e.constructor?.name,
          statusCode: e.statusCode,
          code: e.code,
          errorResponse: e.errorResponse,
          response,
        },
      };
    }
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
