import { Type } from '@sinclair/typebox';
import { validateStored } from '../catalog/validate-consumers.js';

/** Content of a stored-only item: any JSON object. */
export const StoredContent = Type.Record(Type.String(), Type.Unknown());

/**
 * What every stored-only type shares: any JSON object as content, edited as JSON, whose `item` / `items` / `source`
 * fields name other items of the app (validateStored checks them and what they ask of those items).
 */
export const STORED = { editor: 'json', content: StoredContent, validate: validateStored } as const;
