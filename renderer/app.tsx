import { useEffect, type ReactNode } from 'react';
import type { SectionId } from './shell/sections.js';
import { useFirstRunStore } from './first-run/first-run-store.js';
import { FirstRunView } from './first-run/first-run-view.js';
import { JobsView } from './jobs/jobs-view.js';
import { RecordsView } from './records/records-view.js';
import { SettingsView } from './settings/settings-view.js';
import { CommandHost } from './commands/command-host.js';
import { useShellStore } from './shell/shell-store.js';
import { Sidebar } from './shell/sidebar.js';
import { StatusBar } from './shell/status-bar.js';
import { Toasts } from './shell/toasts.js';
import { WatchFoldersView } from './watch-folders/watch-folders-view.js';
import { VerifyView } from './verify/verify-view.js';
import { ActivityView } from './activity/activity-view.js';

/** Each section's view. */
const VIEWS: Record<SectionId, () => ReactNode> = { records: RecordsView, jobs: JobsView, verify: VerifyView, watch: WatchFoldersView, settings: SettingsView, activity: ActivityView };

/** The application shell: sidebar `Sections`, the open section, the status bar and toasts. */
export function App() {
  const section = useShellStore((s) => s.section);
  const go = useShellStore((s) => s.go);
  const connect = useShellStore((s) => s.connect);
  const loadStatus = useShellStore((s) => s.loadStatus);

  useEffect(() => {
    const disconnect = connect();
    void loadStatus();
    return disconnect;
  }, [connect, loadStatus]);

  // No Partner in the data directory yet → the first run, then on into Records.
  const noPartner = useShellStore((s) => s.statusLoaded && s.status?.partner === null && s.status.mode === 'embedded');
  // Made just now: the page with the new client secret stays until the admin continues.
  const justMade = useFirstRunStore((s) => s.created !== null);
  const firstRun = noPartner || justMade;
  const View = VIEWS[section];
  if (firstRun) {
    return (
      <div className="app app-first-run">
        <main className="app-main">
          <FirstRunView onDone={() => void loadStatus().then(() => go('records'))} />
        </main>
        <StatusBar />
        <Toasts />
      </div>
    );
  }

  return (
    <div className="app">
      <Sidebar current={section} onGo={go} />
      <main className="app-main">
        <View />
      </main>
      <StatusBar />
      <Toasts />
      <CommandHost />
    </div>
  );
}
