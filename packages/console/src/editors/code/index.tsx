import { lazy, Suspense } from 'react';
import { Spinner } from '@fluentui/react-components';
import type { CodeEditorProps } from './types';

export type { CodeEditorProps, LineDiagnostic } from './types';

// CodeMirror is fetched only when a page shows an editor, so the first page's JavaScript does not carry it.
const LazyCodeEditor = lazy(() => import('./CodeEditor'));

/** The shared code editor, loaded on first use; a spinner of the editor's height stands in while it loads. */
export function CodeEditor(props: CodeEditorProps) {
  return (
    <Suspense
      fallback={
        <div style={{ minHeight: props.minHeight ?? 80 }}>
          <Spinner size="tiny" label="Loading the editor…" />
        </div>
      }
    >
      <LazyCodeEditor {...props} />
    </Suspense>
  );
}
