/** PRELOGIN option tokens (MS-TDS 2.2.6.5). */
export const PreloginOption = {
  VERSION: 0x00,
  ENCRYPTION: 0x01,
  INSTOPT: 0x02,
  THREADID: 0x03,
  MARS: 0x04,
  TRACEID: 0x05,
  FEDAUTHREQUIRED: 0x06,
  TERMINATOR: 0xff,
} as const;

/** ENCRYPTION values: off (login only), on, not supported, required. */
export const Encryption = { OFF: 0x00, ON: 0x01, NOT_SUP: 0x02, REQ: 0x03 } as const;

/** Reads the option table of a PRELOGIN payload into option → data. */
export function parsePrelogin(payload: Buffer): Map<number, Buffer> {
  const options = new Map<number, Buffer>();
  let at = 0;
  while (at < payload.length && payload[at] !== PreloginOption.TERMINATOR) {
    const offset = payload.readUInt16BE(at + 1);
    const length = payload.readUInt16BE(at + 3);
    options.set(payload[at]!, payload.subarray(offset, offset + length));
    at += 5;
  }
  return options;
}

/** Builds a PRELOGIN payload from ordered options. */
function buildPrelogin(options: Array<[number, Buffer]>): Buffer {
  const tableLength = options.length * 5 + 1;
  const table = Buffer.alloc(tableLength);
  let dataOffset = tableLength;
  options.forEach(([token, data], i) => {
    table[i * 5] = token;
    table.writeUInt16BE(dataOffset, i * 5 + 1);
    table.writeUInt16BE(data.length, i * 5 + 3);
    dataOffset += data.length;
  });
  table[tableLength - 1] = PreloginOption.TERMINATOR;
  return Buffer.concat([table, ...options.map(([, d]) => d)]);
}

/** The server's PRELOGIN answer: version 16.0.1000, the chosen encryption, no instance, no MARS. */
export function preloginResponse(encryption: number, fedAuthRequired: boolean | undefined): Buffer {
  const version = Buffer.from([16, 0, 0x03, 0xe8, 0, 0]);
  const options: Array<[number, Buffer]> = [
    [PreloginOption.VERSION, version],
    [PreloginOption.ENCRYPTION, Buffer.from([encryption])],
    [PreloginOption.INSTOPT, Buffer.from([0])],
    [PreloginOption.THREADID, Buffer.alloc(0)],
    [PreloginOption.MARS, Buffer.from([0])],
  ];
  if (fedAuthRequired !== undefined) options.push([PreloginOption.FEDAUTHREQUIRED, Buffer.from([fedAuthRequired ? 1 : 0])]);
  return buildPrelogin(options);
}
