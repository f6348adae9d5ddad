import type { ReactNode } from 'react';

/**
 * Words main wrote, shown as they came: the engine's sentences and reasons (with their spec
 * error id). They are English whatever the window speaks, so they say so (`lang="en"`): a
 * screen reader reads them as English, and the pseudo-locale check knows they are not the
 * catalogue's.
 */
export function MainWords({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span lang="en" className={className}>
      {children}
    </span>
  );
}
