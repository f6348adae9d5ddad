import { ServiceError } from '../../../common/errors.js';
import { parseCommand, userPath } from '../args.js';
import { UsageError } from '../cli-error.js';
import { hashFile } from '../../files/hash-file.js';
import type { CliContext } from '../context.js';

export const USAGE = `verify PROOF [--file ORIGINAL] [--rpc URL | --offline] [--network] [--json]
                                                      check a proof file's six steps; exit 0 only when it is ok.
                                                      --rpc URL: ask that JSON-RPC endpoint (any EVM chain), needing
                                                      nothing but the proof; --offline: ask no chain (those steps stay
                                                      pending). Without either, the chains of --data DIR are asked; a
                                                      proof of another machine's local chain is pending, never failed.
                                                      PROOF may also be a Verifiable Credential (UID.vc.json): Proofdesk's
                                                      own get the six steps, other issuers' the steps that apply.
                                                      --network: also fetch the status list a credential names
                                                      (credentialStatus) for its revocation step, and an issuer's
                                                      did:web document; nothing is fetched without it.
                                                      e.g. verify diploma.proof.json --file diploma.pdf --rpc http://127.0.0.1:8545
verify PROOF... | DIR [--report FILE.csv] [--rpc URL | --offline] [--network]
                                                      many proofs in one run (DIR: every *.json in it): a summary
                                                      table, and one CSV row per proof with --report
verify --remote BASE_URL CERTIFICATE_UID              ask a remote instance of the service to verify its certificate`;

/** The original file's SHA-256 (hex); a file that cannot be read is `invalid_value`. */
async function originalHash(path: string): Promise<string> {
  try {
    return (await hashFile(path)).sha256;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ServiceError('invalid_value', `Cannot read the original file ${path}: ${code === 'ENOENT' ? 'there is no such file' : (error as Error).message}`);
  }
}

/** `verify PROOF` and `verify PROOF... | DIR` */
export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand(args, {
    file: { type: 'string' },
    offline: { type: 'boolean' },
    network: { type: 'boolean' },
    rpc: { type: 'string' },
    report: { type: 'string' },
    remote: { type: 'string' },
    'auth-url': { type: 'string' },
    'client-id': { type: 'string' },
    realm: { type: 'string' },
    partner: { type: 'string' },
  });
  if (values.remote !== undefined) {
    const { verifyRemote } = await import('../verify/verify-remote.js');
    return verifyRemote(values, positionals, ctx);
  }
  const stray = (['partner', 'auth-url', 'client-id', 'realm'] as const).find((flag) => values[flag] !== undefined);
  if (stray) throw new UsageError(`--${stray} applies only with --remote BASE_URL: a proof file is checked without any Partner's account`);
  if (positionals.length === 0) throw new UsageError(`verify needs a proof file (or several, or a directory)\n${USAGE}`);
  if (values.offline && values.rpc !== undefined) throw new UsageError('--offline and --rpc exclude each other: --offline asks no chain');
  if (values.offline && values.network) throw new UsageError('--offline and --network exclude each other: --offline reaches nothing');
  if (values.rpc !== undefined && !/^https?:\/\/[^\s]+$/.test(values.rpc)) throw new UsageError(`--rpc takes an http(s) JSON-RPC URL, e.g. http://127.0.0.1:8545; got ${JSON.stringify(values.rpc)}`);
  const { defaultDataDir } = await import('../../engine/data-dir.js');
  const { isDirectory, verifyBatch } = await import('../verify/verify-batch.js');
  const paths = positionals.map((p) => userPath(p));
  const chainsOptions = { dataDir: userPath(values.data) ?? defaultDataDir(), rpcUrl: values.rpc, offline: values.offline, network: values.network };
  if (paths.length > 1 || isDirectory(paths[0]!) || values.report !== undefined) {
    if (values.file !== undefined) throw new UsageError('--file checks one proof\'s original: give one proof file with it');
    return verifyBatch(paths, { ...chainsOptions, report: userPath(values.report), json: values.json }, ctx);
  }
  const { readProofFile } = await import('../../engine/proofs/verify-read-proof.js');
  const proof = readProofFile(paths[0]!);
  const original = values.file === undefined ? undefined : await originalHash(userPath(values.file));
  const { verifyOne } = await import('../verify/verify-batch.js');
  return verifyOne(proof, original, chainsOptions, values.json === true, ctx);
}
