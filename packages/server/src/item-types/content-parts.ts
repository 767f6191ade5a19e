import { Type } from '@sinclair/typebox';

// The pieces the content schemas of several item types share (catalog/README.md "Content by item type").

/** A non-empty name. */
export const Name = Type.String({ minLength: 1 });
/** The key of another item of the app. */
export const Key = Type.String({ pattern: '^[a-z0-9-]+$' });
/** A table column: its name and its type in the store's type system. */
export const Column = Type.Object({ name: Name, type: Name });
/** A seed row: one value per column. */
export const Row = Type.Array(Type.Unknown());
