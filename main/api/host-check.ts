/**
 * Refuses requests whose Host header names another server: a web page elsewhere cannot reach
 * this loopback server through a DNS name it rebinds to 127.0.0.1 (DNS rebinding), since its
 * requests carry that name. Allowed: 127.0.0.1, localhost and [::1] with this server's port,
 * the host it was told to bind to, and the operator's `allowedHosts`.
 */
import { ServiceError } from '../../common/errors.js';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** `host` as it appears in a Host header (IPv6 literals in brackets), lowercase. */
function hostName(host: string): string {
  const lower = host.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

/** Splits a Host header into name and port (`undefined` when it has none). */
function splitHost(header: string): { name: string; port: string | undefined } {
  const lower = header.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(lower);
  if (!match) return { name: '', port: undefined };
  return { name: match[1]!, port: match[2] };
}

export class HostCheck {
  private readonly names = new Set<string>(LOOPBACK_NAMES);
  /** Operator entries: `name` (any port) or `name:port` (exactly). */
  private readonly anyPort = new Set<string>();
  private readonly exact = new Set<string>();
  /** The port this server listens on; until then (app.inject), the loopback names match any port. */
  port: number | undefined;

  /** `defaultPort`: what a Host header without a port means (80, or 443 for HTTPS). */
  constructor(
    bindHost: string | undefined,
    allowedHosts: readonly string[] = [],
    private readonly defaultPort = 80,
  ) {
    if (bindHost && bindHost !== '0.0.0.0' && bindHost !== '::') this.names.add(hostName(bindHost));
    for (const entry of allowedHosts) {
      const { name, port } = splitHost(entry);
      if (!name) throw new TypeError(`Not a host name: ${JSON.stringify(entry)} (give NAME or NAME:PORT)`);
      if (port === undefined) this.anyPort.add(name);
      else this.exact.add(`${name}:${port}`);
    }
  }

  /** Throws `not_found` unless the Host header names this server. */
  check(header: string | undefined): void {
    if (header !== undefined && this.allows(header)) return;
    throw new ServiceError('not_found', 'Unknown host: this server answers only to its own address (see --allowed-host)');
  }

  allows(header: string): boolean {
    const { name, port } = splitHost(header);
    if (!name) return false;
    if (this.anyPort.has(name)) return true;
    if (port !== undefined && this.exact.has(`${name}:${port}`)) return true;
    if (!this.names.has(name)) return false;
    if (this.port === undefined) return true;
    const effective = port ?? String(this.defaultPort);
    return effective === String(this.port);
  }
}
