/**
 * Run as a separate process by anvil.test.ts: starts anvil on the directory given as argv[2],
 * prints its pid as one JSON line, then idles until killed, never stopping anvil itself.
 */
import { startAnvil } from '../../main/chain/anvil.js';

const node = await startAnvil({ stateDir: process.argv[2]! });
process.stdout.write(`${JSON.stringify({ pid: node.pid, rpcUrl: node.rpcUrl })}\n`);
setInterval(() => undefined, 60_000);
