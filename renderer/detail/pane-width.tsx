/**
 * A side panel's width that the admin sets by dragging its edge (or focusing the edge, a
 * `separator`, and pressing ← →), kept between a minimum and a share of the window, and
 * remembered in localStorage so the panel opens as wide as it was left.
 */
import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { keep, readKept } from '../shell/kept.js';

/** How far one arrow key press moves the edge (Shift: four times as far), in CSS pixels. */
const KEY_STEP_PX = 24;

export interface PaneWidthOptions {
  /** The localStorage key. */
  storageKey: string;
  /** In CSS pixels. */
  initial: number;
  min: number;
  /** The largest share of the window's width the panel may take (the table keeps the rest). */
  maxShare: number;
}

/** The width clamped between the minimum and the window's share (the minimum wins in a very small window). */
export function clampPaneWidth(px: number, windowWidth: number, options: Pick<PaneWidthOptions, 'min' | 'maxShare'>): number {
  return Math.round(Math.max(options.min, Math.min(px, windowWidth * options.maxShare)));
}

function stored(key: string): number | null {
  const value = Number(readKept(key));
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** The pane's width and the props of its edge (a `separator` named `label`). */
export function usePaneWidth(options: PaneWidthOptions, label: string) {
  const { storageKey, initial } = options;
  const [width, setWidth] = useState(() => stored(storageKey) ?? initial);
  const shown = clampPaneWidth(width, globalThis.innerWidth ?? 1280, options);
  const drag = useRef<{ x: number; width: number; sign: number } | null>(null);

  const apply = useCallback(
    (px: number) => {
      const next = clampPaneWidth(px, globalThis.innerWidth ?? 1280, options);
      setWidth(next);
      keep(storageKey, String(next));
    },
    [storageKey, options.min, options.maxShare],
  );
  // The panel sits at the window's inline end: moving its edge toward the start widens it.
  const sign = (el: HTMLElement) => (getComputedStyle(el).direction === 'rtl' ? 1 : -1);

  const separator = {
    role: 'separator',
    'aria-orientation': 'vertical' as const,
    'aria-label': label,
    'aria-valuenow': shown,
    'aria-valuemin': options.min,
    'aria-valuemax': Math.round((globalThis.innerWidth ?? 1280) * options.maxShare),
    tabIndex: 0,
    onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
      if (event.button !== 0) return;
      event.preventDefault();
      event.currentTarget.setPointerCapture(event.pointerId);
      event.currentTarget.focus();
      drag.current = { x: event.clientX, width: shown, sign: sign(event.currentTarget) };
    },
    onPointerMove: (event: PointerEvent<HTMLDivElement>) => {
      const start = drag.current;
      if (start) apply(start.width + (event.clientX - start.x) * start.sign);
    },
    onPointerUp: (event: PointerEvent<HTMLDivElement>) => {
      drag.current = null;
      event.currentTarget.releasePointerCapture(event.pointerId);
    },
    onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
      const step = (event.shiftKey ? 4 : 1) * KEY_STEP_PX * sign(event.currentTarget);
      if (event.key === 'ArrowLeft') apply(shown - step);
      else if (event.key === 'ArrowRight') apply(shown + step);
      else if (event.key === 'Home') apply(options.min);
      else if (event.key === 'End') apply(Number.MAX_SAFE_INTEGER);
      else return;
      event.preventDefault();
    },
  };
  return { width: shown, separator };
}
