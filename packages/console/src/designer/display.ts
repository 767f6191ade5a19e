// How the design surface shows values and styles (as the desktop builder does: [Field], [Sum(Field)], [@Parameter],
// [&Global], «Expr» for any other expression).

import { styleOf, textboxValue } from './model/items';
import { toPoints } from './model/units';
import type { XElement } from './model/xml';

/** A placeholder for a value: literal text as it is, common expressions by name, others as «Expr». */
export function placeholder(value: string): string {
  const v = value.trim();
  if (!v.startsWith('=')) return value;
  let m = /^=Fields!(\w+)\.Value$/i.exec(v);
  if (m) return `[${m[1]}]`;
  m = /^=(Sum|Avg|Count|CountDistinct|Min|Max|First|Last)\(Fields!(\w+)\.Value\)$/i.exec(v);
  if (m) return `[${m[1]}(${m[2]})]`;
  m = /^=Parameters!(\w+)\.(Value|Label)$/i.exec(v);
  if (m) return `[@${m[1]}]`;
  m = /^=Globals!(\w+)$/i.exec(v);
  if (m) return `[&${m[1]}]`;
  m = /^=User!(\w+)$/i.exec(v);
  if (m) return `[&${m[1]}]`;
  return '«Expr»';
}

/** The text a text box shows on the surface. */
export const shownText = (tb: XElement | undefined) => (tb ? placeholder(textboxValue(tb)) : '');

/** CSS for a text box's text and box from its RDL styles (what the surface can show of them). */
export function boxCss(el: XElement | undefined, scale: number): React.CSSProperties {
  if (!el) return {};
  const size = toPoints(styleOf(el, 'FontSize'));
  const border = styleOf(el, 'BorderStyle');
  const css: React.CSSProperties = {
    fontWeight: /bold|semi|heavy|black/i.test(styleOf(el, 'FontWeight') ?? '') ? 700 : undefined,
    fontStyle: styleOf(el, 'FontStyle') === 'Italic' ? 'italic' : undefined,
    textDecoration: styleOf(el, 'TextDecoration')?.toLowerCase(),
    fontSize: `${(size ?? 10) * (96 / 72) * scale}px`,
    textAlign: (styleOf(el, 'TextAlign')?.toLowerCase() as React.CSSProperties['textAlign']) ?? undefined,
  };
  const color = cssColor(styleOf(el, 'Color'));
  const background = cssColor(styleOf(el, 'BackgroundColor'));
  // Colours the report sets are drawn as set (a page is paper in either theme); the surface's own colours follow the theme.
  if (color) css.color = color;
  if (background) css.backgroundColor = background;
  if (border && border !== 'None')
    css.border = `1px ${border === 'Dashed' ? 'dashed' : border === 'Dotted' ? 'dotted' : 'solid'} ${cssColor(styleOf(el, 'BorderColor')) ?? 'currentColor'}`;
  return css;
}

/** An RDL colour (a name, #RRGGBB, #AARRGGBB) as CSS; an expression is not drawn. */
export function cssColor(c: string | undefined): string | undefined {
  if (!c || c.startsWith('=')) return undefined;
  const argb = /^#([0-9a-f]{2})([0-9a-f]{6})$/i.exec(c);
  if (argb) return `#${argb[2]}${argb[1]}`;
  return c;
}
