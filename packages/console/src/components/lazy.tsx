import { type ComponentProps, type ComponentType, lazy, Suspense, useState } from 'react';

/**
 * A component whose code loads on its first render, not with the first page. Nothing shows while it loads: it is
 * meant for what opens on a click (dialogs, drawers), where the wait is one small download on demand.
 */
// biome-ignore lint/suspicious/noExplicitAny: any component's props, as React.lazy takes them.
export function lazyPart<T extends ComponentType<any>>(load: () => Promise<T>): ComponentType<ComponentProps<T>> {
  const Part = lazy(async () => ({ default: await load() }));
  return (props: ComponentProps<T>) => (
    <Suspense fallback={null}>
      <Part {...props} />
    </Suspense>
  );
}

/**
 * Like lazyPart for a dialog rendered closed (`open={false}`) until the user opens it: its code loads when it first
 * opens, and it stays mounted afterwards so its closing transition still plays.
 */
// biome-ignore lint/suspicious/noExplicitAny: any dialog's props, as React.lazy takes them.
export function lazyDialog<T extends ComponentType<any>>(load: () => Promise<T>): ComponentType<ComponentProps<T>> {
  const Part = lazyPart(load);
  return (props: ComponentProps<T>) => {
    const [opened, setOpened] = useState(false);
    if (props.open && !opened) setOpened(true);
    return opened || props.open ? <Part {...props} /> : null;
  };
}
