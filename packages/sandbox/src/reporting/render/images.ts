import { deflateSync } from 'node:zlib';
import type { Page, Rendered } from './layout.js';
import { crc32 } from './zip.js';

/** A 5×7 bitmap font (rows of 5 bits); lower case is drawn as upper case. */
const GLYPHS: Record<string, number[]> = {
  A: [0x0e, 0x11, 0x11, 0x11, 0x1f, 0x11, 0x11],
  B: [0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e],
  C: [0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e],
  D: [0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c],
  E: [0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f],
  F: [0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10],
  G: [0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f],
  H: [0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11],
  I: [0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e],
  J: [0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c],
  K: [0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11],
  L: [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f],
  M: [0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11],
  N: [0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11],
  O: [0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e],
  P: [0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10],
  Q: [0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d],
  R: [0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11],
  S: [0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e],
  T: [0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
  U: [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e],
  V: [0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04],
  W: [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a],
  X: [0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11],
  Y: [0x11, 0x11, 0x11, 0x0a, 0x04, 0x04, 0x04],
  Z: [0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f],
  '0': [0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e],
  '1': [0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e],
  '2': [0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f],
  '3': [0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e],
  '4': [0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02],
  '5': [0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e],
  '6': [0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e],
  '7': [0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
  '8': [0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e],
  '9': [0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c],
  '.': [0, 0, 0, 0, 0, 0x0c, 0x0c],
  ',': [0, 0, 0, 0, 0x0c, 0x04, 0x08],
  ':': [0, 0x0c, 0x0c, 0, 0x0c, 0x0c, 0],
  '-': [0, 0, 0, 0x1f, 0, 0, 0],
  '/': [0, 0x01, 0x02, 0x04, 0x08, 0x10, 0],
  '(': [0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02],
  ')': [0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08],
  '!': [0x04, 0x04, 0x04, 0x04, 0x04, 0, 0x04],
  '?': [0x0e, 0x11, 0x01, 0x02, 0x04, 0, 0x04],
  "'": [0x0c, 0x04, 0x08, 0, 0, 0, 0],
  '"': [0x0a, 0x0a, 0, 0, 0, 0, 0],
  '&': [0x0c, 0x12, 0x14, 0x08, 0x15, 0x12, 0x0d],
  '%': [0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03],
  '#': [0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a],
  '+': [0, 0x04, 0x04, 0x1f, 0x04, 0x04, 0],
  '=': [0, 0, 0x1f, 0, 0x1f, 0, 0],
  _: [0, 0, 0, 0, 0, 0, 0x1f],
};
const BOX = [0x1f, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1f];

/** An 8-bit grayscale raster (0 black … 255 white). */
export interface Raster {
  width: number;
  height: number;
  pixels: Uint8Array;
  dpi: number;
}

/** Draws a page at `dpi` (72 = one pixel per point): the same positions as the PDF renderer. */
export function rasterize(r: Rendered, page: Page, dpi = 72): Raster {
  const s = Math.max(1, Math.round(dpi / 72));
  const width = Math.round(r.pageWidthIn * 72) * s;
  const height = Math.round(r.pageHeightIn * 72) * s;
  const pixels = new Uint8Array(width * height).fill(255);
  const set = (x: number, y: number) => {
    if (x >= 0 && y >= 0 && x < width && y < height) pixels[y * width + x] = 0;
  };
  /** Text with its baseline at y points from the top. */
  const text = (str: string, xPt: number, baselinePt: number, maxPt = Infinity) => {
    let x = xPt;
    for (const ch of str.toUpperCase()) {
      if (x + 6 > xPt + maxPt) break;
      if (ch !== ' ') {
        const g = GLYPHS[ch] ?? BOX;
        g.forEach((row, gy) => {
          for (let gx = 0; gx < 5; gx++)
            if (row & (0x10 >> gx))
              for (let dy = 0; dy < s; dy++) for (let dx = 0; dx < s; dx++) set((x + gx) * s + dx, (baselinePt - 7 + gy) * s + dy);
        });
      }
      x += 6;
    }
  };
  const wPt = Math.round(r.pageWidthIn * 72);
  const hPt = Math.round(r.pageHeightIn * 72);
  const margin = 36;
  let y = margin + 10;
  for (const h of page.header) {
    text(h, margin, y);
    y += 12;
  }
  y = margin + 0.4 * 72 + 14;
  for (const l of page.lines) {
    if (l.kind === 'text') text(l.text, margin, Math.round(y));
    else {
      const colW = (wPt - 2 * margin) / Math.max(1, l.cells.length);
      for (const [i, c] of l.cells.entries()) text(c, Math.round(margin + i * colW), Math.round(y), colW - 6);
      if (l.kind === 'header')
        for (let x = margin; x < wPt - margin; x++) for (let d = 0; d < s; d++) set(x * s + d, Math.round(y + 3) * s);
    }
    y += 18;
  }
  let fy = hPt - margin - 0.4 * 72 + 12;
  for (const f of page.footer) {
    text(f, margin, Math.round(fy));
    fy += 10;
  }
  return { width, height, pixels, dpi: 72 * s };
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** PNG: 8-bit grayscale, scanlines with filter 0, zlib-compressed, with its resolution (pHYs). */
export function png(img: Raster): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(img.width, 0);
  ihdr.writeUInt32BE(img.height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(0, 9);
  const raw = Buffer.alloc((img.width + 1) * img.height);
  for (let y = 0; y < img.height; y++) raw.set(img.pixels.subarray(y * img.width, (y + 1) * img.width), y * (img.width + 1) + 1);
  const phys = Buffer.alloc(9);
  const ppm = Math.round(img.dpi / 0.0254);
  phys.writeUInt32BE(ppm, 0);
  phys.writeUInt32BE(ppm, 4);
  phys.writeUInt8(1, 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('pHYs', phys),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** TIFF (little-endian, baseline grayscale, uncompressed): one image file directory per page, chained. */
export function tiff(images: Raster[]): Buffer {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(8);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  let offset = 8;
  parts.push(header);
  const ifdOffsets: number[] = [];
  const nextPointers: Array<{ buf: Buffer; at: number }> = [];
  images.forEach((img, page) => {
    const data = Buffer.from(img.pixels);
    const dataOffset = offset;
    parts.push(data);
    offset += data.length + (data.length % 2);
    if (data.length % 2) parts.push(Buffer.alloc(1));
    const resOffset = offset;
    const res = Buffer.alloc(16);
    res.writeUInt32LE(img.dpi, 0);
    res.writeUInt32LE(1, 4);
    res.writeUInt32LE(img.dpi, 8);
    res.writeUInt32LE(1, 12);
    parts.push(res);
    offset += 16;
    const tags: Array<[number, number, number, number]> = [
      [254, 4, 1, 2],
      [256, 4, 1, img.width],
      [257, 4, 1, img.height],
      [258, 3, 1, 8],
      [259, 3, 1, 1],
      [262, 3, 1, 1],
      [273, 4, 1, dataOffset],
      [277, 3, 1, 1],
      [278, 4, 1, img.height],
      [279, 4, 1, data.length],
      [282, 5, 1, resOffset],
      [283, 5, 1, resOffset + 8],
      [296, 3, 1, 2],
      [297, 3, 2, page | (images.length << 16)],
    ];
    const ifd = Buffer.alloc(2 + tags.length * 12 + 4);
    ifd.writeUInt16LE(tags.length, 0);
    tags.forEach(([tag, type, count, value], i) => {
      const at = 2 + i * 12;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(count, at + 4);
      if (type === 3 && count === 1) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(value >>> 0, at + 8);
    });
    ifdOffsets.push(offset);
    nextPointers.push({ buf: ifd, at: 2 + tags.length * 12 });
    parts.push(ifd);
    offset += ifd.length;
  });
  header.writeUInt32LE(ifdOffsets[0]!, 4);
  for (const [i, p] of nextPointers.entries()) p.buf.writeUInt32LE(ifdOffsets[i + 1] ?? 0, p.at);
  return Buffer.concat(parts);
}

/** BMP: 24-bit, bottom-up rows padded to four bytes. */
export function bmp(img: Raster): Buffer {
  const rowSize = Math.ceil((img.width * 3) / 4) * 4;
  const size = 54 + rowSize * img.height;
  const out = Buffer.alloc(size);
  out.write('BM', 0, 'latin1');
  out.writeUInt32LE(size, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(img.width, 18);
  out.writeInt32LE(img.height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  out.writeUInt32LE(rowSize * img.height, 34);
  const ppm = Math.round(img.dpi / 0.0254);
  out.writeInt32LE(ppm, 38);
  out.writeInt32LE(ppm, 42);
  for (let y = 0; y < img.height; y++) {
    const row = 54 + (img.height - 1 - y) * rowSize;
    for (let x = 0; x < img.width; x++) {
      const v = img.pixels[y * img.width + x]!;
      out[row + x * 3] = v;
      out[row + x * 3 + 1] = v;
      out[row + x * 3 + 2] = v;
    }
  }
  return out;
}

/**
 * GIF89a with a black-and-white palette. The LZW stream sends a clear code after every two literal codes, so the
 * code size stays at three bits and no dictionary is needed (valid LZW, not compressed).
 */
export function gif(img: Raster): Buffer {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(img.width, 6);
  head.writeUInt16LE(img.height, 8);
  head.writeUInt8(0x80, 10); // global colour table of 2 entries
  const palette = Buffer.from([0, 0, 0, 255, 255, 255]);
  const desc = Buffer.alloc(10);
  desc.writeUInt8(0x2c, 0);
  desc.writeUInt16LE(img.width, 5);
  desc.writeUInt16LE(img.height, 7);
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  const emit = (code: number) => {
    acc |= code << bits;
    bits += 3;
    while (bits >= 8) {
      bytes.push(acc & 0xff);
      acc >>= 8;
      bits -= 8;
    }
  };
  const CLEAR = 4;
  const END = 5;
  const n = img.width * img.height;
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) emit(CLEAR);
    emit(img.pixels[i]! < 128 ? 0 : 1);
  }
  emit(END);
  if (bits > 0) bytes.push(acc & 0xff);
  const blocks: Buffer[] = [Buffer.from([2])];
  for (let i = 0; i < bytes.length; i += 255) {
    const part = bytes.slice(i, i + 255);
    blocks.push(Buffer.from([part.length, ...part]));
  }
  blocks.push(Buffer.from([0]));
  return Buffer.concat([head, palette, desc, ...blocks, Buffer.from([0x3b])]);
}
