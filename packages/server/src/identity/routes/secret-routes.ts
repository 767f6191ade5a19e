import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errors, Id, Name, Ok } from '../../http/schemas.js';
import { GUID_PATTERN } from '../../values.js';
import type { IdentityService } from '../identity-service.js';
import { AlertSchema, CredentialSchema, RotationSchema } from '../schemas.js';

const tags = ['identity'];
const Names = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 });

/** Credentials by metadata, expiry alerts, and the rotation workflow. */
export const secretRoutes =
  (identity: IdentityService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { credentials, rotations } = identity;
    app.get(
      '/api/admin/identity/credentials',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'listCredentials',
          tags,
          summary: 'Registered service-principal credentials (metadata only), soonest expiry first',
          response: { 200: Type.Object({ ok: Ok, credentials: Type.Array(Type.Ref(CredentialSchema)) }), ...errors() },
        },
      },
      async (req) => ({ ok: true as const, credentials: await credentials.list(req.caller!) }),
    );

    app.post(
      '/api/admin/identity/credentials',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'registerCredential',
          tags,
          summary: 'Register a service-principal credential by metadata (client id, key id, expiry; no secret value)',
          body: Type.Object(
            {
              displayName: Name(200, 'the credential as people know it; at least one visible character'),
              clientId: Type.String({
                pattern: GUID_PATTERN,
                description: 'the app registration’s client id (assigned to the tenant by the operator)',
              }),
              keyId: Type.String({ minLength: 1, maxLength: 100 }),
              expiresAt: Type.String({ format: 'date-time' }),
              vaultSecretName: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z-]{1,127}$' })),
              consumers: Type.Optional(Names),
            },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ ok: Ok, credential: Type.Ref(CredentialSchema) }), ...errors(404, 409) },
        },
      },
      async (req, reply) => reply.status(201).send({ ok: true as const, credential: await credentials.register(req.caller!, req.body) }),
    );

    app.delete(
      '/api/admin/identity/credentials/:credentialId',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'deleteCredential',
          tags,
          summary: 'Forget a registered credential (the secret itself is untouched)',
          params: Type.Object({ credentialId: Id('credential id') }),
          response: { 200: Type.Object({ ok: Ok, deleted: Type.String() }), ...errors(404) },
        },
      },
      async (req) => {
        await credentials.remove(req.caller!, req.params.credentialId);
        return { ok: true as const, deleted: req.params.credentialId };
      },
    );

    app.get(
      '/api/admin/identity/alerts',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'listIdentityAlerts',
          tags,
          summary: 'Secret expiry alerts at 90, 30 and 7 days remaining (the console banner)',
          response: {
            200: Type.Object({ ok: Ok, now: Type.String({ format: 'date-time' }), alerts: Type.Array(Type.Ref(AlertSchema)) }),
            ...errors(),
          },
        },
      },
      async (req) => ({ ok: true as const, now: identity.now().toISOString(), alerts: await identity.alerts(req.caller!) }),
    );

    app.post(
      '/api/admin/identity/credentials/:credentialId/rotations',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'startRotation',
          tags,
          summary: 'Start a rotation: create the new secret while the old stays valid and store it in the vault',
          params: Type.Object({ credentialId: Id('credential id') }),
          body: Type.Optional(
            Type.Object(
              { vaultSecretName: Type.Optional(Type.String({ pattern: '^[0-9A-Za-z-]{1,127}$' })), consumers: Type.Optional(Names) },
              { additionalProperties: false },
            ),
          ),
          response: { 201: Type.Object({ ok: Ok, rotation: Type.Ref(RotationSchema) }), ...errors(404, 409, 424, 502) },
        },
      },
      async (req, reply) =>
        reply
          .status(201)
          .send({ ok: true as const, rotation: await rotations.start(req.caller!, req.params.credentialId, req.body ?? {}) }),
    );

    app.get(
      '/api/admin/identity/rotations',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'listRotations',
          tags,
          summary: 'Rotations, newest first (of one credential with credentialId): state, steps done, the next step',
          querystring: Type.Object({ credentialId: Type.Optional(Id('credential id')) }, { additionalProperties: false }),
          response: { 200: Type.Object({ ok: Ok, rotations: Type.Array(Type.Ref(RotationSchema)) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, rotations: await rotations.list(req.caller!, req.query.credentialId) }),
    );

    app.get(
      '/api/admin/identity/rotations/:rotationId',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'getRotation',
          tags,
          summary: 'A rotation: steps done, the next step, its log',
          params: Type.Object({ rotationId: Id('rotation id') }),
          response: { 200: Type.Object({ ok: Ok, rotation: Type.Ref(RotationSchema) }), ...errors(404) },
        },
      },
      async (req) => ({ ok: true as const, rotation: await rotations.get(req.caller!, req.params.rotationId) }),
    );

    app.post(
      '/api/admin/identity/rotations/:rotationId/steps/:step',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'runRotationStep',
          tags,
          summary: 'Run the next step: restart-consumers, verify, delete-old-secret (refused before verification and 24 hours of overlap)',
          params: Type.Object({
            rotationId: Id('rotation id'),
            step: Type.Union([Type.Literal('restart-consumers'), Type.Literal('verify'), Type.Literal('delete-old-secret')]),
          }),
          body: Type.Optional(Type.Object({ consumers: Type.Optional(Names) }, { additionalProperties: false })),
          response: { 200: Type.Object({ ok: Ok, rotation: Type.Ref(RotationSchema) }), ...errors(404, 409, 424, 502) },
        },
      },
      async (req) => ({
        ok: true as const,
        rotation: await rotations.step(req.caller!, req.params.rotationId, req.params.step, req.body ?? {}),
      }),
    );

    app.post(
      '/api/admin/identity/rotations/:rotationId/rollback',
      {
        config: { scope: 'admin' },
        schema: {
          operationId: 'rollBackRotation',
          tags,
          summary: 'Roll back a rotation before the old secret is deleted: remove the new secret, restore the vault’s previous version',
          params: Type.Object({ rotationId: Id('rotation id') }),
          response: { 200: Type.Object({ ok: Ok, rotation: Type.Ref(RotationSchema) }), ...errors(404, 409, 424, 502) },
        },
      },
      async (req) => ({ ok: true as const, rotation: await rotations.rollback(req.caller!, req.params.rotationId) }),
    );
  };
