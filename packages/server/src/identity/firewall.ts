import { isIPv4 } from 'node:net';
import type { FirewallRule } from '../backends/data-platform.js';

const ipNumber = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);

/** The rules whose range holds the egress address (IPv4). */
export function rulesAllowing(rules: FirewallRule[], ip: string): FirewallRule[] {
  if (!isIPv4(ip)) return [];
  const n = ipNumber(ip);
  return rules.filter(
    (r) => isIPv4(r.startIpAddress) && isIPv4(r.endIpAddress) && ipNumber(r.startIpAddress) <= n && n <= ipNumber(r.endIpAddress),
  );
}
