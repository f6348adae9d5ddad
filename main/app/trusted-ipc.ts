/**
 * The only place that touches `ipcMain`: a `handle()` wrapper (after GitHub Desktop's
 * trusted-ipc-sender) that refuses calls from anything but our own window's page, validates
 * the arguments with the contract's validators, and encodes errors so their id survives
 * Electron's IPC (which forwards only an error's message).
 */
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { IPC_ARGUMENT_VALIDATORS, IPC_CHANNELS, type IpcChannel } from '../../common/ipc-contract.js';
import { ServiceError, encodeIpcError, isServiceError } from '../../common/errors.js';
import type { IpcHandlers } from './ipc-handlers.js';
import { isTrustedSender } from './trusted-sender.js';

/** Who may call: the main window's webContents, showing the app's own page. */
export interface TrustedSender {
  /** The main window's webContents (a getter: the window may be recreated). */
  webContents: () => WebContents | null;
  /** The URL the main window loads (file:// renderer, or the dev server). */
  appUrl: string;
}

function assertTrusted(event: IpcMainInvokeEvent, trust: TrustedSender): void {
  const frame = event.senderFrame;
  // Only the top frame of our own window: an iframe or another window, even one showing
  // a page of ours, never gets to call main.
  const trusted =
    event.sender === trust.webContents() &&
    frame !== null &&
    frame.parent === null &&
    isTrustedSender(frame.url, trust.appUrl);
  if (!trusted) throw new ServiceError('unauthorized', 'IPC refused: the sender is not the Proofdesk window');
}

/**
 * Registers the handler of one channel.
 *
 * @example handle('overview:get', handlers['overview:get'], trust)
 */
export function handle<C extends IpcChannel>(channel: C, fn: IpcHandlers[C], trust: TrustedSender): void {
  ipcMain.handle(channel, async (event, ...args: unknown[]) => {
    try {
      assertTrusted(event, trust);
      return await fn(...IPC_ARGUMENT_VALIDATORS[channel](args));
    } catch (error) {
      // The page only learns `internal_error` for a bug; the details stay in main's log.
      if (!isServiceError(error)) console.error(`IPC ${channel} failed:`, error);
      throw new Error(encodeIpcError(error));
    }
  });
}

/** Registers every channel of the contract; returns a function that removes them again. */
export function handleAll(handlers: IpcHandlers, trust: TrustedSender): () => void {
  for (const channel of IPC_CHANNELS) handle(channel, handlers[channel], trust);
  return () => {
    for (const channel of IPC_CHANNELS) ipcMain.removeHandler(channel);
  };
}
