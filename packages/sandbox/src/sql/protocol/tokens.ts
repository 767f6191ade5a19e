/** Writers for the server-to-client tokens of a TABULAR_RESULT message (MS-TDS 2.2.7). */

const TOKEN = {
  RETURNSTATUS: 0x79,
  COLMETADATA: 0x81,
  ERROR: 0xaa,
  RETURNVALUE: 0xac,
  INFO: 0xab,
  LOGINACK: 0xad,
  FEATUREEXTACK: 0xae,
  ROW: 0xd1,
  ENVCHANGE: 0xe3,
  DONE: 0xfd,
  DONEPROC: 0xfe,
  DONEINPROC: 0xff,
} as const;

/** DONE status bits. */
export const DoneStatus = { FINAL: 0x00, MORE: 0x01, ERROR: 0x02, COUNT: 0x10, ATTN: 0x20 } as const;

const TDS_7_4 = 0x74000004;
/** SQL_Latin1_General_CP1_CI_AS. */
const COLLATION = Buffer.from([0x09, 0x04, 0xd0, 0x00, 0x34]);

const ucs2 = (s: string) => Buffer.from(s, 'ucs2');

function bVarchar(s: string): Buffer {
  const chars = s.slice(0, 255);
  return Buffer.concat([Buffer.from([chars.length]), ucs2(chars)]);
}

function usVarchar(s: string): Buffer {
  const head = Buffer.alloc(2);
  head.writeUInt16LE(s.length);
  return Buffer.concat([head, ucs2(s)]);
}

function withLength(token: number, body: Buffer): Buffer {
  const head = Buffer.alloc(3);
  head[0] = token;
  head.writeUInt16LE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** LOGINACK: T-SQL interface, TDS 7.4, the server's program name and version. */
export function loginAck(progName = 'Microsoft SQL Server', version = [16, 0, 0x03, 0xe8]): Buffer {
  const fixed = Buffer.alloc(5);
  fixed[0] = 1;
  fixed.writeUInt32BE(TDS_7_4, 1);
  return withLength(TOKEN.LOGINACK, Buffer.concat([fixed, bVarchar(progName), Buffer.from(version)]));
}

/** ENVCHANGE of a string value: 1 database, 2 language, 4 packet size. */
export function envChange(type: 1 | 2 | 4, newValue: string, oldValue: string): Buffer {
  return withLength(TOKEN.ENVCHANGE, Buffer.concat([Buffer.from([type]), bVarchar(newValue), bVarchar(oldValue)]));
}

/** ENVCHANGE 7: the SQL collation. */
export function collationChange(): Buffer {
  return withLength(TOKEN.ENVCHANGE, Buffer.concat([Buffer.from([7, COLLATION.length]), COLLATION, Buffer.from([0])]));
}

/** FEATUREEXTACK: each acknowledged feature with its data, then the terminator. */
export function featureExtAck(features: Array<[number, Buffer]>): Buffer {
  const parts: Buffer[] = [Buffer.from([TOKEN.FEATUREEXTACK])];
  for (const [id, data] of features) {
    const head = Buffer.alloc(5);
    head[0] = id;
    head.writeUInt32LE(data.length, 1);
    parts.push(head, data);
  }
  parts.push(Buffer.from([0xff]));
  return Buffer.concat(parts);
}

/** A server message as ERROR (class > 10) or INFO carries it. */
export interface ServerMessage {
  number: number;
  state: number;
  class: number;
  message: string;
  serverName?: string;
  procName?: string;
  lineNumber?: number;
}

/** ERROR or INFO token, chosen by the message's class. */
export function message(m: ServerMessage): Buffer {
  const head = Buffer.alloc(6);
  head.writeInt32LE(m.number, 0);
  head[4] = m.state;
  head[5] = m.class;
  const line = Buffer.alloc(4);
  line.writeInt32LE(m.lineNumber ?? 1);
  const body = Buffer.concat([head, usVarchar(m.message), bVarchar(m.serverName ?? ''), bVarchar(m.procName ?? ''), line]);
  return withLength(m.class > 10 ? TOKEN.ERROR : TOKEN.INFO, body);
}

/** Which DONE token ends a statement: a batch's (DONE), one inside a procedure (DONEINPROC), or the procedure's (DONEPROC). */
export type DoneKind = 'batch' | 'inProc' | 'proc';

/** DONE, DONEINPROC or DONEPROC: status bits, current command, row count (8 bytes since TDS 7.2). */
export function done(status: number, rowCount = 0, curCmd = 0xc1, kind: DoneKind = 'batch'): Buffer {
  const b = Buffer.alloc(13);
  b[0] = kind === 'batch' ? TOKEN.DONE : kind === 'inProc' ? TOKEN.DONEINPROC : TOKEN.DONEPROC;
  b.writeUInt16LE(status, 1);
  b.writeUInt16LE(curCmd, 3);
  b.writeBigUInt64LE(BigInt(rowCount), 5);
  return b;
}

/** Wire types the sandbox sends result columns as. */
export type WireType = 'int' | 'bigint' | 'bit' | 'float' | 'nvarchar';

/** A result column: its name and wire type. */
export interface ResultColumn {
  name: string;
  type: WireType;
}

/** COLMETADATA for the columns of one result set (all nullable). */
export function colMetadata(columns: ResultColumn[]): Buffer {
  const parts: Buffer[] = [Buffer.from([TOKEN.COLMETADATA, columns.length & 0xff, columns.length >> 8])];
  for (const c of columns) {
    const head = Buffer.alloc(6);
    head.writeUInt16LE(0x0001, 4); // UserType 0, flags: nullable
    parts.push(head);
    switch (c.type) {
      case 'int':
        parts.push(Buffer.from([0x26, 4]));
        break;
      case 'bigint':
        parts.push(Buffer.from([0x26, 8]));
        break;
      case 'bit':
        parts.push(Buffer.from([0x68, 1]));
        break;
      case 'float':
        parts.push(Buffer.from([0x6d, 8]));
        break;
      case 'nvarchar':
        parts.push(Buffer.from([0xe7, 0x40, 0x1f]), COLLATION);
        break; // max 8000 bytes
    }
    parts.push(bVarchar(c.name));
  }
  return Buffer.concat(parts);
}

/** ROW of one result set, values already in the column's JavaScript form. */
export function row(columns: ResultColumn[], values: unknown[]): Buffer {
  const parts: Buffer[] = [Buffer.from([TOKEN.ROW])];
  columns.forEach((c, i) => {
    const v = values[i];
    if (v === null || v === undefined) {
      parts.push(c.type === 'nvarchar' ? Buffer.from([0xff, 0xff]) : Buffer.from([0]));
      return;
    }
    switch (c.type) {
      case 'int': {
        const b = Buffer.alloc(5);
        b[0] = 4;
        b.writeInt32LE(Number(v), 1);
        parts.push(b);
        break;
      }
      case 'bigint': {
        const b = Buffer.alloc(9);
        b[0] = 8;
        b.writeBigInt64LE(BigInt(Math.trunc(Number(v))), 1);
        parts.push(b);
        break;
      }
      case 'bit':
        parts.push(Buffer.from([1, v ? 1 : 0]));
        break;
      case 'float': {
        const b = Buffer.alloc(9);
        b[0] = 8;
        b.writeDoubleLE(Number(v), 1);
        parts.push(b);
        break;
      }
      case 'nvarchar': {
        const data = ucs2(String(v).slice(0, 4000));
        const head = Buffer.alloc(2);
        head.writeUInt16LE(data.length);
        parts.push(head, data);
        break;
      }
    }
  });
  return Buffer.concat(parts);
}

/** RETURNSTATUS: a procedure's return code. */
export function returnStatus(value: number): Buffer {
  const b = Buffer.alloc(5);
  b[0] = TOKEN.RETURNSTATUS;
  b.writeInt32LE(value, 1);
  return b;
}

/** RETURNVALUE of an int OUTPUT parameter (sp_prepare's handle). */
export function returnIntValue(ordinal: number, name: string, value: number): Buffer {
  const head = Buffer.alloc(3);
  head[0] = TOKEN.RETURNVALUE;
  head.writeUInt16LE(ordinal, 1);
  const meta = Buffer.alloc(7);
  meta[0] = 0x01; // status: output parameter
  meta.writeUInt16LE(0x0001, 5); // UserType 0 (4 bytes), flags: nullable
  const typed = Buffer.from([0x26, 4, 4, 0, 0, 0, 0]);
  typed.writeInt32LE(value, 3);
  return Buffer.concat([head, bVarchar(name), meta, typed]);
}
