/**
 * Tags in a table cell: the first few as chips, the rest as "+N"; the hidden ones stay in the
 * text for assistive technology, and the column's `text` (every tag) is the cell's title.
 */

/** How many tags a cell shows before "+N". */
const SHOWN = 3;

export function TagList({ tags }: { tags: readonly string[] }) {
  const shown = tags.slice(0, SHOWN);
  const rest = tags.slice(SHOWN);
  return (
    <>
      {shown.map((t) => (
        <span key={t} className="tag">
          {t}
        </span>
      ))}
      {rest.length > 0 && (
        <>
          <span className="tag-more" aria-hidden="true">
            +{rest.length}
          </span>
          <span className="visually-hidden">{rest.join(', ')}</span>
        </>
      )}
    </>
  );
}
