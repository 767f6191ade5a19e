import { useEffect, useState } from 'react';
import { Field, Textarea } from '@fluentui/react-components';
import { mono, type EditorProps } from './types';

/** The stored content as JSON text; the draft changes only while the text parses. */
export default function JsonEditor({ value, onChange, label }: EditorProps) {
  const [text, setText] = useState(() => JSON.stringify(value ?? null, null, 2));
  const [error, setError] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the draft changes elsewhere; the error is read, not watched
  useEffect(() => {
    // Another tab changed the draft: show it, unless this text already means the same.
    setText((t) => {
      try {
        if (JSON.stringify(JSON.parse(t)) === JSON.stringify(value ?? null)) return t;
      } catch {
        /* keep the user's broken text below */
      }
      return error ? t : JSON.stringify(value ?? null, null, 2);
    });
  }, [value]);
  return (
    <Field label={label} validationMessage={error} validationState={error ? 'error' : 'none'}>
      <Textarea
        value={text}
        resize="vertical"
        textarea={{ style: { ...mono, minHeight: 420 }, spellCheck: false }}
        onChange={(_, d) => {
          setText(d.value);
          try {
            onChange(JSON.parse(d.value));
            setError(undefined);
          } catch (err) {
            setError(`Not valid JSON: ${(err as Error).message}`);
          }
        }}
      />
    </Field>
  );
}
