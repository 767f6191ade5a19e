// The designer's undo and redo: each state is the definition's text (the tree is re-read from it), so an undo
// gives back exactly the text before the edit.

export interface History {
  past: string[];
  present: string;
  future: string[];
}

/** At most this many steps are kept to undo. */
const LIMIT = 200;

export const startHistory = (text: string): History => ({ past: [], present: text, future: [] });

/** A new state after an edit; nothing changes when the text is the same. */
export function record(h: History, text: string): History {
  if (text === h.present) return h;
  return { past: [...h.past, h.present].slice(-LIMIT), present: text, future: [] };
}

export function undo(h: History): History {
  const prev = h.past[h.past.length - 1];
  if (prev === undefined) return h;
  return { past: h.past.slice(0, -1), present: prev, future: [h.present, ...h.future] };
}

export function redo(h: History): History {
  const [next, ...rest] = h.future;
  if (next === undefined) return h;
  return { past: [...h.past, h.present], present: next, future: rest };
}

/**
 * Applies an edit to a fresh copy of the definition and records the result. The edit gets a parsed document it may
 * change; an edit that throws leaves the history as it was and passes the error on.
 */
export function apply<D extends { toString(): string }>(h: History, parse: (text: string) => D, edit: (doc: D) => void): History {
  const doc = parse(h.present);
  edit(doc);
  return record(h, doc.toString());
}
