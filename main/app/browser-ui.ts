/**
 * `npm run ui:browser`: the desktop UI in any browser, for machines where the Electron binary
 * cannot run (no download possible, a headless server). Same renderer, same IPC handlers and
 * argument checks as the Electron window, served on 127.0.0.1 by the web bridge. Plain Node.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openAppEngine } from './open-app-engine.js';
import { createAppContext } from './app-context.js';
import { createIpcHandlers } from './ipc-handlers.js';
import { startWebBridge } from './web-bridge.js';
import { stopWatchFolders } from './handlers/watch-folders.js';
import { resumeServiceChoice } from './handlers/settings-remote.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, port: { type: 'string', default: '0' } } });
const rendererDir = fileURLToPath(new URL('../../out/renderer', import.meta.url));
if (!existsSync(rendererDir)) {
  console.error('The renderer is not built yet: run `npm run build` first.');
  process.exit(2);
}
const { engine, partner, issuingOff, keyStore, keyLock, startIssuing } = await openAppEngine(values.data);
if (issuingOff) console.error(`Issuing is off: ${issuingOff}`);
// Without a keychain the app asks for the encrypted keys file's passphrase (keyLock).
const context = createAppContext({ engine, partner, issuingOff, keyStore, ...(keyLock ? { keyLock } : {}), ...(startIssuing ? { onKeysUnlocked: startIssuing } : {}) });
await resumeServiceChoice(context); // a remote connection in use stays in use
const bridge = await startWebBridge({
  handlers: createIpcHandlers(context),
  events: context.events,
  rendererDir,
  port: Number(values.port),
});
console.log(JSON.stringify({ url: bridge.url, data: engine.dataDir }));
/** For scripts/start.ts, which imports this module when Electron's binary is missing. */
export const url = bridge.url;

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void bridge.close().then(async () => {
      await stopWatchFolders();
      context.close();
      await engine.close();
      process.exit(0);
    });
  });
}
