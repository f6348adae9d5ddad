import { commandHint } from '../commands/command-hint.js';
import { AppMenuButton } from '../commands/app-menu-button.js';
import { SectionBadge } from '../notifications/section-badge.js';
import { useT } from '../i18n/use-t.js';
import { SECTIONS, SECTION_LABEL, type SectionId } from './sections.js';

/** The sidebar: the navigation `Sections`, one button per section (Ctrl/Cmd+1…6). */
export function Sidebar({ current, onGo }: { current: SectionId; onGo: (section: SectionId) => void }) {
  const t = useT();
  return (
    <nav className="sidebar" aria-label={t('shell.sidebar.label')}>
      <div className="sidebar-brand">{t('shell.brand')}</div>
      <AppMenuButton />
      <ul>
        {SECTIONS.map((section) => (
          <li key={section.id}>
            <button
              type="button"
              className="sidebar-link"
              aria-current={current === section.id ? 'page' : undefined}
              {...commandHint(`view.${section.id}`)}
              onClick={() => onGo(section.id)}
            >
              {t(SECTION_LABEL[section.id])}
            </button>
            <SectionBadge section={section.id} />
          </li>
        ))}
      </ul>
    </nav>
  );
}
