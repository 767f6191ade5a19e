/** TDS packet types (MS-TDS 2.2.3.1.1) the sandbox endpoint reads or writes. */
export const PacketType = {
  SQL_BATCH: 0x01,
  RPC: 0x03,
  TABULAR_RESULT: 0x04,
  ATTENTION: 0x06,
  LOGIN7: 0x10,
  PRELOGIN: 0x12,
} as const;

const HEADER_LENGTH = 8;
const STATUS_EOM = 0x01;

/** One complete TDS message: the type of its packets and their payloads joined. */
export interface TdsMessage {
  type: number;
  payload: Buffer;
}

/** Reassembles messages from the packet stream of one connection (packets end a message with status EOM). */
export class MessageReader {
  private buffered: Buffer = Buffer.alloc(0);
  private parts: Buffer[] = [];

  /** Feeds bytes from the socket; returns the messages they complete. */
  push(chunk: Buffer): TdsMessage[] {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    const done: TdsMessage[] = [];
    while (this.buffered.length >= HEADER_LENGTH) {
      const length = this.buffered.readUInt16BE(2);
      if (length < HEADER_LENGTH) throw new Error(`TDS packet length ${length} is shorter than its header`);
      if (this.buffered.length < length) break;
      const type = this.buffered[0]!;
      const status = this.buffered[1]!;
      this.parts.push(this.buffered.subarray(HEADER_LENGTH, length));
      this.buffered = this.buffered.subarray(length);
      if (status & STATUS_EOM) {
        done.push({ type, payload: Buffer.concat(this.parts) });
        this.parts = [];
      }
    }
    return done;
  }
}

/** Splits a message into packets no longer than the negotiated packet size. */
export function encodeMessage(type: number, payload: Buffer, packetSize = 4096, spid = 0x33): Buffer {
  const room = packetSize - HEADER_LENGTH;
  const packets: Buffer[] = [];
  let packetId = 1;
  let offset = 0;
  do {
    const body = payload.subarray(offset, offset + room);
    offset += body.length;
    const header = Buffer.alloc(HEADER_LENGTH);
    header[0] = type;
    header[1] = offset >= payload.length ? STATUS_EOM : 0;
    header.writeUInt16BE(HEADER_LENGTH + body.length, 2);
    header.writeUInt16BE(spid, 4);
    header[6] = packetId++ % 256;
    packets.push(header, body);
  } while (offset < payload.length);
  return Buffer.concat(packets);
}

/** The SQL text of a SQL_BATCH payload, after its ALL_HEADERS block (TDS 7.2+). */
export function batchText(payload: Buffer): string {
  const total = payload.length >= 4 ? payload.readUInt32LE(0) : 0;
  // ALL_HEADERS is present when its length field is plausible (at least 4 and within the payload).
  const start = total >= 4 && total <= payload.length && total < 0x10000 ? total : 0;
  return payload.subarray(start).toString('ucs2');
}
