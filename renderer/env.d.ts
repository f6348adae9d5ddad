import type { ProofdeskBridge } from '../common/ipc-contract.js';

declare global {
  interface Window {
    /** The preload bridge (or, in UI tests, the web bridge): the page's only way out. */
    readonly proofdesk: ProofdeskBridge;
  }
}
