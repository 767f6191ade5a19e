// The text of RDL text boxes: each paragraph's runs as one value (a literal, or one expression).

import { child, children, textAt, type XmlElement } from './xml.js';

/** Each paragraph of a text box as one value. */
export function paragraphs(textbox: XmlElement): string[] {
  return children(child(textbox, 'Paragraphs'), 'Paragraph').map((p) => {
    const runs = children(child(p, 'TextRuns'), 'TextRun');
    // Between runs, spaces are text ("Total: " then an expression); a lone run's value is read trimmed.
    return joinValues(
      runs.map((r) =>
        runs.length > 1 && !(textAt(r, 'Value') ?? '').startsWith('=') ? (child(r, 'Value')?.text ?? '') : (textAt(r, 'Value') ?? ''),
      ),
      '',
    );
  });
}

/**
 * Values shown one after another (the text runs of a paragraph, the paragraphs of a cell) as one value: literals are
 * joined as they are; when one is an expression, one expression concatenating each (literals as string constants).
 */
export function joinValues(values: string[], separator: string): string {
  if (values.length < 2 || !values.some((v) => v.startsWith('='))) return values.join(separator);
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const parts = values.map((v) => (v.startsWith('=') ? `(${v.slice(1)})` : quote(v)));
  return `=${parts.join(separator ? ` & ${quote(separator)} & ` : ' & ')}`;
}
