/**
 * Handlers of the CSV import slice (common/ipc/csv-import.ts): preview with row errors, import
 * as a task, the template. Both apply the dialog's cell edits to the table read from disk and
 * check it with the same function, so what the preview says will import is what imports. Rows created by an earlier import of a file of the same name are
 * remembered by key, so retrying the refused rows of the corrected file links to the rows
 * created the first time. (By name, not path: the browser bridge stores each upload anew.)
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { CSV_IMPORT_IPC, CsvImportResult, CsvMapping } from '../../../common/ipc/csv-import.js';
import type { StagingCreateRow } from '../../../common/ipc/staging.js';
import type { IssuingService } from '../../../common/issuing-service.js';
import { CSV_TEMPLATE, applyEdits, checkCsvRows, guessMapping, readCsvTable, rowKey, toPreview, uidLinks, type CsvTable } from '../../workspace/rows-intake/csv-rows.js';
import { createRows } from '../../workspace/rows-intake/create-rows.js';
import { existingCredentials } from '../../workspace/rows-intake/existing-credentials.js';
import type { PartnerScope } from '../../engine/scope.js';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';

async function check(scope: PartnerScope | null, service: IssuingService, table: CsvTable, mapping: CsvMapping, earlier: Map<string, string>) {
  const existing = await existingCredentials(scope, service, [...uidLinks(table, mapping), ...earlier.values()]);
  // A key created by an earlier import of this file counts as an existing credential.
  return checkCsvRows(table, mapping, (link) => existing.has(link.toLowerCase()), Date.now());
}

export function createCsvImportHandlers(ctx: AppContext): HandlersOf<typeof CSV_IMPORT_IPC> {
  /** Per file name: row key → uid of what earlier imports created. */
  const createdKeys = new Map<string, Map<string, string>>();
  /** Results of the latest import tasks, for `csvImport:outcome` (at most 20). */
  const results = new Map<string, CsvImportResult>();
  const scopeOf = (partnerId: string) => (ctx.engine ? ctx.engine.scopeFor(partnerId) : null);
  /**
   * The file read last, kept while its size and modification time stay the same: the dialog
   * checks again after every edited cell, and reading and parsing is half of that work.
   */
  let lastRead: { path: string; size: number; mtimeMs: number; table: CsvTable } | null = null;
  const read = async (path: string): Promise<CsvTable> => {
    const info = await stat(path).catch(() => null);
    if (info && lastRead && lastRead.path === path && lastRead.size === info.size && lastRead.mtimeMs === info.mtimeMs) return lastRead.table;
    const table = await readCsvTable(path);
    lastRead = info && !table.file_error ? { path, size: info.size, mtimeMs: info.mtimeMs, table } : null;
    return table;
  };

  return {
    'csvImport:preview': async (path, mapping, edits) => {
      const { partner, service } = ctx.require();
      const table = applyEdits(await read(path), edits);
      const used = mapping ?? guessMapping(table.columns);
      const earlier = createdKeys.get(basename(path)) ?? new Map<string, string>();
      const checked = await check(scopeOf(partner.id), service, resolveEarlier(table, used, earlier), used, earlier);
      return toPreview(table, used, checked, edits);
    },
    'csvImport:run': async (path, mapping, options) => {
      const { partner, service } = ctx.require();
      // Edits naming no cell of the file are refused here, before the task starts.
      const table = applyEdits(await read(path), options.edits);
      const wanted = options.rows ? new Set(options.rows) : null;
      const total = wanted ? wanted.size : table.records.length;
      const label = `Importing ${total.toLocaleString('en-US')} credential${total === 1 ? '' : 's'} from ${table.file_name}`;
      let taskId = '';
      const started = ctx.tasks.start(
        'csv-import',
        { text: label, code: { id: 'csvImport', count: total, name: table.file_name } },
        async (task): Promise<CsvImportResult> => {
          const earlier = createdKeys.get(table.file_name) ?? new Map<string, string>();
          createdKeys.set(table.file_name, earlier);
          const { checks, file_error } = await check(scopeOf(partner.id), service, resolveEarlier(table, mapping, earlier), mapping, earlier);
          if (file_error) return { created: [], refused: [{ row: 0, line: 1, title: table.file_name, error: file_error }], not_created: [] };
          const selected = checks.filter((c) => !wanted || wanted.has(c.row));
          const result: CsvImportResult = { created: [], refused: [], not_created: [] };
          const toCreate: StagingCreateRow[] = [];
          for (const c of selected) {
            if (c.errors.length > 0) result.refused.push({ row: c.row, line: c.line, title: c.title, error: c.errors[0]! });
            else {
              toCreate.push({ key: rowKey(c), file: null, title: c.title, metadata: c.metadata, tags: c.tags, expiry_date: c.expiry_date, links: c.links });
            }
          }
          const byKey = new Map(selected.map((c) => [rowKey(c), c]));
          try {
            const outcomes = toCreate.length
              ? await createRows(service, toCreate, { engine: options.engine, allowDuplicates: false, label: (key) => (byKey.has(key) ? `row ${byKey.get(key)!.row}` : JSON.stringify(key)) }, task)
              : [];
            for (const outcome of outcomes) {
              const c = byKey.get(outcome.key)!;
              if (outcome.status === 'created') {
                result.created.push({ row: c.row, uid: outcome.uid, title: c.title });
                if (c.key !== null) earlier.set(c.key, outcome.uid);
              } else if (outcome.status === 'failed') {
                result.refused.push({ row: c.row, line: c.line, title: c.title, error: outcome.error });
              } else {
                result.not_created.push({ row: c.row, line: c.line, title: c.title, reason: outcome.reason });
              }
            }
          } finally {
            ctx.events.emit({ type: 'counts', scopes: ['credentials', 'jobs', 'tags'] });
          }
          result.refused.sort((a, b) => a.row - b.row);
          result.not_created.sort((a, b) => a.row - b.row);
          results.set(taskId, result);
          for (const old of [...results.keys()].slice(0, Math.max(0, results.size - 20))) results.delete(old);
          return result;
        },
        total,
      );
      // The work starts on the next turn (task-runner.ts), after this id is known.
      taskId = started.id;
      return started;
    },
    'csvImport:outcome': async (taskId) => results.get(taskId) ?? null,
    'csvImport:template': async () => ({ file_name: 'proofdesk-import-template.csv', text: CSV_TEMPLATE }),
  };
}

/**
 * The table with links to keys created by an earlier import replaced by their uids, so a retry
 * of the refused rows links to what was created the first time.
 */
function resolveEarlier(table: CsvTable, mapping: CsvMapping, earlier: Map<string, string>): CsvTable {
  const i = mapping.link === null ? -1 : table.columns.indexOf(mapping.link);
  if (i < 0 || earlier.size === 0) return table;
  const keyColumn = mapping.key === null ? -1 : table.columns.indexOf(mapping.key);
  const ownKeys = new Set(keyColumn < 0 ? [] : table.records.map((r) => (r.fields[keyColumn] ?? '').trim()));
  return {
    ...table,
    records: table.records.map((r) => {
      const fields = [...r.fields];
      fields[i] = (fields[i] ?? '')
        .split(/[;|]/)
        .map((v) => v.trim())
        .map((v) => (earlier.has(v) && ownKeys.has(v) ? earlier.get(v)! : v))
        .join(';');
      return { ...r, fields };
    }),
  };
}
