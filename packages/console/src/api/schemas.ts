// The wire types of the service, generated from its OpenAPI document into the TypeScript client (type-only: nothing of
// the client is bundled). The console's API modules name these instead of restating the service's shapes.
import type { components, operations } from '../../../client/src/generated/openapi';

export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The JSON request body of an operation, by its operationId. */
export type Body<Op extends keyof operations> = operations[Op] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : never;

/** The JSON answer of an operation on success (200 or 201), by its operationId. */
export type Answer<Op extends keyof operations> = operations[Op]['responses'] extends infer R
  ? R extends { 200: { content: { 'application/json': infer A } } }
    ? A
    : R extends { 201: { content: { 'application/json': infer A } } }
      ? A
      : never
  : never;
