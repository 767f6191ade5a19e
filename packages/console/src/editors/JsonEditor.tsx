import { useEffect, useMemo, useState } from 'react';
import { Field } from '@fluentui/react-components';
import { CodeEditor, type LineDiagnostic } from './code';
import { jsonParseError, lineOfPointer, type JsonParseError } from './code/json-text';
import type { EditorProps } from './types';

const pretty = (v: unknown) => JSON.stringify(v ?? null, null, 2);
const describe = (e: JsonParseError) => `Not valid JSON at line ${e.line}, column ${e.column}: ${e.message}`;

/** The stored content as JSON text; the draft changes only while the text parses, and the parse error is shown at its line. */
export default function JsonEditor({ value, onChange, label, readOnly, fieldError, onValidity }: EditorProps) {
  const [text, setText] = useState(() => pretty(value));
  const [error, setError] = useState<JsonParseError>();
  useEffect(() => {
    // Another tab changed the draft: show it, unless this text already means the same, or the user's text is broken.
    setText((t) => {
      try {
        if (JSON.stringify(JSON.parse(t)) === JSON.stringify(value ?? null)) return t;
      } catch {
        return t;
      }
      return pretty(value);
    });
  }, [value]);
  // The item editor disables Save while the text does not parse; leaving this editor drops the broken text.
  useEffect(() => onValidity?.(error && describe(error)), [error, onValidity]);
  useEffect(() => () => onValidity?.(undefined), [onValidity]);

  const diagnostics = useMemo<LineDiagnostic[]>(() => {
    if (error) return [{ line: error.line, column: error.column, message: error.message, source: 'JSON' }];
    if (fieldError) return [{ line: lineOfPointer(text, fieldError.path), message: fieldError.message, source: 'the service' }];
    return [];
  }, [error, fieldError, text]);

  // Below the editor: the parse error, else the field the service refused, by line.
  const note = error ? describe(error) : diagnostics[0] && `Line ${diagnostics[0].line}: ${diagnostics[0].message}`;
  return (
    <Field label={label} validationMessage={note} validationState={note ? 'error' : 'none'}>
      <CodeEditor
        value={text}
        language="json"
        label={label}
        readOnly={readOnly}
        minHeight={420}
        maxHeight={720}
        diagnostics={diagnostics}
        testId="json-editor"
        reveal={!error && !!fieldError}
        onChange={(next) => {
          setText(next);
          const e = jsonParseError(next);
          setError(e);
          if (!e) onChange(JSON.parse(next));
        }}
      />
    </Field>
  );
}
