import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { SecureContext } from 'node:tls';
import type { Emitted, Session, SqlEngine } from './engine.js';
import { faultError, SqlServerError, sqlError } from './errors.js';
import { parseLogin7 } from './protocol/login7.js';
import { batchText, encodeMessage, MessageReader, PacketType, type TdsMessage } from './protocol/packets.js';
import { Encryption, parsePrelogin, PreloginOption, preloginResponse } from './protocol/prelogin.js';
import { parseRpc } from './protocol/rpc.js';
import {
  collationChange,
  colMetadata,
  done,
  DoneStatus,
  envChange,
  featureExtAck,
  loginAck,
  message,
  returnIntValue,
  returnStatus,
  row,
} from './protocol/tokens.js';
import { RpcCalls, type RpcOutcome } from './rpc-calls.js';
import { TlsOverTds } from './tls-over-tds.js';

/** The claims the endpoint needs from a verified Entra access token. */
export interface TokenClaims {
  aud: string;
  oid: string;
  appid?: string;
  name?: string;
}

/** A fault rule as the sandbox's fault registry answers it (HTTP-shaped; errorCode carries the SQL error number). */
export interface SqlFault {
  id: string;
  reset?: boolean;
  delayMs?: number;
  errorCode?: string;
  message?: string;
  status?: number;
}

/** What a connection needs from its server. */
export interface ConnectionHost {
  engine: SqlEngine;
  serverName: string;
  audiences: string[];
  verifyToken(jwt: string): Promise<TokenClaims>;
  /** The database user a verified principal maps to in a database ('dbo' for an Entra admin), or undefined. */
  userFor(database: string, claims: TokenClaims): string | undefined;
  hasDatabase(name: string): boolean;
  defaultDatabase: string;
  pausedUntil(): number;
  fault(method: SqlRequestEvent['method'], path: string): SqlFault | undefined;
  secureContext?: SecureContext;
  requireEncryption: boolean;
  onLogin?(event: { database: string; principal: string; ok: boolean; number?: number; encrypted: boolean }): void;
  /** Brings hosted databases up to date (databases mirrored from elsewhere) before a login or batch. */
  refresh?(): void;
  /** Added delay before each login and batch, in milliseconds. */
  latencyMs?(): number;
  /** Every login and batch once answered: the request log's entry. */
  onRequest?(event: SqlRequestEvent): void;
}

/** One login or batch as the request log records it. */
export interface SqlRequestEvent {
  method: 'LOGIN' | 'BATCH' | 'RPC';
  database: string;
  /** The batch's T-SQL, or the RPC's procedure and statement (empty for a login). */
  text: string;
  /** performance.now() when it arrived. */
  started: number;
  /** Object id of the verified caller, if any. */
  identity?: string;
  /** Number of the first error answered. */
  error?: number;
  /** The connection was reset (by a fault rule) without an answer. */
  reset?: boolean;
  faultId?: string;
}

const FEATURE_FEDAUTH = 0x02;
const sameAudience = (a: string, b: string) => a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();
const principalOf = (c: TokenClaims) => c.name ?? c.appid ?? c.oid;

/** One client connection: PRELOGIN, optional TLS, LOGIN7 with FEDAUTH, then SQL batches. */
export class TdsConnection {
  private readonly reader = new MessageReader();
  private queue: Promise<void> = Promise.resolve();
  private packetSize = 4096;
  private session?: Session;
  private identity?: string;
  private tls?: TlsOverTds;
  private rpcCalls: RpcCalls;
  private write: (b: Buffer) => void;

  constructor(
    private readonly socket: Socket,
    private readonly host: ConnectionHost,
  ) {
    this.write = (b) => {
      if (!socket.destroyed) socket.write(b);
    };
    this.rpcCalls = new RpcCalls(host.engine);
    socket.on('data', (chunk) => this.receive(chunk));
    socket.on('error', () => socket.destroy());
  }

  private receive(chunk: Buffer) {
    if (this.tls?.established) return this.tls.fromNetwork(chunk);
    this.feed(chunk);
  }

  private feed(chunk: Buffer) {
    let messages: TdsMessage[];
    try {
      messages = this.reader.push(chunk);
    } catch {
      this.socket.destroy();
      return;
    }
    for (const m of messages) this.queue = this.queue.then(() => this.handle(m)).catch(() => void this.socket.destroy());
  }

  private send(type: number, payload: Buffer) {
    this.write(encodeMessage(type, payload, this.packetSize));
  }

  private async handle(m: TdsMessage): Promise<void> {
    if (this.tls && !this.tls.established) return this.tls.fromClientHandshake(m.payload);
    switch (m.type) {
      case PacketType.PRELOGIN:
        return this.prelogin(m.payload);
      case PacketType.LOGIN7:
        return this.login(m.payload);
      case PacketType.SQL_BATCH:
        return this.batch(batchText(m.payload));
      case PacketType.ATTENTION:
        return this.send(PacketType.TABULAR_RESULT, done(DoneStatus.ATTN));
      case PacketType.RPC:
        return this.rpc(m.payload);
      default:
        this.socket.destroy();
    }
  }

  private prelogin(payload: Buffer) {
    const options = parsePrelogin(payload);
    const client = options.get(PreloginOption.ENCRYPTION)?.[0] ?? Encryption.NOT_SUP;
    const wantsTls = client === Encryption.ON || client === Encryption.REQ;
    let answer: number = Encryption.NOT_SUP;
    if (this.host.secureContext && (wantsTls || this.host.requireEncryption)) answer = wantsTls ? Encryption.ON : Encryption.REQ;
    const fedAuth = options.has(PreloginOption.FEDAUTHREQUIRED) ? true : undefined;
    this.send(PacketType.TABULAR_RESULT, preloginResponse(answer, fedAuth));
    if (answer === Encryption.ON) {
      this.tls = new TlsOverTds(this.host.secureContext!, {
        toClientHandshake: (b) => {
          if (!this.socket.destroyed) this.socket.write(encodeMessage(PacketType.PRELOGIN, b, this.packetSize));
        },
        toNetwork: (b) => {
          if (!this.socket.destroyed) this.socket.write(b);
        },
        cleartext: (b) => this.feed(b),
        failed: () => this.socket.destroy(),
      });
      this.write = (b) => this.tls!.writeCleartext(b);
    }
  }

  private async login(payload: Buffer) {
    const login = parseLogin7(payload);
    this.packetSize = Math.min(Math.max(login.packetSize || 4096, 512), 32767);
    const database = login.database || this.host.defaultDatabase;
    const started = performance.now();
    const record = (e: Partial<SqlRequestEvent>) =>
      this.host.onRequest?.({ method: 'LOGIN', database, text: '', started, faultId: fault?.id, ...e });
    const fail = (errors: SqlServerError[], principal = '', identity?: string) => {
      this.host.onLogin?.({
        database,
        principal,
        ok: false,
        number: errors[errors.length - 1]!.number,
        encrypted: Boolean(this.tls?.established),
      });
      record({ error: errors[errors.length - 1]!.number, identity });
      this.reply(
        errors.map((error) => ({ t: 'error' as const, error })),
        true,
      );
      this.socket.end();
    };
    await this.delay();
    this.host.refresh?.();
    const fault = this.host.fault('LOGIN', `/${database}`);
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault?.reset) return void (record({ reset: true }), this.socket.destroy());
    if (fault?.errorCode) return fail([faultError(Number(fault.errorCode), fault.message, database)]);
    if (Date.now() < this.host.pausedUntil())
      return fail([sqlError.unavailable(database, this.host.serverName, randomUUID().toUpperCase())]);
    if (!login.fedAuthToken)
      return fail([
        login.fedAuthLibrary !== undefined
          ? sqlError.unsupported('federated authentication workflows other than an access token')
          : sqlError.loginFailed(),
      ]);
    let claims: TokenClaims;
    try {
      claims = await this.host.verifyToken(login.fedAuthToken);
    } catch {
      return fail([sqlError.loginFailed()]);
    }
    if (!this.host.audiences.some((a) => sameAudience(a, String(claims.aud))))
      return fail([sqlError.loginFailed()], principalOf(claims), claims.oid);
    if (!this.host.hasDatabase(database))
      return fail([sqlError.cannotOpenDatabase(database), sqlError.loginFailed()], principalOf(claims), claims.oid);
    const user = this.host.userFor(database, claims);
    if (!user) return fail([sqlError.loginFailed()], principalOf(claims), claims.oid);
    this.session = { database, user, login: principalOf(claims) };
    this.identity = claims.oid;
    this.host.onLogin?.({ database, principal: principalOf(claims), ok: true, encrypted: Boolean(this.tls?.established) });
    record({ identity: claims.oid });
    const size = String(this.packetSize);
    this.send(
      PacketType.TABULAR_RESULT,
      Buffer.concat([
        envChange(1, database, 'master'),
        message({
          number: 5701,
          state: 2,
          class: 0,
          message: `Changed database context to '${database}'.`,
          serverName: this.host.serverName,
        }),
        collationChange(),
        envChange(2, 'us_english', ''),
        message({ number: 5703, state: 1, class: 0, message: 'Changed language setting to us_english.', serverName: this.host.serverName }),
        loginAck(),
        envChange(4, size, size),
        featureExtAck([[FEATURE_FEDAUTH, Buffer.alloc(0)]]),
        done(DoneStatus.FINAL),
      ]),
    );
  }

  private async batch(sql: string) {
    await this.request('BATCH', sql, sql, () => ({ items: this.host.engine.run(this.session!, sql), outputs: [], text: sql }));
  }

  /** An RPC (sp_executesql, sp_prepare/sp_execute/sp_unprepare): run as its statement with the parameters bound. */
  private async rpc(payload: Buffer) {
    let parsed: ReturnType<typeof parseRpc> | undefined;
    let parseError: SqlServerError | undefined;
    try {
      parsed = parseRpc(payload);
    } catch (err) {
      parseError = sqlError.unsupported(`RPC parameters of this kind (${(err as Error).message})`);
    }
    const statement = parsed?.parameters.find((p) => typeof p.value === 'string')?.value as string | undefined;
    const label = `${parsed?.procedure ?? 'rpc'} ${statement ?? ''}`.trim();
    await this.request(
      'RPC',
      statement ?? '',
      label,
      () => {
        if (parseError) throw parseError;
        return this.rpcCalls.run(this.session!, parsed!);
      },
      true,
    );
  }

  /** One request after login: latency, fault rules, the engine, the request log, then the answer. */
  private async request(method: 'BATCH' | 'RPC', faultText: string, logText: string, execute: () => RpcOutcome, proc = false) {
    if (!this.session) return void this.socket.destroy();
    const started = performance.now();
    const database = this.session.database;
    await this.delay();
    this.host.refresh?.();
    const fault = this.host.fault(method, `/${database}/${method === 'BATCH' ? 'batch' : 'rpc'}/${faultText}`);
    const record = (e: Partial<SqlRequestEvent>) =>
      this.host.onRequest?.({ method, database, text: logText, started, identity: this.identity, faultId: fault?.id, ...e });
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault?.reset) return void (record({ reset: true }), this.socket.destroy());
    let outcome: RpcOutcome;
    try {
      outcome = fault?.errorCode
        ? { items: [{ t: 'error', error: faultError(Number(fault.errorCode), fault.message, database) }], outputs: [], text: logText }
        : execute();
    } catch (err) {
      if (!(err instanceof SqlServerError)) throw err;
      outcome = { items: [{ t: 'error', error: err }], outputs: [], text: logText };
    }
    const firstError = outcome.items.find((i): i is Emitted & { t: 'error' } => i.t === 'error');
    record({ error: firstError?.error.number });
    this.reply(outcome.items, false, proc ? outcome : undefined);
  }

  private async delay() {
    const ms = this.host.latencyMs?.() ?? 0;
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
  }

  /**
   * Writes the results as tokens. A batch: every statement ends in DONE, the last without DONE_MORE. An RPC: each
   * statement ends in DONEINPROC, then the OUTPUT values, RETURNSTATUS and a final DONEPROC, as SQL Server answers.
   */
  private reply(items: Emitted[], login = false, proc?: RpcOutcome) {
    const kind = proc ? ('inProc' as const) : ('batch' as const);
    const parts: Buffer[] = [];
    const dones: number[] = [];
    for (const it of items) {
      if (it.t === 'rows') {
        parts.push(colMetadata(it.columns), ...it.rows.map((r) => row(it.columns, r)));
        continue;
      }
      if (it.t === 'info') {
        parts.push(message({ ...it.message, serverName: this.host.serverName }));
        continue;
      }
      if (it.t === 'error') {
        const e = it.error;
        parts.push(
          message({
            number: e.number,
            state: e.state,
            class: e.severity,
            message: e.message,
            serverName: this.host.serverName,
            lineNumber: login ? 65536 : 1,
          }),
        );
        if (login) continue;
        dones.push(parts.length);
        parts.push(done(DoneStatus.ERROR | DoneStatus.MORE, 0, 0xc1, kind));
        continue;
      }
      dones.push(parts.length);
      parts.push(done(DoneStatus.MORE | (it.rowCount !== undefined ? DoneStatus.COUNT : 0), it.rowCount ?? 0, 0xc1, kind));
    }
    if (proc) {
      const failed = items.some((i) => i.t === 'error');
      for (const o of proc.outputs) parts.push(returnIntValue(o.ordinal, o.name, o.value));
      parts.push(returnStatus(failed ? -6 : 0), done(failed ? DoneStatus.ERROR : DoneStatus.FINAL, 0, 0xe0, 'proc'));
      return this.send(PacketType.TABULAR_RESULT, Buffer.concat(parts));
    }
    const last = dones[dones.length - 1];
    if (last === undefined) parts.push(done(items.some((i) => i.t === 'error') ? DoneStatus.ERROR : DoneStatus.FINAL));
    else parts[last]!.writeUInt16LE(parts[last]!.readUInt16LE(1) & ~DoneStatus.MORE, 1);
    this.send(PacketType.TABULAR_RESULT, Buffer.concat(parts));
  }
}
