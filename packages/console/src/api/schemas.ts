// The wire types of the service, generated from its OpenAPI document into the TypeScript client (type-only: nothing of
// the client is bundled). The console's API modules name these instead of restating the service's shapes.
import type { components } from '../../../client/src/generated/openapi';

export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
