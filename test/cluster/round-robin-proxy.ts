/**
 * A tiny HTTP load balancer on loopback: each request it receives goes to the next node in
 * turn, whatever connection it came on, so consecutive requests of one client land on different
 * nodes. It passes the Host header through (the nodes answer the balancer's address through
 * `--allowed-host`), streams bodies both ways, and sends nowhere a node taken out of the
 * rotation (as a real balancer does once the node's /readyz stops answering).
 */
import { createServer, request, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  /** The nodes' origins to rotate over, from the next request on. */
  setTargets(origins: readonly string[]): void;
  /** How many requests each origin was sent. */
  sent(): Map<string, number>;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  let targets: URL[] = [];
  let next = 0;
  const counts = new Map<string, number>();
  const agent = new Agent({ keepAlive: true });

  const forward = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    if (targets.length === 0) {
      outgoing.writeHead(502).end('no node to send to');
      return;
    }
    const target = targets[next++ % targets.length]!;
    counts.set(target.origin, (counts.get(target.origin) ?? 0) + 1);
    const upstream = request(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end(`node ${target.origin}: ${error.message}`);
      else outgoing.destroy(error);
    });
    incoming.pipe(upstream);
  };

  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    setTargets(origins) {
      targets = origins.map((o) => new URL(o));
    },
    sent: () => new Map(counts),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
