/** Reading an RPC request (MS-TDS 2.2.6.6): the procedure, its parameters and their values as JavaScript values. */

/** The procedure ids a client may send instead of a name (MS-TDS 2.2.6.6, ProcID). */
export const PROC_IDS: Record<number, string> = {
  10: 'sp_executesql',
  11: 'sp_prepare',
  12: 'sp_execute',
  13: 'sp_prepexec',
  15: 'sp_unprepare',
};

/** One RPC parameter: its name (with @, or empty when positional), whether it is an OUTPUT parameter, and its value. */
export interface RpcParameter {
  name: string;
  output: boolean;
  value: unknown;
}

export interface RpcRequest {
  /** Lower-cased procedure name. */
  procedure: string;
  parameters: RpcParameter[];
}

/** A parameter whose type the sandbox does not decode (the request is answered with an error, not a disconnect). */
export class RpcTypeError extends Error {}

class Reader {
  constructor(
    private readonly b: Buffer,
    public o = 0,
  ) {}
  get done() {
    return this.o >= this.b.length;
  }
  u8() {
    return this.b[this.o++]!;
  }
  u16() {
    const v = this.b.readUInt16LE(this.o);
    this.o += 2;
    return v;
  }
  u32() {
    const v = this.b.readUInt32LE(this.o);
    this.o += 4;
    return v;
  }
  bytes(n: number) {
    const v = this.b.subarray(this.o, this.o + n);
    this.o += n;
    return v;
  }
  bVarchar() {
    return this.bytes(this.u8() * 2).toString('ucs2');
  }
  usVarchar() {
    return this.bytes(this.u16() * 2).toString('ucs2');
  }
}

const DAY_MS = 86_400_000;
const EPOCH_1900 = Date.UTC(1900, 0, 1);
const EPOCH_0001 = Date.UTC(2000, 0, 1) - 730_119 * DAY_MS;

const uintLE = (b: Buffer) => b.reduce((acc, byte, i) => acc + byte * 2 ** (8 * i), 0);
const sqlDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const sqlDateTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/** A TYPE_INFO and the value after it, for the types tedious, mssql and python-tds send as parameters. */
function typedValue(r: Reader): unknown {
  const type = r.u8();
  const fixed: Record<number, number> = { 0x30: 1, 0x34: 2, 0x38: 4, 0x7f: 8, 0x32: 1, 0x3e: 8, 0x3b: 4 };
  if (type === 0x1f) return null;
  if (fixed[type] !== undefined) return fixedValue(type, r.bytes(fixed[type]!));
  switch (type) {
    case 0x26:
    case 0x68:
    case 0x6d:
    case 0x6e:
    case 0x6f:
    case 0x24: {
      r.u8(); // max length
      const len = r.u8();
      if (len === 0) return null;
      const data = r.bytes(len);
      if (type === 0x26)
        return len === 8 ? Number(data.readBigInt64LE()) : len === 4 ? data.readInt32LE() : len === 2 ? data.readInt16LE() : data[0];
      if (type === 0x68) return data[0] ? 1 : 0;
      if (type === 0x6d) return len === 8 ? data.readDoubleLE() : data.readFloatLE();
      if (type === 0x6e) return (len === 8 ? data.readInt32LE() * 2 ** 32 + data.readUInt32LE(4) : data.readInt32LE()) / 10_000;
      if (type === 0x24) return guid(data);
      return len === 8
        ? sqlDateTime(EPOCH_1900 + data.readInt32LE() * DAY_MS + Math.round((data.readUInt32LE(4) * 10) / 3))
        : sqlDateTime(EPOCH_1900 + data.readUInt16LE() * DAY_MS + data.readUInt16LE(2) * 60_000);
    }
    case 0x6a:
    case 0x6c: {
      r.u8();
      r.u8(); // precision
      const scale = r.u8();
      const len = r.u8();
      if (len === 0) return null;
      const sign = r.u8();
      const magnitude = uintLE(r.bytes(len - 1)) / 10 ** scale;
      return sign ? magnitude : -magnitude;
    }
    case 0x28: {
      const len = r.u8();
      return len ? sqlDate(EPOCH_0001 + uintLE(r.bytes(3)) * DAY_MS) : null;
    }
    case 0x29:
    case 0x2a:
    case 0x2b:
      return timeValue(type, r);
    case 0xe7:
    case 0xef:
    case 0xa7:
    case 0xaf:
    case 0xa5:
    case 0xad: {
      const max = r.u16();
      if (type !== 0xa5 && type !== 0xad) r.bytes(5); // collation
      const data = max === 0xffff ? plp(r) : shortValue(r);
      if (data === null) return null;
      if (type === 0xe7 || type === 0xef) return data.toString('ucs2');
      if (type === 0xa7 || type === 0xaf) return data.toString('latin1');
      return data;
    }
    case 0x63:
    case 0x23:
    case 0x22: {
      r.u32(); // max length
      if (type !== 0x22) r.bytes(5); // collation
      const len = r.u32();
      if (len === 0xffffffff) return null;
      const data = r.bytes(len);
      return type === 0x63 ? data.toString('ucs2') : type === 0x23 ? data.toString('latin1') : data;
    }
    default:
      throw new RpcTypeError(`parameter type 0x${type.toString(16)}`);
  }
}

function fixedValue(type: number, data: Buffer): unknown {
  switch (type) {
    case 0x30:
      return data[0];
    case 0x34:
      return data.readInt16LE();
    case 0x38:
      return data.readInt32LE();
    case 0x7f:
      return Number(data.readBigInt64LE());
    case 0x32:
      return data[0] ? 1 : 0;
    case 0x3e:
      return data.readDoubleLE();
    default:
      return sqlDateTime(EPOCH_1900 + data.readUInt16LE() * DAY_MS + data.readUInt16LE(2) * 60_000);
  }
}

function timeValue(type: number, r: Reader): unknown {
  const scale = r.u8();
  const len = r.u8();
  if (len === 0) return null;
  const timeLen = scale <= 2 ? 3 : scale <= 4 ? 4 : 5;
  const ms = (uintLE(r.bytes(timeLen)) / 10 ** scale) * 1000;
  if (type === 0x29) return new Date(ms).toISOString().slice(11, 23);
  const days = uintLE(r.bytes(3));
  if (type === 0x2b) r.u16(); // offset minutes: the value is sent in UTC
  return sqlDateTime(EPOCH_0001 + days * DAY_MS + ms);
}

function shortValue(r: Reader): Buffer | null {
  const len = r.u16();
  return len === 0xffff ? null : r.bytes(len);
}

/** A PLP (max) value: total length, then chunks until a zero-length one. */
function plp(r: Reader): Buffer | null {
  const total = r.bytes(8);
  if (total.every((b) => b === 0xff)) return null;
  const chunks: Buffer[] = [];
  for (let len = r.u32(); len > 0; len = r.u32()) chunks.push(r.bytes(len));
  return Buffer.concat(chunks);
}

function guid(b: Buffer): string {
  const h = b.toString('hex');
  const rev = (s: string) => s.match(/../g)!.reverse().join('');
  return `${rev(h.slice(0, 8))}-${rev(h.slice(8, 12))}-${rev(h.slice(12, 16))}-${h.slice(16, 20)}-${h.slice(20)}`.toUpperCase();
}

/** Parses an RPC message: ALL_HEADERS, the procedure (name or id), option flags, then each parameter. */
export function parseRpc(payload: Buffer): RpcRequest {
  const headers = payload.length >= 4 ? payload.readUInt32LE(0) : 0;
  const r = new Reader(payload, headers >= 4 && headers <= payload.length ? headers : 0);
  const nameLength = r.u16();
  const procedure =
    nameLength === 0xffff
      ? (PROC_IDS[r.u16()] ?? 'unknown')
      : r
          .bytes(nameLength * 2)
          .toString('ucs2')
          .toLowerCase();
  r.u16(); // option flags
  const parameters: RpcParameter[] = [];
  while (!r.done) {
    // A batch of several RPCs is separated by 0x80/0xFF; the sandbox answers the first.
    if (r.done || [0x80, 0xff].includes(payload[r.o]!)) break;
    const name = r.bVarchar();
    const status = r.u8();
    parameters.push({ name, output: (status & 0x01) !== 0, value: typedValue(r) });
  }
  return { procedure: procedure.replace(/^(sys\.|dbo\.|master\.\.)/, ''), parameters };
}
