import type { VerificationResult, VerificationStep } from '../../../common/wire-types.js';

const MARK: Record<string, string> = { passed: 'ok  ', failed: 'FAIL', pending: 'wait', not_started: '-   ', error: 'ERR ', unchecked: '-   ' };

/** The file step passes without an original (the spec's status), but a person must not read "passed". */
function fileNotChecked(key: string, step: VerificationStep): boolean {
  return key === 'file' && step.status === 'passed' && (step.description as { actual_file_hash?: unknown }).actual_file_hash === null;
}

function value(v: unknown): string {
  if (v === null) return '(none)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * A verification result for people: one line per step, and under a failed or errored step the
 * values it compared (expected and actual), so that nobody needs --json to see why.
 */
export function renderResult(result: VerificationResult, proofPath?: string): string {
  const lines: string[] = proofPath ? [proofPath] : [];
  for (const [key, step] of Object.entries(result.verification)) {
    const description = step.description as Record<string, unknown>;
    const reason = typeof description.reason === 'string' ? description.reason : undefined;
    if (fileNotChecked(key, step)) {
      lines.push(`  [${MARK.unchecked}] ${step.name}: not checked (no file given; pass --file ORIGINAL)`);
      continue;
    }
    lines.push(`  [${MARK[step.status] ?? step.status}] ${step.name}: ${step.status}${reason ? ` (${reason})` : ''}`);
    if (step.status === 'failed' || step.status === 'error') {
      for (const [field, v] of Object.entries(description)) {
        if (field !== 'reason') lines.push(`         ${field}: ${value(v)}`);
      }
    }
  }
  lines.push(`Result: ${result.result.status}`);
  return lines.join('\n');
}
