import { useEffect } from 'react';
import { SECTIONS, type SectionId } from './sections.js';

/** True for Ctrl on Linux/Windows and Cmd on macOS. */
export function isModifier(event: KeyboardEvent | React.KeyboardEvent): boolean {
  return event.ctrlKey || event.metaKey;
}

/** The window-wide shortcuts: Ctrl/Cmd+1…5 open a section. Views add their own. */
export function useShellShortcuts(go: (section: SectionId) => void): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isModifier(event) || event.altKey || event.shiftKey) return;
      const index = Number(event.key) - 1;
      const section = SECTIONS[index];
      if (section) {
        event.preventDefault();
        go(section.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);
}
