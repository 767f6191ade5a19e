import { useCallback, useMemo, useReducer } from 'react';
import { apply, type History, record, redo, startHistory, undo } from './model/history';
import { RdlDocument } from './model/report';
import type { MemberPath } from './model/tablix-groups';
import { XmlSyntaxError } from './model/xml';

/** What is selected: report items on the page, or one cell (its text box) of a tablix. */
export type Selection =
  | { kind: 'none' }
  | { kind: 'items'; names: string[] }
  | { kind: 'cell'; tablix: string; item: string; row?: number; col?: number; member?: MemberPath };

interface State {
  history: History;
  /** The text last published (or loaded): the draft differs from it when there are changes to publish. */
  saved: string;
  selection: Selection;
  /** Why the last edit was refused (the edit changed nothing). */
  refusal?: string;
}

type Action =
  | { t: 'edit'; fn: (doc: RdlDocument) => void }
  | { t: 'replace'; text: string }
  | { t: 'undo' }
  | { t: 'redo' }
  | { t: 'select'; selection: Selection }
  | { t: 'saved'; text: string; reset?: boolean }
  | { t: 'dismiss' };

function reducer(s: State, a: Action): State {
  switch (a.t) {
    case 'edit':
      try {
        return { ...s, history: apply(s.history, RdlDocument.parse, a.fn), refusal: undefined };
      } catch (err) {
        return { ...s, refusal: (err as Error).message };
      }
    case 'replace':
      return { ...s, history: record(s.history, a.text), refusal: undefined };
    case 'undo':
      return { ...s, history: undo(s.history), refusal: undefined };
    case 'redo':
      return { ...s, history: redo(s.history), refusal: undefined };
    case 'select':
      return { ...s, selection: a.selection };
    case 'saved':
      return a.reset ? { history: startHistory(a.text), saved: a.text, selection: { kind: 'none' } } : { ...s, saved: a.text };
    case 'dismiss':
      return { ...s, refusal: undefined };
  }
}

/** The designer's state: the draft's text with undo and redo, the document read from it, the selection. */
export function useDesigner(initial: string) {
  const [s, dispatch] = useReducer(
    reducer,
    initial,
    (text): State => ({ history: startHistory(text), saved: text, selection: { kind: 'none' } }),
  );
  const text = s.history.present;
  // The surface reads the draft's text; text that is not well-formed (typed in the source view) shows where it breaks.
  const parsed = useMemo(() => {
    try {
      return { doc: RdlDocument.parse(text), fault: undefined };
    } catch (err) {
      if (err instanceof XmlSyntaxError) return { doc: undefined, fault: err };
      throw err;
    }
  }, [text]);
  const edit = useCallback((fn: (doc: RdlDocument) => void) => dispatch({ t: 'edit', fn }), []);
  const select = useCallback((selection: Selection) => dispatch({ t: 'select', selection }), []);
  return {
    text,
    doc: parsed.doc,
    fault: parsed.fault,
    selection: s.selection,
    refusal: s.refusal,
    dirty: text !== s.saved,
    canUndo: s.history.past.length > 0,
    canRedo: s.history.future.length > 0,
    edit,
    select,
    replace: useCallback((t: string) => dispatch({ t: 'replace', text: t }), []),
    undo: useCallback(() => dispatch({ t: 'undo' }), []),
    redo: useCallback(() => dispatch({ t: 'redo' }), []),
    markSaved: useCallback((t: string, reset = false) => dispatch({ t: 'saved', text: t, reset }), []),
    dismiss: useCallback(() => dispatch({ t: 'dismiss' }), []),
  };
}

export type DesignerState = ReturnType<typeof useDesigner>;

/** The names of the selected page items (none for a cell or nothing). */
export const selectedNames = (sel: Selection) => (sel.kind === 'items' ? sel.names : []);
