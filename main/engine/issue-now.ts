import { ServiceError } from '../../common/errors.js';
import type { IssueNowBody } from '../../common/requests.js';
import { isPlainObject, rejectUnknownFields, requireField } from '../../common/validate.js';
import { ChainError } from '../chain/index.js';
import { findScheduledJob } from './jobs.js';
import { cached } from './list-query.js';
import type { PartnerScope } from './scope.js';
import { stage } from './stage-timing.js';

/**
 * POST /jobs/immediate (demo engines only): issues the Partner's open job on the engine now.
 * Returns once the transaction is sent (the job is then `started`, or `unconfirmed` if already
 * mined); the scheduler, or the caller through `issuing.tick()`, follows it to `finished`.
 */
export async function issueJobNow(scope: PartnerScope, body: IssueNowBody | unknown): Promise<number> {
  if (!isPlainObject(body)) throw new ServiceError('no_json', 'The request body must be a JSON object');
  rejectUnknownFields(body, ['engine'], 'the request');
  const engine = scope.catalog.get(requireField(body, 'engine', 'the request'));
  if (engine.environment !== 'demo') {
    throw new ServiceError('wrong_blockchain_engine', `Immediate issuing is only available on demo engines; ${engine.id} is live`);
  }
  const jobId = findScheduledJob(scope, engine.id);
  if (jobId === undefined) throw new ServiceError('missing_job', `There is no scheduled job on ${engine.id}`);
  const { issuer } = scope.issuing;
  const expired = issuer.expiredCredentials(jobId);
  if (expired.length > 0) {
    throw new ServiceError('invalid_expiry_date', `The job holds credential(s) whose expiry date has passed; unschedule them first: ${expired.join(', ')}`);
  }
  const ran = await issuer.whileClaimed(scope.partner.id, engine.id, async () => {
    try {
      // Gas × max fee of what the job will send, against the balance: short, the job stays scheduled.
      await stage('chain checks', () => issuer.checkFunds(jobId, scope.partner.id, engine.id));
    } catch (error) {
      // The chain's own message may name its RPC URL (API keys live there): keep it out of answers.
      if (error instanceof ChainError) throw new ServiceError('try_again_later', `The chain of ${engine.id} cannot be used now (${error.name})`, { cause: error });
      throw error;
    }
    issuer.start(jobId);
    // The activity log names who started it once the chain has it (migration 7's trigger).
    cached(scope.db, "UPDATE jobs SET started_by = ? WHERE id = ? AND status = 'started'").run(scope.actor, jobId);
    // Started, the job is under way whatever happens next: a chain hiccup now is recorded on
    // the job and retried by the scheduler, not reported as a failure of this call.
    await issuer.advance(jobId).catch((error: unknown) => {
      if (!(error instanceof ChainError)) throw error;
    });
  });
  if (!ran) throw new ServiceError('try_again_later', `${engine.id} is already issuing for this partner; try again when that job is sent`);
  return jobId;
}
