import type { FluentIcon } from '@fluentui/react-icons';
import {
  Alert20Regular,
  Board20Regular,
  Bot20Regular,
  ChartMultiple20Regular,
  Database20Regular,
  DatabaseLightning20Regular,
  DatabaseMultiple20Regular,
  DatabaseSearch20Regular,
  DataFunnel20Regular,
  DataTrending20Regular,
  Document20Regular,
  DocumentText20Regular,
  Flow20Regular,
  Grid20Regular,
  HomeDatabase20Regular,
  Notebook20Regular,
  ArrowSync20Regular,
  Server20Regular,
  Sparkle20Regular,
  Target20Regular,
  Box20Regular,
  Search20Regular,
} from '@fluentui/react-icons';
import { tokens } from '@fluentui/react-components';
import { useItemTypes } from '../api/items';
import type { ItemType } from '../api/types';
import { ITEM_TYPE_COLORS } from './item-type-colors';

/** Every icon an item type may name (GET /api/item-types `icon`); one the service adds does not compile until it is here. */
const ICONS: Record<ItemType['icon'], FluentIcon> = {
  Notebook: Notebook20Regular,
  HomeDatabase: HomeDatabase20Regular,
  Server: Server20Regular,
  DatabaseLightning: DatabaseLightning20Regular,
  DatabaseSearch: DatabaseSearch20Regular,
  DatabaseMultiple: DatabaseMultiple20Regular,
  Search: Search20Regular,
  DataTrending: DataTrending20Regular,
  Alert: Alert20Regular,
  Flow: Flow20Regular,
  ArrowSync: ArrowSync20Regular,
  DocumentText: DocumentText20Regular,
  Grid: Grid20Regular,
  Database: Database20Regular,
  Board: Board20Regular,
  Target: Target20Regular,
  Box: Box20Regular,
  Sparkle: Sparkle20Regular,
  DataFunnel: DataFunnel20Regular,
  ChartMultiple: ChartMultiple20Regular,
  Bot: Bot20Regular,
};

/** A colour for every icon: one the service adds does not compile until item-type-colors.ts gives it one. */
const COLORS: Record<ItemType['icon'], string> = ITEM_TYPE_COLORS;

/**
 * The icon the service names for an item type, in the type's own palette colour (a plain document in the neutral
 * colour until the types are read, or for a type it does not list).
 */
export function ItemTypeIcon({ itemType, title }: { itemType: string; title?: string }) {
  const icon = useItemTypes().data?.find((t) => t.id === itemType)?.icon;
  const Icon = icon ? ICONS[icon] : Document20Regular;
  const color = icon ? tokens[COLORS[icon] as keyof typeof tokens] : tokens.colorNeutralForeground2;
  return <Icon aria-label={title} aria-hidden={title ? undefined : true} style={{ flexShrink: 0, color }} data-icon={icon ?? 'Document'} />;
}
