import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ServiceError } from '../../../common/errors.js';
import type { VerificationResult } from '../../../common/wire-types.js';
import { hashSource } from '../../engine/file-store.js';
import { verifyProof } from '../../engine/proofs/verify-proof.js';
import { COMMON_OPTIONS, userPath } from '../args.js';
import { UsageError } from '../cli-error.js';
import { withEngine, type CliContext } from '../context.js';
import { json } from '../output.js';

export const VERIFY_USAGE = `verify PROOF [--file ORIGINAL] [--json] [--offline]
                                                      check a proof file's six steps; exit 0 only when it is ok.
                                                      --offline: no chain (those steps stay pending)`;

const MARK: Record<string, string> = { passed: 'ok  ', failed: 'FAIL', pending: 'wait', not_started: '-   ', error: 'ERR ' };

function render(result: VerificationResult): string {
  const lines = Object.values(result.verification).map((step) => {
    const reason = (step.description as { reason?: string }).reason;
    return `  [${MARK[step.status] ?? step.status}] ${step.name}: ${step.status}${reason ? ` (${reason})` : ''}`;
  });
  return [...lines, `Result: ${result.result.status}`].join('\n');
}

/** `verify PROOF` */
export async function verifyCommand(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...COMMON_OPTIONS, file: { type: 'string' }, offline: { type: 'boolean' } },
  });
  if (positionals.length !== 1) throw new UsageError(`verify takes one proof file\n${VERIFY_USAGE}`);
  const proofPath = userPath(positionals[0]!);
  let proof: unknown;
  try {
    proof = JSON.parse(readFileSync(proofPath, 'utf8'));
  } catch (error) {
    throw new ServiceError('invalid_value', `${proofPath} is not a readable proof file: ${(error as Error).message}`);
  }
  const original = values.file === undefined ? undefined : (await hashSource({ path: userPath(values.file) })).hash;
  return withEngine(userPath(values.data), async (engine) => {
    const options = engine.issuing.verifyOptions(original);
    const result = await verifyProof(proof, values.offline ? { ...options, chainFor: () => undefined } : options);
    ctx.stdout(values.json ? json(result) : render(result));
    return result.result.status === 'ok' ? 0 : 1;
  });
}
