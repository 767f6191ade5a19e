import { Tooltip } from '@fluentui/react-components';
import { useCloud } from './useCloud';

/** Which cloud this deployment runs in; the sandbox is marked so nobody mistakes it for production. */
export function CloudBadge() {
  const { badge, description } = useCloud();
  if (!description) return badge;
  return (
    <Tooltip relationship="description" content={description}>
      {badge}
    </Tooltip>
  );
}
