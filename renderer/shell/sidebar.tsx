import { SECTIONS, type SectionId } from './sections.js';

/** The sidebar: the navigation `Sections`, one button per section (Ctrl/Cmd+1…5). */
export function Sidebar({ current, onGo }: { current: SectionId; onGo: (section: SectionId) => void }) {
  return (
    <nav className="sidebar" aria-label="Sections">
      <div className="sidebar-brand">Proofdesk</div>
      <ul>
        {SECTIONS.map((section, index) => (
          <li key={section.id}>
            <button
              type="button"
              className="sidebar-link"
              aria-current={current === section.id ? 'page' : undefined}
              aria-keyshortcuts={`Control+${index + 1}`}
              onClick={() => onGo(section.id)}
            >
              {section.label}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
