import type { HTMLAttributes, ReactNode } from 'react';

/**
 * One term and its value in a definition list (`<dl className="facts">`): `term` is the `<dt>`,
 * the children and the other props the `<dd>`.
 *
 * @example <Fact term={t('jobs.detail.status')} data-testid="job-status">{status}</Fact>
 */
export function Fact({ term, children, ...value }: { term: ReactNode; children: ReactNode } & HTMLAttributes<HTMLElement>) {
  return (
    <>
      <dt>{term}</dt>
      <dd {...value}>{children}</dd>
    </>
  );
}
