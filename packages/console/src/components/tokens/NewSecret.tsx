import { useState } from 'react';
import { Button, Field, Input, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, Text } from '@fluentui/react-components';
import { Copy20Regular } from '@fluentui/react-icons';
import type { CreatedToken } from '../../api/tokens';

/**
 * The secret of a token just created, shown once: the service never answers it again. Copy puts it on the clipboard;
 * Done forgets it (the page keeps it only in memory until then).
 */
export function NewSecret({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied('yes');
    } catch {
      // The browser refused the clipboard (permission, an insecure origin): the text stays selectable.
      setCopied('failed');
    }
  };
  return (
    <MessageBar intent="success" layout="multiline" data-testid="new-secret" style={{ marginBottom: 16 }}>
      <MessageBarBody style={{ display: 'grid', gap: 8, paddingBottom: 8 }}>
        <MessageBarTitle>Token “{created.token.name}” created</MessageBarTitle>
        <Text weight="semibold">Copy the secret now: you will not see it again. Anyone holding it acts with this token’s scopes.</Text>
        <div style={{ display: 'flex', gap: 8, alignItems: 'end', flexWrap: 'wrap' }}>
          <Field label="Secret" style={{ flexGrow: 1, minWidth: 320 }}>
            <Input
              readOnly
              value={created.secret}
              input={{ style: { fontFamily: 'monospace' }, 'data-testid': 'secret-value' } as object}
              onFocus={(e) => e.currentTarget.select()}
            />
          </Field>
          <Button appearance="primary" icon={<Copy20Regular />} onClick={() => void copy()}>
            Copy
          </Button>
        </div>
        <Text size={200} role="status">
          {copied === 'yes'
            ? 'Copied to the clipboard.'
            : copied === 'failed'
              ? 'The browser did not allow copying: select the secret and copy it.'
              : ''}
        </Text>
        <Text size={200}>
          Expires {new Date(created.token.expiresAt).toLocaleString()}
          {created.expiryCapped ? ' — cut to the expiry of the token you signed in with (a token never outlives its parent).' : '.'} Use it
          as <code>Authorization: Bearer …</code> with the Python or TypeScript client.
        </Text>
      </MessageBarBody>
      <MessageBarActions>
        <Button onClick={onDone}>Done</Button>
      </MessageBarActions>
    </MessageBar>
  );
}
