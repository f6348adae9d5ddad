import type { StepReasonCode } from '../../common/ipc/verify.js';
import { localDateTime } from '../format/local-format.js';
import { MainWords } from '../i18n/main-words.js';
import type { useT } from '../i18n/use-t.js';

/**
 * A step's reason in the window's language when main sent it as a code, else the verifier's own
 * sentence as it came (English, marked so).
 */
export function StepReason({ reason, code, t, className }: { reason: string; code: StepReasonCode | null; t: ReturnType<typeof useT>; className?: string }) {
  if (!code) return <MainWords {...(className ? { className } : {})}>{reason}</MainWords>;
  return <span className={className}>{stepReasonText(code, t)}</span>;
}

/** The words of a reason code: `Not checked: an earlier step failed.`, `The credential expired on Nov 26, 2026, 7:40 PM.` */
export function stepReasonText(code: StepReasonCode, t: ReturnType<typeof useT>): string {
  return t('verify.reason', { id: code.id, confirmations: code.confirmations ?? 0, date: code.date ? localDateTime(code.date) : '', status: code.status ?? '' });
}
