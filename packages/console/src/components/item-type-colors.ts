/**
 * The Fluent palette token each item type's icon is drawn in, one hue per type (keyed by the icon the service names,
 * itself one per type). The BorderActive shades are the palette's full-strength colours; these stand, in the light and the
 * dark theme, at least 3:1 against the page and a hovered row (WCAG 1.4.11, graphics), which lists.test.ts checks.
 */
// No imports: the Chromium test reads it too. ItemTypeIcon.tsx checks that every icon the service names has one.
export const ITEM_TYPE_COLORS = {
  Notebook: 'colorPaletteBlueBorderActive',
  HomeDatabase: 'colorPaletteTealBorderActive',
  Server: 'colorPaletteAnchorBorderActive',
  DatabaseLightning: 'colorPalettePinkBorderActive',
  DatabaseSearch: 'colorPaletteLavenderBorderActive',
  DatabaseMultiple: 'colorPaletteMinkBorderActive',
  Search: 'colorPaletteCornflowerBorderActive',
  DataTrending: 'colorPaletteBrassBorderActive',
  Alert: 'colorPaletteRedBorderActive',
  Flow: 'colorPaletteSteelBorderActive',
  ArrowSync: 'colorPaletteGreenBorderActive',
  DocumentText: 'colorPaletteCranberryBorderActive',
  Grid: 'colorPaletteMagentaBorderActive',
  Database: 'colorPalettePlatinumBorderActive',
  Board: 'colorPalettePumpkinBorderActive',
  Target: 'colorPaletteBerryBorderActive',
  Box: 'colorPaletteBrownBorderActive',
  Sparkle: 'colorPaletteLilacBorderActive',
  DataFunnel: 'colorPaletteForestBorderActive',
  ChartMultiple: 'colorPaletteDarkOrangeBorderActive',
  Bot: 'colorPaletteDarkGreenBorderActive',
} as const;
