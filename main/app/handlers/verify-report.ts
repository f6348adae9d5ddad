/**
 * The audit report of a verification run: CSV, and a printable HTML page, with
 * the app version, the time, the chain endpoints asked, and every proof's result and failing step.
 */
import type { VerifyReport } from '../../../common/ipc/verify.js';
import { VERIFICATION_STATUSES } from '../../../common/wire-types.js';
import { packageVersion } from '../../api/version.js';
import type { VerifyRun } from './verify-run.js';
import { csvField } from '../../../common/csv-field.js';


function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function stamp(iso: string): string {
  return iso.replace(/[:.]/g, '-').slice(0, 19);
}

const COLUMNS = ['proof', 'original', 'certificate_uid', 'title', 'issuer', 'engine', 'result', 'failing_step', 'reason'] as const;

function cells(run: VerifyRun): string[][] {
  return run.rows.map((r) => [r.name, r.original ?? '', r.certificate_uid, r.title, r.issuer, r.engine, r.result, r.step, r.reason]);
}

/** The report in the asked format. `now` is when it is made. */
export function verifyReport(run: VerifyRun, format: 'csv' | 'html', now = new Date()): VerifyReport {
  const s = run.summary;
  const version = packageVersion();
  const endpoints = s.endpoints.length > 0 ? s.endpoints.map((e) => `${e.engine}: ${e.endpoint}`) : ['no chain was needed'];
  const counts = VERIFICATION_STATUSES.map((status) => `${status} ${s.counts[status]}`).join(', ');
  if (format === 'csv') {
    // The run's facts as leading comment-style rows, then one row per proof.
    const head = [
      ['# Proofdesk verification report'],
      ['# app_version', version],
      ['# report_time', now.toISOString()],
      ['# run_started', s.started_at],
      ['# run_finished', s.finished_at ?? 'still running'],
      ['# chain_endpoints', endpoints.join('; ')],
      ['# counts', counts],
      [...COLUMNS],
    ];
    const lines = [...head, ...cells(run)].map((row) => row.map(csvField).join(','));
    return { file_name: `verification-report-${stamp(now.toISOString())}.csv`, media_type: 'text/csv', content: `${lines.join('\r\n')}\r\n` };
  }
  const rows = cells(run)
    .map((row) => `<tr class="r-${escapeHtml(row[6]!)}">${row.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('\n');
  const content = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Proofdesk verification report</title>
<style>
body{font:13px/1.4 system-ui,sans-serif;margin:2rem;color:#111}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #bbb;padding:.25rem .4rem;text-align:left;vertical-align:top}
th{background:#eee}.r-ok td:nth-child(7){color:#1a6e2e}tr:not(.r-ok) td:nth-child(7){color:#a11;font-weight:600}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}
@media print{body{margin:0}thead{display:table-header-group}tr{break-inside:avoid}}
</style></head><body>
<h1>Proofdesk verification report</h1>
<dl>
<dt>App version</dt><dd>Proofdesk ${escapeHtml(version)}</dd>
<dt>Report made</dt><dd>${escapeHtml(now.toISOString())}</dd>
<dt>Run</dt><dd>${escapeHtml(s.started_at)} to ${escapeHtml(s.finished_at ?? 'still running')}</dd>
<dt>Chain endpoints</dt><dd>${endpoints.map(escapeHtml).join('<br>')}</dd>
<dt>Proofs</dt><dd>${run.rows.length} (${escapeHtml(counts)})</dd>
</dl>
<table><thead><tr>${COLUMNS.map((c) => `<th scope="col">${escapeHtml(c.replace(/_/g, ' '))}</th>`).join('')}</tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
  return { file_name: `verification-report-${stamp(now.toISOString())}.html`, media_type: 'text/html', content };
}
