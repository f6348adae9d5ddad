/**
 * The Electron side of file intake (renderer/staging/file-intake.ts): a dropped or chosen
 * File's path on disk, from webUtils.getPathForFile (folders included), so main reads the files
 * itself and no file's bytes cross IPC. Exposed as `window.proofdeskFiles`, apart from the IPC
 * contract's `window.proofdesk`: it is a local lookup, not a call to main.
 */
import { contextBridge, webUtils } from 'electron';

type DomFile = Parameters<typeof webUtils.getPathForFile>[0];

contextBridge.exposeInMainWorld('proofdeskFiles', Object.freeze({ kind: 'paths', pathOf: (file: DomFile) => webUtils.getPathForFile(file) }));
