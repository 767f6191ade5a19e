import { useEffect, useRef } from 'react';
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, foldGutter, foldKeymap, indentOnInput } from '@codemirror/language';
import { lintGutter, lintKeymap, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Annotation, Compartment, EditorState, type Extension, type Text } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { loadLanguage } from './languages';
import { fluentTheme } from './theme';
import type { CodeEditorProps, LineDiagnostic } from './types';

// Marks a change that came from the value prop, so it is not echoed back through onChange.
const fromProps = Annotation.define<boolean>();

// The editing basics the console's editors share (CodeMirror's basicSetup, without Tab capture: Tab leaves the editor).
const basics: Extension = [
  lineNumbers(),
  highlightActiveLineGutter(),
  highlightSpecialChars(),
  history(),
  foldGutter(),
  drawSelection(),
  indentOnInput(),
  bracketMatching(),
  closeBrackets(),
  autocompletion(),
  highlightActiveLine(),
  highlightSelectionMatches(),
  search({ top: true }),
  lintGutter(),
  keymap.of([
    ...closeBracketsKeymap,
    ...defaultKeymap,
    ...searchKeymap,
    ...historyKeymap,
    ...foldKeymap,
    ...completionKeymap,
    ...lintKeymap,
  ]),
  fluentTheme,
];

/** A problem the service named at a line (1-based; column 1-based when known) as a CodeMirror diagnostic on that line. */
function toDiagnostic(doc: Text, d: LineDiagnostic): Diagnostic {
  const line = doc.line(Math.min(Math.max(1, d.line), doc.lines));
  const from = d.column ? Math.min(line.from + d.column - 1, line.to) : line.from;
  const to = d.column ? Math.min(from + 1, line.to) : line.to;
  return { from, to: Math.max(from, to), severity: d.severity ?? 'error', message: d.message, source: d.source };
}

function access(label: string, readOnly: boolean): Extension {
  return [
    EditorState.readOnly.of(readOnly),
    // The label names the editable region for screen readers and for getByLabel; aria-readonly says a Viewer cannot type.
    // tabindex: the text is one Tab stop (a contenteditable is already), and axe sees the scroller holds focusable
    // content, so a long line that scrolls sideways is reachable by keyboard.
    EditorView.contentAttributes.of({ 'aria-label': label, 'aria-readonly': String(readOnly), tabindex: '0' }),
  ];
}

function sizing(minHeight: number, maxHeight: number | undefined): Extension {
  return EditorView.theme({
    '&': { minHeight: `${minHeight}px`, ...(maxHeight ? { maxHeight: `${maxHeight}px` } : {}) },
    '.cm-scroller': { overflow: 'auto' },
    '.cm-content, .cm-gutter': { minHeight: `${minHeight - 2}px` },
  });
}

/** A CodeMirror 6 editor of one text: highlighting, line numbers, search, bracket matching, lint at the server's lines. */
export default function CodeEditor({
  value,
  onChange,
  label,
  language,
  readOnly = false,
  diagnostics,
  minHeight = 80,
  maxHeight,
  testId,
  reveal = false,
  goTo,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  const parts = useRef({ language: new Compartment(), access: new Compartment(), size: new Compartment() });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is made once; later props reach it through the effects below
  useEffect(() => {
    const p = parts.current;
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basics,
          p.language.of([]),
          p.access.of(access(label, readOnly)),
          p.size.of(sizing(minHeight, maxHeight)),
          EditorView.updateListener.of((u) => {
            if (u.docChanged && !u.transactions.some((t) => t.annotation(fromProps))) changed.current?.(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, []);

  useEffect(() => {
    let live = true;
    void loadLanguage(language).then((ext) => {
      if (live) view.current?.dispatch({ effects: parts.current.language.reconfigure(ext) });
    });
    return () => {
      live = false;
    };
  }, [language]);

  useEffect(() => {
    view.current?.dispatch({ effects: parts.current.access.reconfigure(access(label, readOnly)) });
  }, [label, readOnly]);

  useEffect(() => {
    view.current?.dispatch({ effects: parts.current.size.reconfigure(sizing(minHeight, maxHeight)) });
  }, [minHeight, maxHeight]);

  // A value changed outside the editor (another tab, a reload) replaces the text; the user's own typing is already there.
  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === value) return;
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value }, annotations: fromProps.of(true) });
  }, [value]);

  // Compared by content: callers build the list on each render.
  const problems = JSON.stringify(diagnostics ?? []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reveal is read when the problems change, not watched
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const list = (JSON.parse(problems) as LineDiagnostic[]).map((d) => toDiagnostic(v.state.doc, d));
    v.dispatch(setDiagnostics(v.state, list));
    // The service's problems may be far down a long text: scroll the editor (not the page, which shows the message
    // above it) to centre the first.
    const first = list[0];
    if (reveal && first)
      v.requestMeasure({
        read: (ev) => ev.lineBlockAt(first.from).top,
        write: (top, ev) => {
          ev.scrollDOM.scrollTop = Math.max(0, top - ev.scrollDOM.clientHeight / 2);
        },
      });
  }, [problems]);

  // A line picked outside the editor (a listed fault): the cursor goes there, in view, and the editor takes the focus.
  useEffect(() => {
    const v = view.current;
    if (!v || !goTo) return;
    const line = v.state.doc.line(Math.min(Math.max(1, goTo.line), v.state.doc.lines));
    v.dispatch({ selection: { anchor: line.from }, effects: EditorView.scrollIntoView(line.from, { y: 'center' }) });
    v.focus();
  }, [goTo]);

  return <div ref={host} data-testid={testId} data-language={language} style={{ minWidth: 0 }} />;
}
