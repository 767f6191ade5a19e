import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { bits, boolean, explicit, integer, octets, oid, sequence, set, time, tlv, utf8 } from './der.js';

/** The sandbox's TLS material: a test certificate authority and a server certificate it signed, as PEM files too. */
export interface TlsMaterial {
  /** The CA certificate (PEM): what NODE_EXTRA_CA_CERTS names. */
  ca: string;
  caFile: string;
  /** The server's key and certificate (PEM), for every emulator. */
  key: string;
  cert: string;
}

const ECDSA_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const DAY = 86_400_000;

const name = (cn: string) =>
  sequence(set(sequence(oid('2.5.4.10'), utf8('Analytics Workspace Sandbox'))), set(sequence(oid('2.5.4.3'), utf8(cn))));
const extension = (id: string, critical: boolean, value: Buffer) => sequence(oid(id), ...(critical ? [boolean(true)] : []), octets(value));
const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'der' });
const keyId = (key: KeyObject) => createHash('sha1').update(spki(key)).digest();
const pem = (label: string, der: Buffer) =>
  `-----BEGIN ${label}-----\n${der
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '')}\n-----END ${label}-----\n`;

/** A DNS name or an IP address as a subjectAltName GeneralName. */
function altName(host: string): Buffer {
  if (!isIP(host)) return tlv(0x82, Buffer.from(host, 'ascii'));
  if (isIP(host) === 4) return tlv(0x87, Buffer.from(host.split('.').map(Number)));
  const [head = '', tail = ''] = host.split('::');
  const groups = (s: string) => (s ? s.split(':') : []);
  const all = [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return tlv(0x87, Buffer.from(all.map((g) => g.padStart(4, '0')).join(''), 'hex'));
}

interface CertSpec {
  subject: string;
  issuer: string;
  publicKey: KeyObject;
  issuerKey: KeyObject;
  issuerKeyId: Buffer;
  days: number;
  extensions: Buffer[];
}

/** Signs an X.509 v3 certificate (ECDSA P-256 with SHA-256) and answers it as PEM. */
function certificate(spec: CertSpec): string {
  const serial = randomBytes(16);
  serial[0]! &= 0x7f;
  const now = Date.now();
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_SHA256,
    name(spec.issuer),
    sequence(time(new Date(now - DAY)), time(new Date(now + spec.days * DAY))),
    name(spec.subject),
    spki(spec.publicKey),
    explicit(3, sequence(...spec.extensions, extension('2.5.29.35', false, sequence(tlv(0x80, spec.issuerKeyId))))),
  );
  const signature = sign('sha256', tbs, { key: spec.issuerKey, dsaEncoding: 'der' });
  return pem('CERTIFICATE', sequence(tbs, ECDSA_SHA256, bits(signature)));
}

/** The CA kept in `dir` when it is still valid for a while, else a new one written there. */
function certificateAuthority(dir: string): { cert: string; key: KeyObject } {
  const certFile = path.join(dir, 'ca.pem');
  const keyFile = path.join(dir, 'ca-key.pem');
  try {
    const cert = fs.readFileSync(certFile, 'utf8');
    const key = createPrivateKey(fs.readFileSync(keyFile, 'utf8'));
    const x = new X509Certificate(cert);
    if (x.ca && x.checkPrivateKey(key) && Date.parse(x.validTo) > Date.now() + 30 * DAY) return { cert, key };
  } catch {
    // Absent or unreadable: a new authority replaces it.
  }
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const id = keyId(publicKey);
  const cert = certificate({
    subject: 'Analytics Workspace Sandbox Test CA',
    issuer: 'Analytics Workspace Sandbox Test CA',
    publicKey,
    issuerKey: privateKey,
    issuerKeyId: id,
    days: 3650,
    extensions: [
      extension('2.5.29.19', true, sequence(boolean(true))),
      extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x01, 0x86]))), // digitalSignature, keyCertSign, cRLSign
      extension('2.5.29.14', false, octets(id)),
    ],
  });
  fs.writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  fs.writeFileSync(certFile, cert);
  return { cert, key: privateKey };
}

/**
 * The sandbox's test certificate authority (kept in `dir` and reused while valid, so an exported NODE_EXTRA_CA_CERTS
 * keeps working across restarts) and a new server certificate for the loopback names and addresses given.
 */
export function testCertificates(dir: string, hosts: string[]): TlsMaterial {
  fs.mkdirSync(dir, { recursive: true });
  const ca = certificateAuthority(dir);
  const caCert = new X509Certificate(ca.cert);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const cert = certificate({
    subject: hosts[0] ?? 'localhost',
    issuer: 'Analytics Workspace Sandbox Test CA',
    publicKey,
    issuerKey: ca.key,
    issuerKeyId: keyId(caCert.publicKey),
    days: 365,
    extensions: [
      extension('2.5.29.19', false, sequence()),
      extension('2.5.29.15', true, tlv(0x03, Buffer.from([0x07, 0x80]))), // digitalSignature
      extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'))), // serverAuth
      extension('2.5.29.17', false, sequence(...[...new Set(hosts)].map(altName))),
      extension('2.5.29.14', false, octets(keyId(publicKey))),
    ],
  });
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  fs.writeFileSync(path.join(dir, 'server-key.pem'), key, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'server.pem'), cert);
  return { ca: ca.cert, caFile: path.join(dir, 'ca.pem'), key, cert };
}
