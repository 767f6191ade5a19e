import { Button, Link, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { ErrorMessage } from '../components/RequestState';
import { faultLine, rdlFaults } from '../editors/code/rdl-faults';

/** Where a publish stands. */
export type PublishState =
  | { kind: 'idle' }
  | { kind: 'publishing' }
  | { kind: 'published'; at: Date }
  | { kind: 'conflict' }
  | { kind: 'invalid'; message: string }
  | { kind: 'error'; error: unknown };

/** The outcome of the last publish, and the last edit the designer refused. */
export function PublishBar({
  state,
  dirty,
  refusal,
  onDismiss,
  onOverwrite,
  onShowSource,
}: {
  state: PublishState;
  dirty: boolean;
  refusal?: string;
  onDismiss: () => void;
  onOverwrite: () => void;
  onShowSource: () => void;
}) {
  return (
    <>
      {refusal && (
        <MessageBar intent="warning" role="alert" data-testid="designer-refusal">
          <MessageBarBody>{refusal}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={onDismiss}>Dismiss</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      <div aria-live="polite" data-testid="publish-state">
        {state.kind === 'published' && !dirty && (
          <MessageBar intent="success">
            <MessageBarBody>Published {state.at.toLocaleTimeString()}</MessageBarBody>
          </MessageBar>
        )}
      </div>
      {state.kind === 'invalid' && (
        <MessageBar intent="error" layout="multiline" role="alert" data-testid="publish-invalid">
          <MessageBarBody>
            <MessageBarTitle>The definition was not published</MessageBarTitle>
            <ul style={{ margin: '4px 0 0', paddingLeft: 18 }}>
              {(rdlFaults(state.message).length ? rdlFaults(state.message).map(faultLine) : [state.message]).map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
            <Link as="button" onClick={onShowSource}>
              Show the source
            </Link>
          </MessageBarBody>
        </MessageBar>
      )}
      {state.kind === 'conflict' && (
        <MessageBar intent="warning" layout="multiline" role="alert" data-testid="publish-conflict">
          <MessageBarBody>
            <MessageBarTitle>The report changed in the reporting service since you opened it</MessageBarTitle>
            Your draft was not published. Reload the page to start from the current definition, or publish yours over it.
          </MessageBarBody>
          <MessageBarActions>
            <Button onClick={onOverwrite}>Publish mine over it</Button>
          </MessageBarActions>
        </MessageBar>
      )}
      {state.kind === 'error' && <ErrorMessage error={state.error} title="Publish failed; your draft is still here" />}
    </>
  );
}
