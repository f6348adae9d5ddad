import { UsageError } from '../cli-error.js';
import { withPartnerService, type CliContext, type PartnerFlags } from '../context.js';
import { json } from '../output.js';
import { renderResult } from './render.js';

/** `verify --remote BASE_URL CERTIFICATE_UID`: the remote service verifies its stored certificate. */
export async function verifyRemote(flags: PartnerFlags & { json?: boolean; file?: string; rpc?: string; offline?: boolean; report?: string }, positionals: string[], ctx: CliContext): Promise<number> {
  if (positionals.length !== 1) throw new UsageError('verify --remote BASE_URL takes one CERTIFICATE_UID (the remote service verifies its stored certificate)');
  const stray = (['file', 'rpc', 'offline', 'report'] as const).find((flag) => flags[flag] !== undefined);
  if (stray) throw new UsageError(`--${stray} does not apply with --remote: the remote service verifies its own certificate`);
  return withPartnerService(flags, async (service) => {
    const result = await service.verifyCertificate(positionals[0]!);
    ctx.stdout(flags.json ? json(result) : renderResult(result));
    return result.result.status === 'ok' ? 0 : 1;
  });
}
