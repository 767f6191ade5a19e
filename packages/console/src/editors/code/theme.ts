import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tokens } from '@fluentui/react-components';
import { tags as t } from '@lezer/highlight';

// Every colour is a Fluent token (a CSS variable of the FluentProvider), so the editor follows the light and dark themes.
const chrome = EditorView.theme({
  '&': {
    color: tokens.colorNeutralForeground1,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    fontSize: '13px',
  },
  '&.cm-focused': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: tokens.fontFamilyMonospace, lineHeight: '1.5' },
  '.cm-content': { caretColor: tokens.colorNeutralForeground1 },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: tokens.colorNeutralForeground1 },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: tokens.colorBrandBackground2Hover,
  },
  '.cm-gutters': {
    backgroundColor: tokens.colorNeutralBackground2,
    color: tokens.colorNeutralForeground3,
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  '.cm-activeLine': { backgroundColor: tokens.colorSubtleBackgroundHover },
  '.cm-activeLineGutter': { backgroundColor: tokens.colorNeutralBackground3, color: tokens.colorNeutralForeground1 },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: tokens.colorPaletteLightGreenBackground2, outline: 'none' },
  '&.cm-focused .cm-nonmatchingBracket': { backgroundColor: tokens.colorPaletteRedBackground2 },
  '.cm-searchMatch': { backgroundColor: tokens.colorPaletteYellowBackground2, outline: `1px solid ${tokens.colorPaletteYellowBorder2}` },
  '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: tokens.colorPaletteMarigoldBackground2 },
  '.cm-selectionMatch': { backgroundColor: tokens.colorNeutralBackground4 },
  '.cm-panels': { backgroundColor: tokens.colorNeutralBackground2, color: tokens.colorNeutralForeground1 },
  '.cm-panels.cm-panels-bottom': { borderTop: `1px solid ${tokens.colorNeutralStroke2}` },
  '.cm-panel input, .cm-panel button, .cm-textfield': {
    color: tokens.colorNeutralForeground1,
    backgroundColor: tokens.colorNeutralBackground1,
    fontFamily: tokens.fontFamilyBase,
  },
  '.cm-tooltip': {
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
  },
  '.cm-diagnostic-error': { borderLeftColor: tokens.colorPaletteRedBorder2 },
  '.cm-lintRange-error': { backgroundColor: tokens.colorPaletteRedBackground1 },
  '.cm-line.cm-error-line': { backgroundColor: tokens.colorPaletteRedBackground1 },
});

const highlight = HighlightStyle.define([
  {
    tag: [t.keyword, t.operatorKeyword, t.controlKeyword, t.definitionKeyword, t.moduleKeyword],
    color: tokens.colorPaletteBlueForeground2,
  },
  { tag: [t.meta, t.processingInstruction, t.documentMeta], color: tokens.colorPaletteGrapeForeground2 },
  { tag: [t.string, t.special(t.string), t.attributeValue], color: tokens.colorPaletteDarkOrangeForeground2 },
  { tag: [t.comment, t.lineComment, t.blockComment], color: tokens.colorPaletteGreenForeground2, fontStyle: 'italic' },
  { tag: [t.number, t.bool, t.null, t.atom], color: tokens.colorPaletteTealForeground2 },
  { tag: [t.typeName, t.className, t.tagName], color: tokens.colorPaletteBerryForeground2 },
  { tag: [t.propertyName, t.attributeName], color: tokens.colorPaletteCornflowerForeground2 },
  {
    tag: [t.function(t.variableName), t.standard(t.variableName), t.function(t.propertyName)],
    color: tokens.colorPaletteMarigoldForeground2,
  },
  { tag: [t.operator, t.angleBracket], color: tokens.colorNeutralForeground2 },
  { tag: t.invalid, color: tokens.colorPaletteRedForeground1 },
  { tag: t.heading, fontWeight: 'bold' },
]);

/** The console's editor look: Fluent's colours for the frame, gutters, search and lint, and for the syntax. */
export const fluentTheme = [chrome, syntaxHighlighting(highlight)];
