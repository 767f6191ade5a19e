import { Button, Menu, MenuDivider, MenuGroupHeader, MenuItem, MenuList, MenuPopover, MenuTrigger, Text } from '@fluentui/react-components';
import { PersonCircle20Regular, SignOut20Regular } from '@fluentui/react-icons';
import { useSignOut, useWhoAmI } from '../api/session';

/** Who am I: user, tenant, how signed in, scopes; and sign-out. */
export function UserMenu() {
  const me = useWhoAmI().data;
  const signOut = useSignOut();
  if (!me) return null;
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="transparent"
          icon={<PersonCircle20Regular />}
          aria-label={`Account: ${me.userName}`}
          style={{ color: 'inherit' }}
        >
          {me.userName}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuGroupHeader>Signed in</MenuGroupHeader>
          <div style={{ padding: '0 12px 8px', display: 'grid', gap: 2, maxWidth: 320 }}>
            <Text weight="semibold">{me.userName}</Text>
            <Text size={200}>Tenant {me.tenantId}</Text>
            <Text size={200}>Signed in with {me.authMethod === 'session' ? 'a console session' : 'an API token'}</Text>
            <Text size={200}>Scopes: {me.scopes.join(', ')}</Text>
          </div>
          <MenuDivider />
          <MenuItem icon={<SignOut20Regular />} disabled={signOut.isPending} onClick={() => signOut.mutate()}>
            Sign out
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
