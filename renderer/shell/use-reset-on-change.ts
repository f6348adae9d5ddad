import { useState } from 'react';

/**
 * Calls `reset` while the component renders whenever `key` differs from the last render's, so
 * state made from a prop (a field's text) starts again from the new prop in the same frame.
 * React's "adjusting state when a prop changes": an effect would run after the frame is shown,
 * leaving one frame with the old text beside the new prop.
 */
export function useResetOnChange<K>(key: K, reset: (key: K) => void): void {
  const [last, setLast] = useState(key);
  if (!Object.is(last, key)) {
    setLast(key);
    reset(key);
  }
}
