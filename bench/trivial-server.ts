/**
 * The REST benchmark's peer: a fastify server with one trivial route per method and nothing
 * else, in a process of its own like `serve`, loaded by the same client. The ratio of a REST
 * figure to this one says what our server costs beyond fastify and HTTP on this machine now.
 * Prints `{"base_url": ...}` on its first line, like `serve`.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/trivial', async () => ({ ok: true }));
app.post('/trivial', async (_request, reply) => reply.code(201).send({ ok: true }));
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address !== null ? address.port : 0;
process.stdout.write(`${JSON.stringify({ base_url: `http://127.0.0.1:${port}` })}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
