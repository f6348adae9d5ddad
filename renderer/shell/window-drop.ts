import { useEffect, useRef, useState } from 'react';
import { carriesFiles } from '../staging/file-intake.js';

/**
 * The window takes a drop of files and folders anywhere while the view using this hook is open
 * (Verify and Records' staging: one view at a time, so one set of window listeners at a time).
 * Answers whether files are being dragged over the window, for the drop region to light up.
 *
 * `onDrop` is called synchronously inside the drop event, and must read the DataTransfer's
 * items before its first await: once the event has been handled the browser empties a real
 * drop's DataTransfer (its files are gone).
 *
 * `onEnter` is called on each dragenter of files (Verify warms main's workers with it).
 * Give a stable `onDrop` and `onEnter` (useCallback): a new one re-registers the listeners.
 *
 * @example const dragging = useWindowDrop(useCallback((data) => void addDrop(data), [addDrop]));
 */
export function useWindowDrop(onDrop: (data: DataTransfer) => void, onEnter?: () => void): boolean {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);

  useEffect(() => {
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e.dataTransfer)) return;
      depth.current++;
      setDragging(true);
      onEnter?.();
    };
    const over = (e: DragEvent) => {
      if (!carriesFiles(e.dataTransfer)) return;
      // Without this the browser opens the file instead of handing it to us.
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = () => {
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      depth.current = 0;
      setDragging(false);
      if (!e.dataTransfer || !carriesFiles(e.dataTransfer)) return;
      e.preventDefault();
      onDrop(e.dataTransfer);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [onDrop, onEnter]);
  return dragging;
}
