import { useEffect, useState } from 'react';
import { ErrorCell, ErrorLine } from '../shell/error-line.js';
import type { WatchFolderStatus } from '../../common/ipc/watch-folders.js';
import { onAppEvent } from '../shell/app-events.js';
import { useShellStore } from '../shell/shell-store.js';
import { localCount, localDateTime } from '../format/local-format.js';
import { code, Message, useT } from '../i18n/use-t.js';
import { AddWatchFolderDialog } from './add-watch-folder.js';
import { useWatchFoldersStore } from './watch-folders-store.js';
import { useElementMenu } from '../commands/row-menu.js';
import { watchFolderMenu } from './watch-folder-menu.js';
import './watch-folders.css';
import { ColumnHeads } from '../shell/column-heads.js';
import { useEngineName } from '../shell/engine-name.js';
import { Fact } from '../shell/fact.js';

/** The counts a folder's card shows, in order. */
const COUNTS = ['seen', 'inProgress', 'waiting', 'issued', 'failed', 'duplicates'] as const;

/** One folder: its settings, live counts and actions. */
function FolderCard({ folder }: { folder: WatchFolderStatus }) {
  const failedOf = useWatchFoldersStore((s) => s.failedOf);
  const { setPaused, remove, showFailed } = useWatchFoldersStore.getState();
  const [shownPath, setShownPath] = useState<string | null>(null);
  const t = useT();
  const engineName = useEngineName();
  const c = folder.counts;
  const headingId = `watch-${folder.id}`;

  const openOutput = () =>
    void window.proofdesk.watchFoldersOpenOutput(folder.id).then(
      (r) => setShownPath(r.opened ? null : r.path),
      (e: unknown) => useShellStore.getState().toastError(e),
    );

  const askRemove = () => {
    if (window.confirm(t('watch.confirmRemove', { path: folder.path }))) void remove(folder.id);
  };
  const folderMenu = useElementMenu(t('watch.menu.label'), () =>
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
        <span className={`state watch-state-${folder.state}`}>{t('watch.state', { state: folder.state })}</span>
      </header>
      {folder.problem && (
        <p className="error-panel" role="alert">
          {folder.problem}
        </p>
      )}
      <dl className="watch-counts" aria-label={t('watch.counts', { path: folder.path })}>
        {COUNTS.map((key) => (
          <div key={key}>
            <Fact term={t(`watch.${key}`)}>{localCount(c[key])}</Fact>
          </div>
        ))}
      </dl>
      <p className="muted watch-settings">
        <Message
          id="watch.settings"
          values={{
            engine: engineName(folder.engine),
            tags: folder.tags.length > 0 ? folder.tags.join(', ') : t('watch.noTags'),
            recursive: folder.recursive ? 'yes' : 'no',
            duplicates: folder.allowDuplicates ? 'yes' : 'no',
            code,
          }}
        />
        {Object.keys(folder.metadata).length > 0 && <Message id="watch.metadata" values={{ metadata: metadataText(folder.metadata) }} />}
        <br />
        <Message id="watch.proofsGoTo" values={{ path: folder.outDir, code }} />
      </p>
      {shownPath && <p className="watch-shown-path"><Message id="watch.outputFolder" values={{ path: shownPath, code }} /></p>}
      <div className="toolbar">
        <button type="button" onClick={() => void setPaused(folder.id, folder.state === 'watching')}>
          {t('watch.toggle', { state: folder.state })}
        </button>
        <button type="button" aria-expanded={failedOf === folder.id} onClick={() => void showFailed(failedOf === folder.id ? null : folder.id)}>
          {t('watch.failedFiles')}
        </button>
        <button type="button" onClick={openOutput}>
          {t('watch.openOutput')}
        </button>
        <button type="button" onClick={askRemove}>
          {t('watch.remove')}
        </button>
      </div>
      {failedOf === folder.id && <FailedFiles />}
      {folderMenu.menu}
    </article>
  );
}

/** A folder's metadata as the admin entered it in the key/value editor: `course: CS 2026, term: Fall 2026`. */
function metadataText(metadata: Record<string, unknown>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** The open folder's failed files with their reasons, each with Retry. */
function FailedFiles() {
  const failed = useWatchFoldersStore((s) => s.failed);
  const toast = useShellStore((s) => s.toast);
  const t = useT();
  if (failed.length === 0) return <p className="muted">{t('watch.noFailed')}</p>;
  return (
    <table className="watch-failed" aria-label={t('watch.failedFiles')}>
      <ColumnHeads names={[t('watch.column.file'), t('watch.column.reason'), t('watch.column.when'), t('watch.column.action')]} />
      <tbody>
        {failed.map((file) => (
          <tr key={`${file.path}|${file.failedPath ?? ''}|${file.when}`}>
            <td>
              <code>{file.path}</code>
            </td>
            <td>
              <ErrorCell error={{ id: file.id, message: file.message }} headline={file.id === 'no_json' ? t('staging.row.metadataFileProblem') : undefined} />
            </td>
            <td>{localDateTime(file.when)}</td>
            <td>
              <button
                type="button"
                aria-label={t('watch.retryNamed', { path: file.path })}
                onClick={() =>
                  void useWatchFoldersStore
                    .getState()
                    .retry(file)
                    .then(
                      (back) => toast('info', t('watch.back', { path: file.path, back })),
                      (e: unknown) => useShellStore.getState().toastError(e),
                    )
                }
              >
                {t('watch.retry')}
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
  const t = useT();

  useEffect(() => void load(), [load]);
  useEffect(() => onAppEvent('watch-folder', ({ folder }) => update(folder)), [update]);

  return (
    <section className="view watch-view" aria-labelledby="watch-title">
      <div className="toolbar">
        <h1 id="watch-title">{t('watch.title')}</h1>
        <button type="button" className="primary" onClick={() => setAdding(true)} disabled={remote} aria-describedby={remote ? 'watch-remote-note' : undefined}>
          {t('watch.add')}
        </button>
      </div>
      {remote && (
        <p id="watch-remote-note" data-testid="watch-remote-note">
          {t('watch.remote')}
        </p>
      )}
      <p className="muted">{t('watch.intro')}</p>
      <ErrorLine error={error} className="error-panel" />
      {loaded && !remote && folders.length === 0 && !error && <p>{t('watch.none')}</p>}
      <div className="watch-list">
        {folders.map((folder) => (
          <FolderCard key={folder.id} folder={folder} />
        ))}
      </div>
      {adding && <AddWatchFolderDialog onClose={() => setAdding(false)} />}
    </section>
  );
}
