import type { ExportFile } from '../store.js';
import { renderCsv, renderDocx, renderMhtml, renderPptx, renderXlsx, renderXml } from './documents.js';
import { bmp, gif, png, rasterize, tiff } from './images.js';
import { selectPages, type Rendered } from './layout.js';
import { renderPdf } from './pdf.js';

/** Image OutputFormat values the renderer writes (device info of IMAGE). */
export const IMAGE_FORMATS = ['TIFF', 'PNG', 'BMP', 'GIF'] as const;

/** Writes the file of an export format from a laid-out report, honouring StartPage/EndPage, OutputFormat and DpiX. */
export function renderFile(format: string, r: Rendered, settings: Record<string, string>): ExportFile {
  const pages = selectPages(r, settings);
  const dpi = Number(settings.DpiX) > 0 ? Number(settings.DpiX) : 72;
  switch (format) {
    case 'PDF':
      return { bytes: renderPdf(r, pages), contentType: 'application/pdf', extension: '.pdf' };
    case 'ACCESSIBLEPDF':
      return { bytes: renderPdf(r, pages, true), contentType: 'application/pdf', extension: '.pdf' };
    case 'DOCX':
      return {
        bytes: renderDocx(r, pages),
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        extension: '.docx',
      };
    case 'XLSX':
      return {
        bytes: renderXlsx(r, pages),
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        extension: '.xlsx',
      };
    case 'PPTX':
      return {
        bytes: renderPptx(r, pages),
        contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        extension: '.pptx',
      };
    case 'CSV':
      return { bytes: renderCsv(r, settings), contentType: 'text/csv', extension: '.csv' };
    case 'XML':
      return { bytes: renderXml(r), contentType: 'text/xml', extension: '.xml' };
    case 'MHTML':
      return { bytes: renderMhtml(r, pages), contentType: 'multipart/related', extension: '.mhtml' };
    case 'PNG':
      return { bytes: png(rasterize(r, pages[0] ?? r.pages[0]!, dpi)), contentType: 'image/png', extension: '.png' };
    case 'IMAGE': {
      const out = (settings.OutputFormat ?? 'TIFF').toUpperCase();
      const first = () => rasterize(r, pages[0] ?? r.pages[0]!, dpi);
      if (out === 'PNG') return { bytes: png(first()), contentType: 'image/png', extension: '.png' };
      if (out === 'BMP') return { bytes: bmp(first()), contentType: 'image/bmp', extension: '.bmp' };
      if (out === 'GIF') return { bytes: gif(first()), contentType: 'image/gif', extension: '.gif' };
      return { bytes: tiff(pages.map((p) => rasterize(r, p, dpi))), contentType: 'image/tiff', extension: '.tiff' };
    }
    default:
      throw new Error(`no renderer for ${format}`);
  }
}
