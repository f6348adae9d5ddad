import type { SectionId } from '../shell/sections.js';
import { useT } from '../i18n/use-t.js';
import { useBadgeStore } from './notifier.js';
import './notifications.css';

/** The sidebar's count of news in a section (failed jobs, refused files); nothing when there is none. */
export function SectionBadge({ section }: { section: SectionId }) {
  const t = useT();
  const count = useBadgeStore((s) => (section === 'jobs' ? s.failedJobs : section === 'watch' ? s.refusedFiles : 0));
  if (count === 0) return null;
  const text = t('shell.badge', { section: section === 'jobs' ? 'jobs' : 'watch', count });
  return (
    <span className="sidebar-badge" title={text} data-testid={`badge-${section}`}>
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="visually-hidden">{text}</span>
    </span>
  );
}
