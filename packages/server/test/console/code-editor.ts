// Reading and replacing the text of the console's CodeMirror editors from a test: CodeMirror draws only the lines in
// view, so neither innerText nor inputValue gives the whole text; the editor's state does.
import type { Locator } from 'playwright-core';

type Cm = { cmTile?: { root?: { view?: CmView } } };
type CmView = {
  state: { doc: { toString(): string; length: number } };
  dispatch(spec: { changes: { from: number; to: number; insert: string }; userEvent?: string }): void;
};

/** The whole text of the CodeMirror editor whose content element the locator names (getByLabel of the editor). */
export async function editorText(editor: Locator): Promise<string> {
  return editor.evaluate((el) => {
    const view = (el as unknown as Cm).cmTile?.root?.view;
    if (!view) throw new Error('not a CodeMirror content element');
    return view.state.doc.toString();
  });
}

/** Replaces the editor's whole text as one edit of the user's (it reaches the page's onChange like typing does). */
export async function setEditorText(editor: Locator, text: string): Promise<void> {
  await editor.evaluate((el, next) => {
    const view = (el as unknown as Cm).cmTile?.root?.view;
    if (!view) throw new Error('not a CodeMirror content element');
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next }, userEvent: 'input.paste' });
  }, text);
}
