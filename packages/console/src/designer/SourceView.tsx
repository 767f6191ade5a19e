import { useEffect, useRef, useState } from 'react';
import { Text } from '@fluentui/react-components';
import { CodeEditor } from '../editors/code';
import type { XmlSyntaxError } from './model/xml';

/**
 * The definition's source in the code editor, in step with the surface both ways: the surface's edits show here at
 * once; typing here reaches the surface (and the undo history) when the typing pauses.
 */
export function SourceView({
  text,
  onChange,
  fault,
  readOnly,
}: {
  text: string;
  onChange: (t: string) => void;
  fault?: XmlSyntaxError;
  readOnly: boolean;
}) {
  const [draft, setDraft] = useState(text);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pending = useRef<string | undefined>(undefined);
  // A change from elsewhere (an edit on the surface, an undo) replaces what is shown.
  useEffect(() => {
    if (pending.current === undefined) setDraft(text);
  }, [text]);
  // What is typed is kept when the view closes before the pause.
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      if (pending.current !== undefined) onChange(pending.current);
    },
    [onChange],
  );
  const type = (t: string) => {
    setDraft(t);
    pending.current = t;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      pending.current = undefined;
      onChange(t);
    }, 400);
  };
  return (
    <section aria-label="Source" style={{ display: 'grid', gap: 6 }}>
      <Text size={200}>
        The RDL of the draft. Edits here and on the design surface are the same draft: each shows in the other, and Undo steps back through
        both.
      </Text>
      <CodeEditor
        label="RDL source"
        language="xml"
        value={draft}
        onChange={type}
        readOnly={readOnly}
        diagnostics={fault ? [{ line: fault.line, message: fault.detail }] : []}
        minHeight={520}
        maxHeight={720}
        testId="designer-source"
      />
    </section>
  );
}
