/**
 * The preload bridge: exposes `window.proofdesk`, one named function per channel of the IPC
 * contract plus `onEvent` for main's one event channel, and nothing else (no ipcRenderer, no
 * Node). Runs sandboxed, bundled as CommonJS.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_CHANNELS, bridgeName, type IpcChannel, type ProofdeskBridge } from '../common/ipc-contract.js';
import { decodeIpcError, encodeIpcError } from '../common/errors.js';
import { APP_EVENT_CHANNEL, type AppEvent } from '../common/tasks.js';
import './file-paths.js'; // window.proofdeskFiles (webUtils.getPathForFile)

function invoke(channel: IpcChannel, args: unknown[]): Promise<unknown> {
  return ipcRenderer.invoke(channel, ...args).catch((error: unknown) => {
    // Electron wraps main's message ("Error invoking remote method ...: Error: <encoded>");
    // decode it to get the ServiceError back. contextBridge then copies a thrown error with
    // its message only (custom fields such as `id` are lost), so what crosses to the page is
    // an Error carrying the clean encoded form, which the renderer decodes again.
    const decoded = decodeIpcError(error instanceof Error ? error.message : String(error));
    throw new Error(encodeIpcError(decoded));
  });
}

/** The page gets the event only, never Electron's IpcRendererEvent (it holds the sender). */
function onEvent(listener: (event: AppEvent) => void): () => void {
  const wrapped = (_event: IpcRendererEvent, payload: AppEvent) => listener(payload);
  ipcRenderer.on(APP_EVENT_CHANNEL, wrapped);
  return () => {
    ipcRenderer.removeListener(APP_EVENT_CHANNEL, wrapped);
  };
}

const bridge = {
  ...Object.fromEntries(IPC_CHANNELS.map((channel) => [bridgeName(channel), (...args: unknown[]) => invoke(channel, args)])),
  onEvent,
} as ProofdeskBridge;

contextBridge.exposeInMainWorld('proofdesk', bridge);
