/**
 * The server's connections, so that closing it is graceful on every transport and can be cut
 * short. Node 20 ends idle keep-alive connections of a plain HTTP server on close (fastify asks
 * it to), but not those of an HTTPS/HTTP2 server: HTTP/2 sessions and HTTP/1.1 connections
 * that wait for their next request would keep the server from stopping.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2Session } from 'node:http2';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

const tracked = new WeakMap<FastifyInstance, { sockets: Set<Socket>; sessions: Set<Http2Session> }>();

/**
 * On close: each HTTP/2 session finishes its streams and takes no new one (GOAWAY); each
 * HTTP/1.1 connection with no request in flight is ended, one with a request once it is answered.
 */
export function trackConnections(app: FastifyInstance): void {
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  const busy = new Map<Socket, number>();
  let closing = false;
  tracked.set(app, { sockets, sessions });
  const server = app.server;
  const connectionEvent = 'setSecureContext' in server ? 'secureConnection' : 'connection';
  server.on(connectionEvent, (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      busy.delete(socket);
    });
  });
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.httpVersionMajor >= 2) return;
    const socket = request.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (busy.get(socket) ?? 1) - 1;
      busy.set(socket, left);
      // Its request came before closing, so its answer kept the connection alive: end it now.
      if (closing && left === 0 && !socket.destroyed) socket.end();
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const session of sessions) session.close();
    for (const socket of sockets) if (!(busy.get(socket) ?? 0) && !socket.destroyed && !isHttp2(socket, sessions)) socket.end();
  });
}

/** Whether this socket carries an HTTP/2 session (which its session's close ends). */
function isHttp2(socket: Socket, sessions: Set<Http2Session>): boolean {
  for (const session of sessions) if (session.socket === socket) return true;
  return false;
}

/** Destroys every connection now: requests in flight get no answer. */
export function dropConnections(app: FastifyInstance): void {
  const known = tracked.get(app);
  if (!known) return;
  for (const session of known.sessions) session.destroy();
  for (const socket of known.sockets) socket.destroy();
}
