import { ServiceError } from '../../common/errors.js';
import type { BulkTagResult, Selection, TagEdit, TagUndoResult } from '../../common/records.js';
import type { TaskContext } from '../../common/tasks.js';
import { editTagsRemembering, restoreTagsOf, type PartnerScope } from '../engine/index.js';
import { resolveSelection, throwIfCancelled } from './selection.js';
import { rememberTagEdit, takeTagEdit } from './tag-undo.js';

/**
 * Adds tags to, replaces the tags of, or removes a tag from every credential of a selection
 * (a validated TagEdit): all of them or none, as PATCH / PUT /credentials do. The selection
 * is resolved in chunks (progress, cancel); the writes then run in one transaction, which is
 * the point of no return: a cancel that arrives during it comes too late and the edit stands.
 * Progress: resolving the selection is the first half of the work, writing the second.
 * Credentials that already carry the result are left as they are (and not counted as changed);
 * a credential that would exceed the tag limit fails the whole edit with `invalid_tag`.
 * The result carries a token that undoes the edit (undoSelectionTags) while it is remembered.
 */
export async function editSelectionTags(scope: PartnerScope, selection: Selection, edit: TagEdit, task: TaskContext): Promise<BulkTagResult> {
  let resolved = 0;
  const ids = await resolveSelection(scope, selection, task, (chunk) => {
    resolved += chunk.length;
    task.progress(0, resolved * 2);
  });
  if (ids.length === 0) throw new ServiceError('empty_credential_list', 'No credential matches the selection; nothing was changed.');
  task.progress(ids.length, ids.length * 2);
  throwIfCancelled(task.signal);
  const { changed, changes } = editTagsRemembering(scope, ids, edit);
  if (edit.mode === 'remove' && changed === 0) {
    throw new ServiceError('tag_does_not_exist', `None of the ${ids.length} selected credentials has the tag "${edit.tag}"; nothing was changed.`);
  }
  task.progress(ids.length * 2, ids.length * 2);
  return { selected: ids.length, changed, undo: rememberTagEdit(scope.partner.id, changes) };
}

/**
 * Undoes a bulk tag edit by its token: every credential it changed gets its tags back exactly,
 * in one transaction; one changed again since is left as it is and counted as skipped.
 */
export async function undoSelectionTags(scope: PartnerScope, token: string, task: TaskContext): Promise<TagUndoResult> {
  const changes = takeTagEdit(scope.partner.id, token);
  task.progress(0, changes.length);
  const result = restoreTagsOf(scope, changes);
  task.progress(changes.length, changes.length);
  return result;
}
