import { InputError } from './errors.js';

// Rules for values the domain takes from callers, whichever way they arrive; route schemas and services share them.

/** A GUID (a platform workspace, reporting group or app registration id). */
export const GUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/**
 * A date-time from a request that is to be stored: schema-valid RFC 3339 also allows years 0000 and 9999 with offsets
 * that PostgreSQL keeps but JavaScript cannot read back; only years 1970 to 9999 (UTC) are accepted, else 400 naming the field.
 */
export function storableInstant(value: string, field: string): Date {
  const at = new Date(value);
  const year = at.getUTCFullYear();
  if (Number.isNaN(at.getTime()) || year < 1970 || year > 9999)
    throw new InputError(`${field} must be a date-time from 1970 to 9999`, field);
  return at;
}
