import { EXIT } from '../api.js';
import { opt, UsageError } from '../args.js';
import { fields, table } from '../table.js';
import { type Command, json, list } from './options.js';

const rotationView = (r: any) =>
  `${fields(r, ['id', 'state', 'nextStep', 'clientId', 'oldKeyId', 'newKeyId', 'vaultSecretName', 'vaultVersion'])}\n\n${table(r.log, ['at', 'step', 'detail'])}`;

/** `svc identity secrets`: registered credentials, their expiry alerts, and secret rotations step by step. */
export const secrets: Command = async (api, args, out) => {
  const [action = 'list', id, step] = args.positionals;
  switch (action) {
    case 'list': {
      const r = await api.call('GET', '/credentials');
      out(
        json(args)
          ? JSON.stringify(r.credentials, null, 2)
          : table(r.credentials, ['id', 'displayName', 'clientId', 'keyId', 'expiresAt', 'vaultSecretName']),
      );
      return EXIT.ok;
    }
    case 'alerts': {
      const r = await api.call('GET', '/alerts');
      out(
        json(args)
          ? JSON.stringify(r.alerts, null, 2)
          : table(r.alerts, ['level', 'threshold', 'daysRemaining', 'displayName', 'clientId', 'keyId', 'expiresAt']),
      );
      return r.alerts.length ? EXIT.problemFound : EXIT.ok;
    }
    case 'register': {
      const r = await api.call('POST', '/credentials', {
        displayName: opt(args, 'name', true),
        clientId: opt(args, 'client-id', true),
        keyId: opt(args, 'key-id', true),
        expiresAt: new Date(opt(args, 'expires', true)).toISOString(),
        ...(opt(args, 'vault-secret') ? { vaultSecretName: opt(args, 'vault-secret') } : {}),
        ...(list(opt(args, 'consumers')) ? { consumers: list(opt(args, 'consumers')) } : {}),
      });
      out(
        json(args)
          ? JSON.stringify(r.credential, null, 2)
          : `registered ${r.credential.id} (${r.credential.displayName}, key ${r.credential.keyId}, expires ${r.credential.expiresAt})`,
      );
      return EXIT.ok;
    }
    case 'rotate': {
      if (!id) throw new UsageError('secrets rotate <credentialId>');
      const r = await api.call('POST', `/credentials/${encodeURIComponent(id)}/rotations`, {
        ...(opt(args, 'vault-secret') ? { vaultSecretName: opt(args, 'vault-secret') } : {}),
        ...(list(opt(args, 'consumers')) ? { consumers: list(opt(args, 'consumers')) } : {}),
      });
      out(json(args) ? JSON.stringify(r.rotation, null, 2) : rotationView(r.rotation));
      return EXIT.ok;
    }
    case 'rotation': {
      if (!id) throw new UsageError('secrets rotation <rotationId>');
      const r = await api.call('GET', `/rotations/${encodeURIComponent(id)}`);
      out(json(args) ? JSON.stringify(r.rotation, null, 2) : rotationView(r.rotation));
      return EXIT.ok;
    }
    case 'step': {
      if (!id || !step) throw new UsageError('secrets step <rotationId> restart-consumers|verify|delete-old-secret');
      const r = await api.call(
        'POST',
        `/rotations/${encodeURIComponent(id)}/steps/${step}`,
        list(opt(args, 'consumers')) ? { consumers: list(opt(args, 'consumers')) } : {},
      );
      out(json(args) ? JSON.stringify(r.rotation, null, 2) : rotationView(r.rotation));
      return EXIT.ok;
    }
    case 'rollback': {
      if (!id) throw new UsageError('secrets rollback <rotationId>');
      const r = await api.call('POST', `/rotations/${encodeURIComponent(id)}/rollback`);
      out(json(args) ? JSON.stringify(r.rotation, null, 2) : rotationView(r.rotation));
      return EXIT.ok;
    }
  }
  throw new UsageError(`secrets ${action}: use list, alerts, register, rotate, rotation, step or rollback`);
};
