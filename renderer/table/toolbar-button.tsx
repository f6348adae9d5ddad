/**
 * A button of a table's toolbar that shrinks to its icon when its toolbar does not fit on one
 * line (a detail panel open beside it, long German labels): its name stays the label (UI.md's
 * names), its tooltip says it, and the row does not wrap a stray button onto a second line.
 * `useFittedToolbar` decides, per toolbar, by measuring.
 */
import { useLayoutEffect, useRef, useState, type ButtonHTMLAttributes } from 'react';
import './columns.css';

/** 16×16 line icons, drawn in the text colour. */
const ICONS = {
  columns: 'M2 3h12v10H2zM6 3v10M10 3v10',
  export: 'M8 2v8M5 7l3 3 3-3M3 12v2h10v-2',
  tagAdd: 'M2 2h6l6 6-6 6-6-6zM5 5h.01M11 1v4M9 3h4',
  tagReplace: 'M2 2h6l6 6-6 6-6-6zM5 5h.01M6 10l2 2 3-3',
  tagRemove: 'M2 2h6l6 6-6 6-6-6zM5 5h.01M7 9h5',
  schedule: 'M2 3h12v11H2zM2 6h12M5 1v3M11 1v3M6 10l1.5 1.5L10 9',
  unschedule: 'M2 3h12v11H2zM2 6h12M5 1v3M11 1v3M6 8.5l4 4M10 8.5l-4 4',
  proof: 'M4 1h6l3 3v11H4zM10 1v3h3M6 9l1.5 1.5L11 7',
  selectAll: 'M2 2h5v5H2zM9 2h5v5H9zM2 9h5v5H2zM9 9h5v5H9z',
} as const;

export type ToolbarIcon = keyof typeof ICONS;

/** The button: `label` is its text and accessible name; below the view's narrow width only `icon` shows. */
export function ToolbarButton({ icon, label, ...button }: { icon: ToolbarIcon; label: string } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'>) {
  return (
    <button type="button" {...button} className={`toolbar-button ${button.className ?? ''}`.trim()} aria-label={label} title={button.title ?? label}>
      <svg className="toolbar-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        <path d={ICONS[icon]} fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className="toolbar-label">{label}</span>
    </button>
  );
}

/** The width a toolbar's items need on one line with their labels: the sum of their widths and gaps (a spacer needs none). */
function naturalWidth(toolbar: HTMLElement): number {
  const items = [...toolbar.children].filter((c): c is HTMLElement => c instanceof HTMLElement && !c.classList.contains('spacer'));
  const gap = parseFloat(getComputedStyle(toolbar).columnGap) || 0;
  return items.reduce((sum, item) => sum + item.getBoundingClientRect().width, 0) + gap * Math.max(0, items.length - 1);
}

/**
 * A toolbar's ref and class: `toolbar-compact` (its ToolbarButtons as icons) while its items
 * with their labels would not fit its width. The labelled width is measured whenever the
 * labels show, and kept while they do not, so the toolbar does not flip back and forth.
 *
 * @example const fitted = useFittedToolbar(); <div ref={fitted.ref} className={`toolbar ${fitted.className}`}>…</div>
 */
export function useFittedToolbar<T extends HTMLElement = HTMLDivElement>() {
  const ref = useRef<T>(null);
  const [compact, setCompact] = useState(false);
  const labelled = useRef(0);
  useLayoutEffect(() => {
    const toolbar = ref.current;
    if (!toolbar) return;
    const check = () => {
      if (!toolbar.classList.contains('toolbar-compact')) labelled.current = naturalWidth(toolbar);
      setCompact(labelled.current > toolbar.clientWidth + 0.5);
    };
    check();
    // Next frame, not inside the observer's callback: changing sizes there would loop it.
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(check);
    });
    observer.observe(toolbar);
    for (const child of toolbar.children) observer.observe(child);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  });
  return { ref, className: compact ? 'toolbar-compact' : '' };
}
