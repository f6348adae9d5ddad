import { OverviewView } from './overview/overview-view.js';

/** The application shell: a header and, for now, the one screen. */
export function App() {
  return (
    <div className="app">
      <header className="app-header">
        <h1>Proofdesk</h1>
        <span className="app-tagline">Blockchain-anchored credentials</span>
      </header>
      <main className="app-main">
        <OverviewView />
      </main>
    </div>
  );
}
