import type { MessageId } from '../i18n/i18n-store.js';

/** The sidebar's sections, in order; the shortcut is Ctrl/Cmd + its position. */
export const SECTIONS = [
  { id: 'records' },
  { id: 'jobs' },
  { id: 'verify' },
  { id: 'watch' },
  { id: 'settings' },
  { id: 'activity' },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];

/** Each section's name in the catalogue (the English names are UI.md's). */
export const SECTION_LABEL = {
  records: 'shell.section.records',
  jobs: 'shell.section.jobs',
  verify: 'shell.section.verify',
  watch: 'shell.section.watch',
  settings: 'shell.section.settings',
  activity: 'shell.section.activity',
} as const satisfies Record<SectionId, MessageId>;
