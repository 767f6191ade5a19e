export { IdentityService, type IdentityOptions } from './identity-service.js';
export { IdentitySignals } from './signals.js';
export { identityRoutes } from './routes/index.js';
export { IDENTITY_SCHEMAS } from './schemas.js';
