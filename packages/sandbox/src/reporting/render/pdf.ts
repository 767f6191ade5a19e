import type { Line, Page, Rendered } from './layout.js';

/** A PDF string literal in WinAnsi (Latin-1) bytes: parentheses and backslashes escaped, other characters as '?'. */
function pdfString(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '(' || ch === ')' || ch === '\\') out += `\\${ch}`;
    else if (c === 0x2013 || c === 0x2014) out += '-';
    else if (c === 0x2026) out += '\x85';
    else if (c < 0x20 || c > 0xff) out += '?';
    else out += ch;
  }
  return `(${out})`;
}

function pdfDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `D:${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
}

/** Collects numbered objects and writes the file with a cross-reference table of exact byte offsets. */
class PdfWriter {
  private objects: string[] = [];

  /** Reserves an object number (its body set later). */
  reserve(): number {
    this.objects.push('');
    return this.objects.length;
  }

  set(n: number, body: string): void {
    this.objects[n - 1] = body;
  }

  add(body: string): number {
    const n = this.reserve();
    this.set(n, body);
    return n;
  }

  stream(content: string, dict = ''): number {
    return this.add(`<< /Length ${Buffer.byteLength(content, 'latin1')}${dict ? ` ${dict}` : ''} >>\nstream\n${content}\nendstream`);
  }

  toBuffer(root: number, info: number): Buffer {
    let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
    const offsets: number[] = [];
    this.objects.forEach((body, i) => {
      offsets.push(Buffer.byteLength(out, 'latin1'));
      out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    });
    const xref = Buffer.byteLength(out, 'latin1');
    out += `xref\n0 ${this.objects.length + 1}\n0000000000 65535 f \n`;
    for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
    out += `trailer\n<< /Size ${this.objects.length + 1} /Root ${root} 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(out, 'latin1');
  }
}

/** Approximate Helvetica advance: enough to clip table cells to their column. */
const fits = (text: string, widthPt: number, size: number) => {
  const max = Math.max(1, Math.floor(widthPt / (size * 0.52)));
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
};

/**
 * A PDF 1.4 file of the pages: Helvetica text (header, body lines, table rows, footer) on pages of the report's size.
 * `accessible` writes a tagged PDF: marked content with MCIDs, a structure tree, MarkInfo, Lang and the title shown.
 */
export function renderPdf(r: Rendered, pages: Page[], accessible = false): Buffer {
  const w = new PdfWriter();
  const catalog = w.reserve();
  const pagesObj = w.reserve();
  const font = w.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const bold = w.add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const info = w.add(
    `<< /Title ${pdfString(r.reportName)} /Author ${pdfString(r.userId)} /Producer (Sandbox reporting service) /CreationDate (${pdfDate(r.executionTime)}) >>`,
  );
  const structRoot = accessible ? w.reserve() : 0;
  const documentElem = accessible ? w.reserve() : 0;
  const structKids: number[] = [];
  const parentTree: string[] = [];
  const widthPt = Math.round(r.pageWidthIn * 72);
  const heightPt = Math.round(r.pageHeightIn * 72);
  const margin = 36;
  const kids: number[] = [];
  pages.forEach((page, pageIndex) => {
    const pageObj = w.reserve();
    const pageElems: number[] = [];
    let ops = '';
    let mcid = 0;
    const text = (s: string, x: number, y: number, size: number, isBold = false, tag = 'P') => {
      if (!s) return;
      const draw = `BT /${isBold ? 'F2' : 'F1'} ${size} Tf ${x.toFixed(1)} ${y.toFixed(1)} Td ${pdfString(s)} Tj ET`;
      if (!accessible) {
        ops += `${draw}\n`;
        return;
      }
      ops += `/${tag} << /MCID ${mcid} >> BDC ${draw} EMC\n`;
      const elem = w.add(`<< /Type /StructElem /S /${tag} /P ${documentElem} 0 R /Pg ${pageObj} 0 R /K ${mcid} >>`);
      pageElems.push(elem);
      structKids.push(elem);
      mcid++;
    };
    let y = heightPt - margin - 10;
    for (const h of page.header) {
      text(h, margin, y, 9, false, 'H2');
      y -= 12;
    }
    y = heightPt - margin - 0.4 * 72 - 14;
    const drawLine = (line: Line) => {
      if (line.kind === 'text') text(line.text, margin, y, line.title ? 14 : 10, Boolean(line.title), line.title ? 'H1' : 'P');
      else {
        const colW = (widthPt - 2 * margin) / Math.max(1, line.cells.length);
        for (const [i, c] of line.cells.entries())
          text(fits(c, colW - 4, 9), margin + i * colW, y, 9, line.kind === 'header', line.kind === 'header' ? 'TH' : 'TD');
        if (line.kind === 'header') ops += `${margin} ${(y - 3).toFixed(1)} m ${widthPt - margin} ${(y - 3).toFixed(1)} l 0.5 w S\n`;
      }
      y -= 18;
    };
    page.lines.forEach(drawLine);
    let fy = margin + 0.4 * 72 - 12;
    for (const f of page.footer) {
      text(f, margin, fy, 8, false, 'P');
      fy -= 10;
    }
    const content = w.stream(ops);
    w.set(
      pageObj,
      `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${widthPt} ${heightPt}] /Resources << /Font << /F1 ${font} 0 R /F2 ${bold} 0 R >> >> /Contents ${content} 0 R${accessible ? ` /StructParents ${pageIndex} /Tabs /S` : ''} >>`,
    );
    kids.push(pageObj);
    if (accessible) parentTree.push(`${pageIndex} [${pageElems.map((e) => `${e} 0 R`).join(' ')}]`);
  });
  w.set(pagesObj, `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);
  if (accessible) {
    w.set(documentElem, `<< /Type /StructElem /S /Document /P ${structRoot} 0 R /K [${structKids.map((k) => `${k} 0 R`).join(' ')}] >>`);
    w.set(
      structRoot,
      `<< /Type /StructTreeRoot /K ${documentElem} 0 R /ParentTree << /Nums [${parentTree.join(' ')}] >> /ParentTreeNextKey ${pages.length} >>`,
    );
    w.set(
      catalog,
      `<< /Type /Catalog /Pages ${pagesObj} 0 R /MarkInfo << /Marked true >> /StructTreeRoot ${structRoot} 0 R /Lang ${pdfString(r.language)} /ViewerPreferences << /DisplayDocTitle true >> >>`,
    );
  } else {
    w.set(catalog, `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`);
  }
  return w.toBuffer(catalog, info);
}
