/** What the sandbox reads from a LOGIN7 message (MS-TDS 2.2.6.4). */
export interface Login7 {
  tdsVersion: number;
  packetSize: number;
  hostName: string;
  userName: string;
  appName: string;
  serverName: string;
  database: string;
  /** Set when the FEDAUTH feature extension carries a SECURITYTOKEN (an Entra access token). */
  fedAuthToken?: string;
  /** FEDAUTH library other than SECURITYTOKEN (e.g. ADAL workflows the sandbox does not implement). */
  fedAuthLibrary?: number;
  features: number[];
}

const FEATURE_FEDAUTH = 0x02;
const FEATURE_TERMINATOR = 0xff;
const FEDAUTH_LIBRARY_SECURITYTOKEN = 0x01;
const OPTION_FLAGS3_EXTENSION = 0x10;

/** Parses a LOGIN7 payload: fixed header, offset/length string table, and the feature extension block. */
export function parseLogin7(b: Buffer): Login7 {
  if (b.length < 94) throw new Error(`LOGIN7 payload of ${b.length} bytes is shorter than its fixed part`);
  const text = (at: number) => {
    const offset = b.readUInt16LE(at);
    const chars = b.readUInt16LE(at + 2);
    return b.subarray(offset, offset + chars * 2).toString('ucs2');
  };
  const login: Login7 = {
    tdsVersion: b.readUInt32LE(4),
    packetSize: b.readUInt32LE(8),
    hostName: text(36),
    userName: text(40),
    appName: text(48),
    serverName: text(52),
    database: text(68),
    features: [],
  };
  if (b[27]! & OPTION_FLAGS3_EXTENSION) {
    const ibExtension = b.readUInt16LE(56);
    const cbExtension = b.readUInt16LE(58);
    if (cbExtension >= 4) readFeatures(b, b.readUInt32LE(ibExtension), login);
  }
  return login;
}

function readFeatures(b: Buffer, at: number, login: Login7) {
  while (at < b.length && b[at] !== FEATURE_TERMINATOR) {
    const id = b[at]!;
    const length = b.readUInt32LE(at + 1);
    const data = b.subarray(at + 5, at + 5 + length);
    login.features.push(id);
    if (id === FEATURE_FEDAUTH && data.length >= 1) {
      const library = data[0]! >> 1;
      if (library === FEDAUTH_LIBRARY_SECURITYTOKEN && data.length >= 5) {
        const tokenLength = data.readUInt32LE(1);
        login.fedAuthToken = data.subarray(5, 5 + tokenLength).toString('ucs2');
      } else login.fedAuthLibrary = library;
    }
    at += 5 + length;
  }
}
