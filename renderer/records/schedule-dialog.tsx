import { useEffect, useState } from 'react';
import type { NextIssuing } from '../../common/ipc/jobs.js';
import { ConfirmStep, DialogActions, DialogError, useDialogTask } from '../shell/dialog-footer.js';
import { Modal } from '../shell/modal.js';
import { useShellStore } from '../shell/shell-store.js';
import { CONFIRM_OVER } from './count-text.js';
import { useRecordsStore, useSelectedCount } from './records-store.js';
import { t as translate } from '../i18n/i18n-store.js';
import { localDateTime } from '../format/local-format.js';
import { Message, strong, useT } from '../i18n/use-t.js';
import { chainTechnical, engineDisplayName } from '../format/chain-display.js';

const NO_ENGINES: never[] = [];

/** "in 3 hours (24 Nov 2026, 09:00)", or what happens when nothing is scheduled yet. */
export function describeNextIssuing(next: NextIssuing | null, now = Date.now()): string {
  if (!next) return translate('records.schedule.loadingNext');
  if (next.nextIssuingDate) {
    const due = new Date(next.nextIssuingDate).getTime() <= now ? 'yes' : 'no';
    return translate('records.schedule.next', { date: localDateTime(next.nextIssuingDate), due });
  }
  if (next.intervalSeconds !== null) {
    const date = new Date(now + next.intervalSeconds * 1000).toISOString();
    return translate('records.schedule.nothingYet', { date: localDateTime(date) });
  }
  return translate('records.schedule.serviceDecides');
}

/** `Schedule`: the selection on one or more engines (a checkbox per engine, named by its id). */
export function ScheduleDialog({ onClose, mode = 'schedule' }: { onClose: () => void; mode?: 'schedule' | 'unschedule' }) {
  const count = useSelectedCount();
  const engines = useShellStore((s) => s.status?.engines ?? NO_ENGINES);
  const [chosen, setChosen] = useState<string[]>(engines.length === 1 ? [engines[0]!.id] : []);
  const [next, setNext] = useState<NextIssuing | null>(null);
  const [confirming, setConfirming] = useState(false);
  const task = useDialogTask();
  const { busy, error } = task;
  const t = useT();
  const title = mode === 'schedule' ? t('records.schedule.title') : t('records.unschedule.title');

  useEffect(() => {
    window.proofdesk.jobsNextIssuing().then(setNext, () => setNext({ nextIssuingDate: null, intervalSeconds: null }));
  }, []);

  const run = () =>
    task.run(
      async () => {
        const selection = await useRecordsStore.getState().selectionForMain();
        if (mode === 'schedule') await window.proofdesk.recordsSchedule(selection, chosen);
        else for (const engine of chosen) await window.proofdesk.recordsUnschedule(selection, engine);
        onClose();
      },
      () => setConfirming(false),
    );

  return (
    <Modal title={title} onClose={onClose}>
      {confirming ? (
        <ConfirmStep busy={busy} onBack={() => setConfirming(false)} onConfirm={() => void run()}>
          <Message id="records.schedule.confirm" values={{ mode, count, engines: chosen.map((id) => engineDisplayName(id, engines)).join(', '), b: strong }} />
        </ConfirmStep>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (count > CONFIRM_OVER) setConfirming(true);
            else void run();
          }}
        >
          <p className="muted">{t('records.dialog.for', { count })}</p>
          {mode === 'schedule' && <p data-testid="next-issuing">{describeNextIssuing(next)}</p>}
          <fieldset className="field">
            <legend>{t('records.schedule.engines')}</legend>
            {engines.map((engine) => (
              <label key={engine.id}>
                <input
                  type="checkbox"
                  checked={chosen.includes(engine.id)}
                  onChange={(event) => setChosen((c) => (event.target.checked ? [...c, engine.id] : c.filter((e) => e !== engine.id)))}
                  aria-label={engine.id}
                />{' '}
                <span title={chainTechnical(engine)}>{engineDisplayName(engine.id, engines)}</span> <span className="muted">({engine.environment})</span>
              </label>
            ))}
          </fieldset>
          <DialogError error={error} />
          <DialogActions label={title} disabled={busy || chosen.length === 0} onCancel={onClose} />
        </form>
      )}
    </Modal>
  );
}
