import { useEffect } from 'react';
import { JobsView } from './jobs/jobs-view.js';
import { PlaceholderView } from './placeholders/placeholder-view.js';
import { RecordsView } from './records/records-view.js';
import { useShellStore } from './shell/shell-store.js';
import { useShellShortcuts } from './shell/shortcuts.js';
import { Sidebar } from './shell/sidebar.js';
import { StatusBar } from './shell/status-bar.js';
import { Toasts } from './shell/toasts.js';
import { VerifyView } from './verify/verify-view.js'; // H9

/** The application shell: sidebar `Sections`, the open section, the status bar and toasts. */
export function App() {
  const section = useShellStore((s) => s.section);
  const go = useShellStore((s) => s.go);
  const connect = useShellStore((s) => s.connect);
  const loadStatus = useShellStore((s) => s.loadStatus);
  useShellShortcuts(go);

  useEffect(() => {
    const disconnect = connect();
    void loadStatus();
    return disconnect;
  }, [connect, loadStatus]);

  return (
    <div className="app">
      <Sidebar current={section} onGo={go} />
      <main className="app-main">
        {section === 'records' && <RecordsView />}
        {section === 'jobs' && <JobsView />}
        {section === 'verify' && <VerifyView /> /* H9 */}
        {section === 'watch' && (
          <PlaceholderView title="Watch folders" coming="the folders Proofdesk watches, with their settings, live progress, failed files with reasons, retry and pause." />
        )}
        {section === 'settings' && (
          <PlaceholderView title="Settings" coming="Partner details, issuing interval, keys (where they are, public key, chain accounts and balances, backup), engines and remote connections." />
        )}
      </main>
      <StatusBar />
      <Toasts />
    </div>
  );
}
