import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** True while the browser says it has no network (navigator.onLine), updated on its online/offline events. */
export const useOffline = () => useSyncExternalStore(subscribe, () => !navigator.onLine);

/** The shell's banner while the browser is offline: pages wait for the network, changes are not sent. */
export function OfflineBanner() {
  const offline = useOffline();
  if (!offline) return null;
  return (
    <MessageBar intent="warning" layout="multiline" role="status" data-testid="offline-banner" style={{ marginBottom: 12 }}>
      <MessageBarBody>
        <MessageBarTitle>You are offline</MessageBarTitle>
        Pages load again when the connection is back. Changes cannot be sent until then: nothing is saved or created while offline.
      </MessageBarBody>
    </MessageBar>
  );
}
