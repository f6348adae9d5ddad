/** The records table's windows and tag autocomplete, checked before the engine reads them. */
import { ServiceError } from '../../common/errors.js';
import { RECORD_WINDOW_MAX_LIMIT, type RecordWindow, type RecordWindowRequest, type TagSuggestion } from '../../common/records.js';
import { filterWindowIds, partnerTagCounts, readRecordRows, type PartnerScope } from '../engine/index.js';

/** A window of the records table: rows offset .. offset+limit-1 of the filtered, sorted records, and the total. */
export function recordWindow(scope: PartnerScope, request: RecordWindowRequest): RecordWindow {
  if (request.limit < 1 || request.limit > RECORD_WINDOW_MAX_LIMIT) throw new ServiceError('wrong_pagination_argument', `limit must be from 1 to ${RECORD_WINDOW_MAX_LIMIT}`);
  const engines = scope.catalog.list().map((e) => e.id);
  const { total, ids } = filterWindowIds(scope, request.filter, request.sort, request.offset, request.limit);
  return { offset: request.offset, total, rows: readRecordRows(scope, ids, engines), engines };
}

/**
 * The Partner's credential tags starting with `prefix` (ignoring case), most used first, with
 * how many credentials carry each: the tag filter's autocomplete.
 */
export function tagSuggestions(scope: PartnerScope, prefix: string, limit = 20): TagSuggestion[] {
  if (typeof prefix !== 'string' || prefix.length > 64) throw new ServiceError('invalid_value', 'The tag prefix must be text of at most 64 characters');
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 200) throw new ServiceError('invalid_value', 'The number of suggestions must be from 1 to 200');
  const wanted = prefix.toLowerCase();
  const out: TagSuggestion[] = [];
  for (const t of partnerTagCounts(scope)) {
    if (!t.tag.toLowerCase().startsWith(wanted)) continue;
    out.push({ ...t });
    if (out.length === limit) break;
  }
  return out;
}
