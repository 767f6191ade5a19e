import type { CodeLanguage } from './languages';

/** A problem at a line of the text (1-based), as the service or a parse names it. */
export interface LineDiagnostic {
  line: number;
  column?: number;
  message: string;
  severity?: 'error' | 'warning' | 'info';
  source?: string;
}

/** What the shared code editor takes. */
export interface CodeEditorProps {
  value: string;
  onChange?: (text: string) => void;
  /** The accessible name of the editable text (aria-label on CodeMirror's content). */
  label: string;
  language: CodeLanguage;
  readOnly?: boolean;
  diagnostics?: LineDiagnostic[];
  minHeight?: number;
  maxHeight?: number;
  testId?: string;
  /** Scroll the first diagnostic into view when the list changes (problems the service names, not the user's typing). */
  reveal?: boolean;
  /** Move the cursor to this line and focus the editor; a new object each time the user asks (the same line again too). */
  goTo?: { line: number };
}
