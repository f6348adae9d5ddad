/** The sidebar's sections, in order; the shortcut is Ctrl/Cmd + its position. */
export const SECTIONS = [
  { id: 'records', label: 'Records' },
  { id: 'jobs', label: 'Jobs' },
  { id: 'verify', label: 'Verify' },
  { id: 'watch', label: 'Watch folders' },
  { id: 'settings', label: 'Settings' },
  { id: 'activity', label: 'Activity' },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];
