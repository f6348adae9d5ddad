import { useEffect, useState } from 'react';
import type { WatchFolderStatus } from '../../common/ipc/watch-folders.js';
import { toServiceError } from '../ipc-error.js';
import { onAppEvent } from '../shell/app-events.js';
import { useShellStore } from '../shell/shell-store.js';
import { REMOTE_LIMITS } from '../../common/ipc/settings.js';
import { AddWatchFolderDialog } from './add-watch-folder.js';
import { useWatchFoldersStore } from './watch-folders-store.js';
import { useElementMenu } from '../commands/row-menu.js';
import { watchFolderMenu } from './watch-folder-menu.js';
import './watch-folders.css';
import { ColumnHeads } from '../shell/column-heads.js';

const n = (value: number) => value.toLocaleString('en-US');

/** One folder: its settings, live counts and actions. */
function FolderCard({ folder }: { folder: WatchFolderStatus }) {
  const failedOf = useWatchFoldersStore((s) => s.failedOf);
  const { setPaused, remove, showFailed } = useWatchFoldersStore.getState();
  const toast = useShellStore((s) => s.toast);
  const [shownPath, setShownPath] = useState<string | null>(null);
  const c = folder.counts;
  const headingId = `watch-${folder.id}`;

  const openOutput = () =>
    void window.proofdesk.watchFoldersOpenOutput(folder.id).then(
      (r) => setShownPath(r.opened ? null : r.path),
      (e: unknown) => toast('error', toServiceError(e).message),
    );

  const askRemove = () => {
    if (window.confirm(`Stop watching ${folder.path}? Its files stay where they are.`)) void remove(folder.id);
  };
  const folderMenu = useElementMenu('Watch folder', () =>
    watchFolderMenu(folder, {
      togglePaused: () => void setPaused(folder.id, folder.state === 'watching'),
      failedFiles: () => void showFailed(useWatchFoldersStore.getState().failedOf === folder.id ? null : folder.id),
      openOutput,
      remove: askRemove,
    }),
  );

  return (
    <article className="watch-card" aria-labelledby={headingId} {...folderMenu.target}>
      <header className="watch-card-head">
        <h2 id={headingId}>
          <code>{folder.path}</code>
        </h2>
        <span className={`state watch-state-${folder.state}`}>{folder.state}</span>
      </header>
      {folder.problem && (
        <p className="error-panel" role="alert">
          {folder.problem}
        </p>
      )}
      <dl className="watch-counts" aria-label={`Counts of ${folder.path}`}>
        <div>
          <dt>Seen</dt>
          <dd>{n(c.seen)}</dd>
        </div>
        <div>
          <dt>In progress</dt>
          <dd>{n(c.inProgress)}</dd>
        </div>
        <div>
          <dt>Waiting for the issuing date</dt>
          <dd>{n(c.waiting)}</dd>
        </div>
        <div>
          <dt>Issued</dt>
          <dd>{n(c.issued)}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{n(c.failed)}</dd>
        </div>
        <div>
          <dt>Duplicates</dt>
          <dd>{n(c.duplicates)}</dd>
        </div>
      </dl>
      <p className="muted watch-settings">
        Engine <code>{folder.engine}</code> · tags {folder.tags.length > 0 ? folder.tags.join(', ') : 'none'} · {folder.recursive ? 'with subfolders' : 'this folder only'} ·{' '}
        {folder.allowDuplicates ? 'identical files issued again' : 'identical files to duplicate/'}
        {Object.keys(folder.metadata).length > 0 && (
          <>
            {' '}
            · metadata <code>{JSON.stringify(folder.metadata)}</code>
          </>
        )}
        <br />
        Proofs go to <code>{folder.outDir}</code>
      </p>
      {shownPath && <p className="watch-shown-path">Output folder: <code>{shownPath}</code> (open it in your file manager)</p>}
      <div className="toolbar">
        <button type="button" onClick={() => void setPaused(folder.id, folder.state === 'watching')}>
          {folder.state === 'paused' ? 'Resume' : folder.state === 'stopped' ? 'Watch again' : 'Pause'}
        </button>
        <button type="button" aria-expanded={failedOf === folder.id} onClick={() => void showFailed(failedOf === folder.id ? null : folder.id)}>
          Failed files
        </button>
        <button type="button" onClick={openOutput}>
          Open output folder
        </button>
        <button type="button" onClick={askRemove}>
          Remove
        </button>
      </div>
      {failedOf === folder.id && <FailedFiles />}
      {folderMenu.menu}
    </article>
  );
}

/** The open folder's failed files with their reasons, each with Retry. */
function FailedFiles() {
  const failed = useWatchFoldersStore((s) => s.failed);
  const toast = useShellStore((s) => s.toast);
  if (failed.length === 0) return <p className="muted">No failed files.</p>;
  return (
    <table className="watch-failed" aria-label="Failed files">
      <ColumnHeads names={['File', 'Reason', 'When', 'Action']} />
      <tbody>
        {failed.map((file) => (
          <tr key={`${file.path}|${file.failedPath ?? ''}|${file.when}`}>
            <td>
              <code>{file.path}</code>
            </td>
            <td>
              {file.message} <span className="muted">({file.id})</span>
            </td>
            <td>{new Date(file.when).toLocaleString()}</td>
            <td>
              <button
                type="button"
                aria-label={`Retry ${file.path}`}
                onClick={() =>
                  void useWatchFoldersStore
                    .getState()
                    .retry(file)
                    .then(
                      (back) => toast('info', `${file.path} is back in the folder (${back}) and will be taken again.`),
                      (e: unknown) => toast('error', toServiceError(e).message),
                    )
                }
              >
                Retry
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Watch folders: the folders the app watches, with live counts, pause/resume, failed files and retry. */
export function WatchFoldersView() {
  const folders = useWatchFoldersStore((s) => s.folders);
  const loaded = useWatchFoldersStore((s) => s.loaded);
  const error = useWatchFoldersStore((s) => s.error);
  const { load, update } = useWatchFoldersStore.getState();
  const [adding, setAdding] = useState(false);
  // Watch folders issue through this machine's engine: off while a remote service is in use.
  const remote = useShellStore((s) => s.status?.mode === 'remote');

  useEffect(() => void load(), [load]);
  useEffect(() => onAppEvent('watch-folder', ({ folder }) => update(folder)), [update]);

  return (
    <section className="view watch-view" aria-labelledby="watch-title">
      <div className="toolbar">
        <h1 id="watch-title">Watch folders</h1>
        <button type="button" className="primary" onClick={() => setAdding(true)} disabled={remote} aria-describedby={remote ? 'watch-remote-note' : undefined}>
          Add watch folder
        </button>
      </div>
      {remote && (
        <p id="watch-remote-note" data-testid="watch-remote-note">
          {REMOTE_LIMITS.watch}
        </p>
      )}
      <p className="muted">Files dropped into a watched folder are issued once each: proofs go to its output folder, originals to done/, rejects to failed/ with a note.</p>
      {error && (
        <div className="error-panel" role="alert">
          {error}
        </div>
      )}
      {loaded && !remote && folders.length === 0 && !error && <p>No folder is watched yet. Add one to issue every file dropped into it.</p>}
      <div className="watch-list">
        {folders.map((folder) => (
          <FolderCard key={folder.id} folder={folder} />
        ))}
      </div>
      {adding && <AddWatchFolderDialog onClose={() => setAdding(false)} />}
    </section>
  );
}
