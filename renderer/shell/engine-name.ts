/**
 * Engines named as the admin reads them (`Local chain`, `Sepolia`), from the engines the status
 * bar knows; the engine id stays for technical details and tooltips.
 */
import { useCallback } from 'react';
import { chainTechnical, engineDisplayName } from '../format/chain-display.js';
import { useShellStore } from './shell-store.js';

/** The display name of an engine by its id, read once (stores, notifications). */
export function engineName(id: string): string {
  return engineDisplayName(id, useShellStore.getState().status?.engines ?? []);
}

/** The engine id and chain id behind an engine's display name, for a tooltip. */
export function engineTechnical(id: string): string {
  const engine = useShellStore.getState().status?.engines.find((e) => e.id === id);
  return chainTechnical(engine ?? { id, chain_id: null });
}

/** `engineName` for views: re-renders when the engines change (the status arrives after the first paint). */
export function useEngineName(): (id: string) => string {
  const engines = useShellStore((s) => s.status?.engines);
  // Stable while the engines are: tables memoize their columns on it.
  return useCallback((id: string) => engineDisplayName(id, engines ?? []), [engines]);
}
