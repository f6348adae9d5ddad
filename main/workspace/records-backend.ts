/**
 * The Records view's data behind one interface, chosen once per connection: the embedded
 * engine (windows, search, selections resolved in main) or a remote service (the spec's
 * listings, paged). The handlers call it without asking which one it is.
 */
import type { IssuingService } from '../../common/issuing-service.js';
import type {
  BulkScheduleResult,
  BulkTagResult,
  BulkUnscheduleResult,
  MetadataKeyCount,
  RecordFilter,
  RecordWindow,
  RecordWindowRequest,
  Selection,
  TagEdit,
  TagSuggestion,
  TagUndoResult,
} from '../../common/records.js';
import { ServiceError } from '../../common/errors.js';
import type { TaskContext } from '../../common/tasks.js';
import { partnerMetadataKeyCounts, uidsOf, type PartnerScope } from '../engine/index.js';
import { scheduleSelection, unscheduleSelection } from './bulk-schedule.js';
import { editSelectionTags, undoSelectionTags } from './bulk-tags.js';
import { recordWindow, tagSuggestions } from './record-query.js';
import { remoteCount, remoteEditTags, remoteRecordWindow, remoteSchedule, remoteUids, remoteUnschedule } from './remote-records.js';
import { countSelection, resolveSelection } from './selection.js';

export interface RecordsBackend {
  readonly kind: 'embedded' | 'remote';
  window(request: RecordWindowRequest): Promise<RecordWindow>;
  /** The tag filter's autocomplete (a remote service lists no tags: none). */
  tags(prefix: string, limit?: number): Promise<TagSuggestion[]>;
  /** The Partner's metadata keys most used first, with counts; null where they cannot be counted (a remote service's API lists no keys). */
  metadataKeys(limit: number): Promise<MetadataKeyCount[] | null>;
  count(selection: Selection): Promise<number>;
  total(filter: RecordFilter): Promise<number>;
  /** The uids a selection holds (in creation order for a filter), with progress and cancel. */
  uids(selection: Selection, task?: TaskContext): Promise<string[]>;
  /** Refuses an unknown engine before any work starts (`wrong_blockchain_engine`) where the engines are known. */
  checkEngines(engines: readonly string[]): void;
  editTags(selection: Selection, edit: TagEdit, task: TaskContext): Promise<BulkTagResult>;
  /** Undoes a tag edit by its result's token (the embedded engine only). */
  undoTags(token: string, task: TaskContext): Promise<TagUndoResult>;
  schedule(selection: Selection, engines: string[], task: TaskContext): Promise<BulkScheduleResult>;
  unschedule(selection: Selection, engine: string, task: TaskContext): Promise<BulkUnscheduleResult>;
}

/** The records of one Partner of the embedded engine. */
export function embeddedRecords(scope: PartnerScope): RecordsBackend {
  return {
    kind: 'embedded',
    window: async (request) => recordWindow(scope, request),
    tags: async (prefix, limit) => tagSuggestions(scope, prefix, limit),
    metadataKeys: async (limit) => partnerMetadataKeyCounts(scope, limit),
    count: async (selection) => countSelection(scope, selection),
    total: async (filter) => countSelection(scope, { kind: 'filter', filter }),
    uids: async (selection, task) => uidsOf(scope, await resolveSelection(scope, selection, task)),
    checkEngines: (engines) => {
      for (const engine of engines) scope.catalog.get(engine);
    },
    editTags: (selection, edit, task) => editSelectionTags(scope, selection, edit, task),
    undoTags: (token, task) => undoSelectionTags(scope, token, task),
    schedule: (selection, engines, task) => scheduleSelection(scope, selection, engines, task),
    unschedule: (selection, engine, task) => unscheduleSelection(scope, selection, engine, task),
  };
}

/** The records of a remote service's Partner, through the spec's endpoints. */
export function remoteRecords(service: IssuingService): RecordsBackend {
  return {
    kind: 'remote',
    window: (request) => remoteRecordWindow(service, request),
    tags: async () => [],
    // Counting keys would mean reading every credential of the Partner page by page.
    metadataKeys: async () => null,
    count: (selection) => remoteCount(service, selection),
    total: (filter) => remoteCount(service, { kind: 'filter', filter }),
    uids: (selection, task) => remoteUids(service, selection, task),
    // The service answers an unknown engine itself, when the work asks.
    checkEngines: () => undefined,
    editTags: (selection, edit, task) => remoteEditTags(service, selection, edit, task),
    // Its results carry no undo token: the spec has no way to read every credential's tags before an edit in one go.
    undoTags: async () => {
      throw new ServiceError('invalid_value', 'Tag changes on a remote service cannot be undone here; change the tags again instead.');
    },
    schedule: (selection, engines, task) => remoteSchedule(service, selection, engines, task),
    unschedule: (selection, engine, task) => remoteUnschedule(service, selection, engine, task),
  };
}
