const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  count: number;
  sum: number;
  buckets: number[];
}

/** Prometheus text metrics: request counts and latency by route, plus gauges other domains register. */
export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, Series>();
  private readonly gauges = new Map<string, { help: string; read: () => Array<{ labels: Record<string, string>; value: number }> }>();
  private readonly counters = new Map<string, { help: string; values: Map<string, number> }>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `method="${method}",route="${route}",status="${status}"`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    const lkey = `method="${method}",route="${route}"`;
    const s = this.latency.get(lkey) ?? { count: 0, sum: 0, buckets: BUCKETS.map(() => 0) };
    s.count += 1;
    s.sum += seconds;
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) s.buckets[i]! += 1;
    });
    this.latency.set(lkey, s);
  }

  /** Registers a gauge read at scrape time. */
  gauge(name: string, help: string, read: () => Array<{ labels: Record<string, string>; value: number }>): void {
    this.gauges.set(name, { help, read });
  }

  /** Adds to a labelled counter, creating it on first use. */
  count(name: string, help: string, labels: Record<string, string>, by = 1): void {
    const c = this.counters.get(name) ?? { help, values: new Map() };
    const key = Object.entries(labels)
      .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
      .join(',');
    c.values.set(key, (c.values.get(key) ?? 0) + by);
    this.counters.set(name, c);
  }

  render(): string {
    const lines: string[] = ['# HELP svc_http_requests_total HTTP requests by route and status', '# TYPE svc_http_requests_total counter'];
    for (const [k, v] of this.requests) lines.push(`svc_http_requests_total{${k}} ${v}`);
    lines.push(
      '# HELP svc_http_request_duration_seconds HTTP request latency by route',
      '# TYPE svc_http_request_duration_seconds histogram',
    );
    for (const [k, s] of this.latency) {
      for (const [i, b] of BUCKETS.entries()) lines.push(`svc_http_request_duration_seconds_bucket{${k},le="${b}"} ${s.buckets[i]}`);
      lines.push(`svc_http_request_duration_seconds_bucket{${k},le="+Inf"} ${s.count}`);
      lines.push(`svc_http_request_duration_seconds_sum{${k}} ${s.sum}`, `svc_http_request_duration_seconds_count{${k}} ${s.count}`);
    }
    for (const [name, c] of this.counters) {
      lines.push(`# HELP ${name} ${c.help}`, `# TYPE ${name} counter`);
      for (const [k, v] of c.values) lines.push(`${name}{${k}} ${v}`);
    }
    for (const [name, g] of this.gauges) {
      lines.push(`# HELP ${name} ${g.help}`, `# TYPE ${name} gauge`);
      for (const { labels, value } of g.read()) {
        const l = Object.entries(labels)
          .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
          .join(',');
        lines.push(`${name}${l ? `{${l}}` : ''} ${value}`);
      }
    }
    return lines.join('\n') + '\n';
  }
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
