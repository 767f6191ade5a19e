import pg from 'pg';

/**
 * A process's PostgreSQL notifications over one connection of its own: LISTEN on every channel asked for, connected
 * again (every `retryMs`) when the connection is lost. While it is down nothing another process announces is heard, so
 * `live` is false and the `down` handlers ran: a cache that relies on these notifications keeps nothing until it is back.
 */
export class ChangeFeed {
  private client?: pg.Client;
  private connecting?: Promise<void>;
  /** The channels the current connection listens on. */
  private listening = new Set<string>();
  private readonly handlers = new Map<string, Array<(payload: string) => void>>();
  private readonly onDown: Array<() => void> = [];
  private readonly onUp: Array<() => void> = [];
  private closed = false;
  /** The server process of the connection while it is up (what a test terminates to lose it). */
  backendPid?: number;

  constructor(
    private readonly url: string,
    private readonly retryMs = 1000,
  ) {}

  /** True while the connection is up and listening on every channel. */
  get live(): boolean {
    return this.client !== undefined;
  }

  /** Runs `down` when the connection is lost and `up` when it listens again. */
  watch(down: () => void, up: () => void): void {
    this.onDown.push(down);
    this.onUp.push(up);
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<void> {
    const known = this.handlers.get(channel);
    if (known) known.push(onPayload);
    else this.handlers.set(channel, [onPayload]);
    if (!this.client) await this.connect();
    if (this.client && !this.listening.has(channel)) {
      await this.client.query(`LISTEN ${channel}`);
      this.listening.add(channel);
    }
  }

  /** Connects once at a time: a listen and a reconnect asking together share one connection. */
  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'svc change feed' });
    client.on('notification', (n) => {
      for (const fn of this.handlers.get(n.channel) ?? []) fn(n.payload ?? '');
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    const listening = new Set(this.handlers.keys());
    try {
      for (const channel of listening) await client.query(`LISTEN ${channel}`);
      this.backendPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) return void (await client.end().catch(() => undefined));
    this.client = client;
    this.listening = listening;
    for (const fn of this.onUp) fn();
  }

  private lost(client: pg.Client): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.backendPid = undefined;
    for (const fn of this.onDown) fn();
    client.end().catch(() => undefined);
    this.reconnect();
  }

  private reconnect(): void {
    if (this.closed) return;
    setTimeout(() => {
      if (!this.client) this.connect().catch(() => this.reconnect());
    }, this.retryMs).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
