/** The few ASN.1 DER encodings an X.509 certificate needs (X.690 §8, definite lengths only). */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** A tag-length-value element. */
export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

export const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
export const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
export const octets = (b: Buffer) => tlv(0x04, b);
export const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
export const boolean = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
/** A context-specific constructed element ([n] EXPLICIT). */
export const explicit = (n: number, inner: Buffer) => tlv(0xa0 | n, inner);

/** An unsigned big-endian integer (a leading zero keeps it positive). */
export function integer(value: Buffer): Buffer {
  let b = value;
  let start = 0;
  while (start < b.length - 1 && b[start] === 0 && b[start + 1]! < 0x80) start++;
  b = b.subarray(start);
  return tlv(0x02, b[0]! >= 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
}

/** A BIT STRING with no unused bits. */
export const bits = (b: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));

/** An OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 §4.1.2.5). */
export function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(iso.slice(2), 'ascii')) : tlv(0x18, Buffer.from(iso, 'ascii'));
}
