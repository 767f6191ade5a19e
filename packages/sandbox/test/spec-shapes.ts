// Response shapes held against the published descriptions: the tests' use of the conformance checker the gate shares.
import { check } from '../src/conformance/schema.js';
import { loadSpec, resolveRef, specPath, specsDir } from '../src/conformance/specs.js';

export { check };

/** The published API descriptions (Swagger 2.0): `SVC_SPECS_DIR`, else ../shared/specs beside the repository. */
export const SPECS = specsDir();

/** The response schema a spec documents for (path template, method, status), falling back to `default` for errors. */
export function responseSchema(
  specFile: string,
  template: string,
  method: string,
  status: number,
): { schema: any; file: string; documented: boolean } {
  const file = specPath(specFile);
  const op = loadSpec(file).paths?.[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`${specFile} has no ${method} ${template}`);
  const res = op.responses[String(status)] ?? (status >= 400 ? op.responses.default : undefined);
  const documented = Boolean(op.responses[String(status)]) || (status >= 400 && Boolean(op.responses.default));
  let schema = res?.schema;
  let f = file;
  if (res?.$ref) ({ schema, file: f } = resolveRef(res.$ref, file));
  return { schema: schema ?? {}, file: f, documented };
}

/** Throws when a response is not documented for the operation or its body does not have the spec's shape. */
export function assertConforms(specFile: string, template: string, method: string, res: { status: number; body: unknown }): void {
  const { schema, file, documented } = responseSchema(specFile, template, method, res.status);
  if (!documented) throw new Error(`${method} ${template}: status ${res.status} is not documented in ${specFile}`);
  const errors = check(res.body, schema, file);
  if (errors.length)
    throw new Error(
      `${method} ${template} ${res.status} does not match ${specFile}:\n  ${errors.join('\n  ')}\nbody: ${JSON.stringify(res.body).slice(0, 600)}`,
    );
}
