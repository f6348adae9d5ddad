/** Finds a TCP port that is free right now on a host. */
import { createServer } from 'node:net';

/** A port the OS considers free on `host`: bind port 0, read the port, close. */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ host, port: 0, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('could not determine a free port'))));
    });
  });
}
