/**
 * Requests a server refuses before it has read their body (a 401, or a form field rejected
 * ahead of the file) and whose connection it then closes: the client must either read the
 * refusal, or — when the connection broke before the request was sent whole, so nothing can
 * have been done — send it again.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError, type ServiceError } from '../../common/errors.js';
import { RemoteService } from '../../main/remote/index.js';
import { serveEngine, type ServedEngine, type ServedPartner } from './remote-fixture.js';
import { META, TOKEN_PATH } from './tiny-server.js';

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    expect(isServiceError(error), String(error)).toBe(true);
    return (error as ServiceError).id;
  }
}

describe('a request cut off while it is being sent', () => {
  it('is sent again when the connection broke before its body was sent whole', async () => {
    const sockets = new Set<Socket>();
    let uploads = 0;
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url === TOKEN_PATH) {
        req.resume();
        req.on('end', () => res.end(JSON.stringify({ access_token: 't', token_type: 'Bearer', expires_in: 300 })));
        return;
      }
      uploads += 1;
      // The first upload is cut at once, its body unread; the second is read and answered.
      if (uploads === 1) {
        req.socket.destroy();
        return;
      }
      let size = 0;
      req.on('data', (chunk: Buffer) => (size += chunk.length));
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ result: { file_hash: String(size) }, meta: META }));
      });
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = mkdtempSync(join(tmpdir(), 'proofdesk-cut-'));
    const svc = new RemoteService({ baseUrl: `${origin}/api`, authUrl: origin, realm: 'proofdesk', clientId: 'c', clientSecret: 's', tries: 1 });
    try {
      writeFileSync(join(dir, 'big.bin'), randomBytes(16 * 1024 * 1024));
      const answer = await svc.uploadFile({ file: { path: join(dir, 'big.bin') } });
      expect(Number(answer.file_hash)).toBeGreaterThan(16 * 1024 * 1024);
      expect(uploads).toBe(2);
    } finally {
      await svc.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('serve refusing a form field ahead of the file', () => {
  let served: ServedEngine;
  let partner: ServedPartner;
  let dir: string;

  beforeAll(async () => {
    served = await serveEngine();
    partner = await served.addPartner('Early Refusal University');
    dir = mkdtempSync(join(tmpdir(), 'proofdesk-early-'));
  });
  afterAll(async () => {
    await served?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function refusals(size: number, times: number): Promise<Record<string, number>> {
    const svc = served.remote(partner, { tries: 1 });
    const path = join(dir, `${size}.bin`);
    writeFileSync(path, randomBytes(size));
    const seen: Record<string, number> = {};
    for (let i = 0; i < times; i++) {
      const id = await outcome(svc.createAndScheduleCredential('local', { file: { path }, credential_details: { title: 'X', metadata: {}, tags: ['no!'] } }));
      seen[id] = (seen[id] ?? 0) + 1;
    }
    return seen;
  }

  it('with a large file (256 KiB, 4 MiB), the refusal reaches the client every time', async () => {
    expect(await refusals(256 * 1024, 10)).toEqual({ invalid_tag: 10 });
    expect(await refusals(4 * 1024 * 1024, 5)).toEqual({ invalid_tag: 5 });
  });

  // A refusal before the body is read must not close the socket with the body unread: the
  // kernel would reset the connection and undici lose the answer (write EPIPE) for most small
  // uploads. The server reads and discards the rest (within bounds) before answering.
  it('with a small file (8–64 KiB), the refusal reaches the client every time', async () => {
    for (const size of [8 * 1024, 32 * 1024, 64 * 1024]) expect(await refusals(size, 10)).toEqual({ invalid_tag: 10 });
  });
});
