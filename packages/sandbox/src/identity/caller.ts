import type { JWTPayload } from 'jose';
import { Directory, type Principal } from './directory.js';

/** Who made a request, from a verified token. */
export interface Caller {
  objectId: string;
  appId?: string;
  /** An application identity (service principal or managed identity), not a user. */
  isApp: boolean;
  upn?: string;
  name?: string;
  tenantId: string;
  audience: string;
  principal?: Principal;
  claims: JWTPayload & Record<string, any>;
}

/** The caller a verified token names. */
export function callerFrom(claims: JWTPayload & Record<string, any>, audience: string, directory: Directory): Caller {
  const principal = directory.byObjectId(claims.oid);
  const isApp = claims.idtyp === 'app' || (!claims.scp && !claims.upn && (principal ? Directory.isApp(principal) : true));
  return {
    objectId: String(claims.oid ?? ''),
    appId: isApp ? String(claims.appid ?? claims.azp ?? '') : undefined,
    isApp,
    upn: claims.upn ?? claims.preferred_username,
    name: principal?.displayName ?? claims.name,
    tenantId: String(claims.tid ?? ''),
    audience,
    principal,
    claims,
  };
}
