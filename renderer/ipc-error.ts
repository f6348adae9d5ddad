import { decodeIpcError, isServiceError, type ServiceError } from '../common/errors.js';

/**
 * Turns a rejection of a `window.proofdesk` call back into a ServiceError. Across
 * contextBridge an error keeps only its message, which carries the encoded id and text.
 */
export function toServiceError(error: unknown): ServiceError {
  if (isServiceError(error)) return error;
  return decodeIpcError(error instanceof Error ? error.message : String(error));
}

/** A failed call as ErrorLine shows it: the spec's id and main's text (one plain sentence, the rest under Details). */
export function shownError(error: unknown): Pick<ServiceError, 'id' | 'message'> {
  const { id, message } = toServiceError(error);
  return { id, message };
}

/**
 * Runs a call to main; a failure goes to `fail` as ErrorLine shows it (a store's error line).
 *
 * @example const guard = (work: () => Promise<unknown>) => guarded(work, (error) => set({ error }));
 */
export async function guarded(work: () => Promise<unknown>, fail: (error: Pick<ServiceError, 'id' | 'message'>) => void): Promise<void> {
  try {
    await work();
  } catch (error) {
    fail(shownError(error));
  }
}

/** What a dialog or view shows for a failed call: the spec's sentence, then its error id to quote. */
export function errorSentence(error: unknown): string {
  const { id, message } = toServiceError(error);
  return `${message} (${id})`;
}
