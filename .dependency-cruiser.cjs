/**
 * The layering rule (DESIGN.md, "Layout"), checked in CI by `npm run check:layers`:
 * no import cycles at run time; the service's domain folders import neither Fastify nor the HTTP edge;
 * the sandbox never imports the service; the service imports the sandbox only in main.ts.
 */
const SERVER = '^packages/server/src/';
const EDGE = `${SERVER}(http/|web/|openapi/|app\\.ts$|main\\.ts$|.*(/routes/|/routes\\.ts$|-routes\\.ts$))`;
const ROUTE_SCHEMAS = `${SERVER}[\\w-]+/schemas\\.ts$`;

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'modules that load each other cannot be read or tested one at a time (a cycle through a type-only import loads nothing)',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'domain-not-fastify',
      severity: 'error',
      comment: 'the domain never imports Fastify: only the HTTP edge does',
      from: { path: SERVER, pathNot: [EDGE, ROUTE_SCHEMAS] },
      to: { path: '^(fastify|@fastify/)|(^|/)node_modules/(fastify|@fastify/)' },
    },
    {
      name: 'domain-not-edge',
      severity: 'error',
      comment: 'domain code imports neither http/, route files nor route schemas',
      from: { path: SERVER, pathNot: [EDGE, ROUTE_SCHEMAS] },
      to: { path: [EDGE, ROUTE_SCHEMAS] },
    },
    {
      name: 'route-schemas-only-http-schemas',
      severity: 'error',
      comment: "a domain's route schemas may import http/schemas.ts and nothing else of the edge",
      from: { path: ROUTE_SCHEMAS },
      to: { path: `${SERVER}http/`, pathNot: `${SERVER}http/schemas\\.ts$` },
    },
    {
      name: 'sandbox-not-server',
      severity: 'error',
      comment: 'the sandbox stands for the real services and knows nothing of the service',
      from: { path: '^packages/sandbox/src/' },
      to: { path: '^packages/(server|console|client)/' },
    },
    {
      name: 'server-sandbox-only-in-main',
      severity: 'error',
      comment: 'the service reaches the sandbox over sockets; only main.ts starts it for the embedded default',
      from: { path: SERVER, pathNot: `${SERVER}main\\.ts$` },
      to: { path: '^packages/sandbox/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
    exclude: { path: '(^|/)(node_modules|dist|generated)/' },
  },
};
