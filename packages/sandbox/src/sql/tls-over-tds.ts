import { Duplex } from 'node:stream';
import { TLSSocket, type SecureContext } from 'node:tls';

/** Two connected in-memory streams: what one side writes, the other reads. */
function duplexPair(): [Duplex, Duplex] {
  const sides: Duplex[] = [];
  const make = (other: () => Duplex) =>
    new Duplex({
      read() {},
      write(chunk, _enc, cb) {
        other().push(chunk);
        cb();
      },
      final(cb) {
        other().push(null);
        cb();
      },
    });
  sides.push(
    make(() => sides[1]!),
    make(() => sides[0]!),
  );
  return [sides[0]!, sides[1]!];
}

export interface TlsOverTdsIo {
  /** Server handshake bytes, to be sent to the client inside one PRELOGIN message. */
  toClientHandshake(b: Buffer): void;
  /** TLS records after the handshake, straight onto the socket. */
  toNetwork(b: Buffer): void;
  /** Decrypted bytes: TDS packets from the client. */
  cleartext(b: Buffer): void;
  failed(err: Error): void;
}

/**
 * TLS as TDS carries it (MS-TDS 3.3.5.1 / 3.2.5.1): handshake records travel inside PRELOGIN packets, one server
 * message answering each client message; once the handshake completes, TLS records flow directly on the socket.
 */
export class TlsOverTds {
  established = false;
  private readonly network: Duplex;
  private readonly tls: TLSSocket;
  private pending: Buffer[] = [];
  private flushTimer?: NodeJS.Timeout;

  constructor(
    secureContext: SecureContext,
    private readonly io: TlsOverTdsIo,
  ) {
    const [inner, outer] = duplexPair();
    this.network = outer;
    this.tls = new TLSSocket(inner, { isServer: true, secureContext });
    this.tls.on('secure', () => {
      // The server's last flight (ChangeCipherSpec, Finished) still goes in a PRELOGIN message.
      setTimeout(() => {
        this.flush();
        this.established = true;
      }, 5);
    });
    this.tls.on('data', (b: Buffer) => io.cleartext(b));
    this.tls.on('error', (err) => io.failed(err));
    outer.on('data', (b: Buffer) => {
      if (this.established) return io.toNetwork(b);
      this.pending.push(b);
      clearTimeout(this.flushTimer);
      // A flight is several records written in quick succession: send them as one message.
      this.flushTimer = setTimeout(() => this.flush(), 5);
    });
  }

  private flush() {
    clearTimeout(this.flushTimer);
    if (!this.pending.length) return;
    const flight = Buffer.concat(this.pending);
    this.pending = [];
    this.io.toClientHandshake(flight);
  }

  /** A PRELOGIN payload from the client during the handshake. */
  fromClientHandshake(payload: Buffer): void {
    this.network.write(payload);
  }

  /** Raw TLS records from the socket after the handshake. */
  fromNetwork(chunk: Buffer): void {
    this.network.write(chunk);
  }

  /** TDS packets to encrypt and send. */
  writeCleartext(b: Buffer): void {
    this.tls.write(b);
  }
}
