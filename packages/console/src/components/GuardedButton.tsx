import { Button, type ButtonProps, MenuItem, type MenuItemProps } from '@fluentui/react-components';
import type { Permission } from '../api/access';

/**
 * A button for an action the caller's role or scopes may not allow: then it stays focusable but disabled, and its title
 * (the tooltip) and accessible description say why; the page shows the same reason as visible text.
 */
export function GuardedButton({ permission, title, disabled, ...props }: ButtonProps & { permission: Permission }) {
  if (permission.ok) return <Button {...props} title={title} disabled={disabled} />;
  return <Button {...props} disabledFocusable title={permission.reason} aria-description={permission.reason} data-refused="role" />;
}

/** A menu entry for an action the caller may not be allowed: disabled, with the reason as its title and description. */
export function GuardedMenuItem({ permission, ...props }: MenuItemProps & { permission: Permission }) {
  if (permission.ok) return <MenuItem {...props} />;
  return (
    <MenuItem {...props} disabled title={permission.reason} aria-description={permission.reason} data-refused="role">
      {props.children}
      <span className="sr-only"> ({permission.reason})</span>
    </MenuItem>
  );
}
