import { Text } from '@fluentui/react-components';
import { useCloud } from './useCloud';

/** The cloud's badge with its explanation written under it (the sign-in page: no tooltip code in the first script). */
export function CloudNotice() {
  const { badge, description } = useCloud();
  return (
    <div style={{ display: 'grid', gap: 6, justifyItems: 'start' }}>
      {badge}
      {description && <Text size={200}>{description}</Text>}
    </div>
  );
}
