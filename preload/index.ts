/**
 * The preload bridge: exposes `window.proofdesk`, one named function per channel of the IPC
 * contract, and nothing else (no ipcRenderer, no Node). Runs sandboxed, bundled as CommonJS.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CHANNELS, bridgeName, type IpcChannel, type ProofdeskBridge } from '../common/ipc-contract.js';
import { decodeIpcError, encodeIpcError } from '../common/errors.js';

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

const bridge = Object.fromEntries(
  IPC_CHANNELS.map((channel) => [bridgeName(channel), (...args: unknown[]) => invoke(channel, args)]),
) as ProofdeskBridge;

contextBridge.exposeInMainWorld('proofdesk', bridge);
