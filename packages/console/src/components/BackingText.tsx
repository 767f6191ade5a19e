import { useId, useState } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  raw: {
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
    margin: '4px 0 0',
    padding: '6px 8px',
    fontSize: tokens.fontSizeBase200,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    maxWidth: '100%',
  },
  toggle: { padding: '0', minWidth: 'auto', height: 'auto', fontWeight: tokens.fontWeightRegular },
});

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** A message field as the services write it: a string, or OData's `{ lang, value }`. */
const messageOf = (v: unknown): string | undefined =>
  str(v) ?? (v && typeof v === 'object' ? str((v as { value?: unknown }).value) : undefined);

/**
 * The readable message of a backing service's error body, or undefined when the text is no JSON error body. Knows the
 * shapes the backing services answer: `{ error: { code, message } }` (resource manager, search, the data platform's
 * `errorCode`/`message`), OData's `{ "odata.error": { message: { value } } }`, a top-level `message`/`Message`, and the
 * identity provider's `{ error, error_description }`.
 */
export function readableBackingMessage(text: string): { message: string; code?: string } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const b = obj(body);
  if (!b) return undefined;
  const nested = obj(b.error) ?? obj(b['odata.error']) ?? obj(b.Error);
  const message =
    messageOf(nested?.message) ??
    messageOf(nested?.Message) ??
    messageOf(b.message) ??
    messageOf(b.Message) ??
    str(b.error_description) ??
    messageOf(obj(nested?.innererror)?.message) ??
    str(b.error);
  if (!message) return undefined;
  const code =
    str(nested?.code) ??
    str(nested?.errorCode) ??
    str(b.errorCode) ??
    str(b.code) ??
    (typeof b.error === 'string' && message !== b.error ? b.error : undefined);
  return code && code !== message ? { message, code } : { message };
}

/**
 * A backing service's text, readably: the message of a JSON error body (its code beside it), with the unmodified text
 * one click away ("Show the service's response"), after `label`. Text that is not a JSON error body is shown as it is.
 */
export function BackingText({ text, label }: { text: string; label?: string }) {
  const s = useStyles();
  const [open, setOpen] = useState(false);
  const rawId = useId();
  const readable = readableBackingMessage(text);
  if (!readable)
    return (
      <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {label && `${label} `}
        {text}
      </span>
    );
  return (
    <div data-testid="backing-text">
      {label && `${label} `}
      <span data-testid="backing-message">{readable.message}</span>
      {readable.code && <code style={{ marginLeft: 6 }}>({readable.code})</code>}{' '}
      <Button
        appearance="transparent"
        size="small"
        className={s.toggle}
        aria-expanded={open}
        aria-controls={rawId}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? 'Hide the service’s response' : 'Show the service’s response'}
      </Button>
      {open && (
        <pre id={rawId} className={s.raw} data-testid="backing-raw">
          {text}
        </pre>
      )}
    </div>
  );
}
