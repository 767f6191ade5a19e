// The row and column hierarchies of a tablix that groups (a matrix, a grouped table), as the renderer needs them.

import { joinValues, paragraphs } from './rdl-text.js';
import { child, children, descendants, textAt, type XmlElement } from './xml.js';

/** A data set, tablix or group filter. */
export interface RdlFilter {
  expression: string;
  operator: string;
  values: string[];
}

/** A member of a tablix row or column hierarchy. */
export interface RdlMember {
  /** The group; no expressions is the details group (a member per row). */
  group?: { name: string; expressions: string[]; filters: RdlFilter[] };
  sorts: Array<{ value: string; descending: boolean }>;
  /** The header cell's value and its text box's name. */
  header?: { value: string; name: string };
  children: RdlMember[];
}

/** What a grouping tablix renders from besides its body cells. */
export interface RdlHierarchy {
  rowMembers: RdlMember[];
  columnMembers: RdlMember[];
  /** Values of the corner cells, a row per column header level. */
  corner: string[][];
  filters: RdlFilter[];
}

/** The filters of a data set, tablix or group. */
export function readFilters(el: XmlElement | undefined): RdlFilter[] {
  return children(child(el, 'Filters'), 'Filter').map((f) => ({
    expression: textAt(f, 'FilterExpression') ?? '',
    operator: textAt(f, 'Operator') ?? 'Equal',
    values: children(child(f, 'FilterValues'), 'FilterValue').map((v) => v.text.trim()),
  }));
}

/** A cell's text box value (paragraphs joined), or ''. */
function cellValue(contents: XmlElement | undefined): { value: string; name: string } {
  const tb = contents ? descendants(contents, 'Textbox')[0] : undefined;
  return { value: tb ? joinValues(paragraphs(tb), ' ') : '', name: tb?.attrs.Name ?? '' };
}

function readMembers(list: XmlElement | undefined): RdlMember[] {
  return children(list, 'TablixMember').map((m) => {
    const g = child(m, 'Group');
    const h = child(m, 'TablixHeader');
    return {
      group: g
        ? {
            name: g.attrs.Name ?? '',
            expressions: children(child(g, 'GroupExpressions'), 'GroupExpression').map((e) => e.text.trim()),
            filters: readFilters(g),
          }
        : undefined,
      sorts: children(child(m, 'SortExpressions'), 'SortExpression').map((x) => ({
        value: textAt(x, 'Value') ?? '',
        descending: textAt(x, 'Direction') === 'Descending',
      })),
      header: h ? cellValue(child(h, 'CellContents')) : undefined,
      children: readMembers(child(m, 'TablixMembers')),
    };
  });
}

/**
 * The hierarchies of a tablix that groups: any header cell, any group with expressions, any column group or tablix
 * filter. A flat table (a header row and a details row) has none and renders as before.
 */
export function readHierarchy(t: XmlElement): RdlHierarchy | undefined {
  const rowMembers = readMembers(child(child(t, 'TablixRowHierarchy'), 'TablixMembers'));
  const columnMembers = readMembers(child(child(t, 'TablixColumnHierarchy'), 'TablixMembers'));
  const all = (ms: RdlMember[]): RdlMember[] => ms.flatMap((m) => [m, ...all(m.children)]);
  const filters = readFilters(t);
  const groups =
    all(rowMembers).some((m) => m.header || m.group?.expressions.length || m.group?.filters.length || (m.group && m.children.length)) ||
    all(columnMembers).some((m) => m.header || m.group);
  if (!groups && !filters.length) return undefined;
  const corner = children(child(child(t, 'TablixCorner'), 'TablixCornerRows'), 'TablixCornerRow').map((r) =>
    children(r, 'TablixCornerCell').flatMap((c) => {
      const contents = child(c, 'CellContents');
      const span = Number(textAt(contents, 'ColSpan') ?? 1) || 1;
      return [cellValue(contents).value, ...Array<string>(span - 1).fill('')];
    }),
  );
  return { rowMembers, columnMembers, corner, filters };
}
