/**
 * Stage 2, describe: a settled file is hashed and its metadata (sidecar, manifest row, the
 * folder's template) made into the credential's details.
 */
import type { CredentialDetails } from '../../common/requests.js';
import { validateTags } from '../../common/validate.js';
import type { Folder, FolderIntakeCore } from './folder-intake-core.js';
import { ContainmentError, errorCode, hashContained, statEntry, type EntryInfo } from './entries.js';
import { INGEST_METADATA_KEY, MetadataError, MetadataSource, type FileFields } from './file-metadata.js';
import type { FileRow } from './journal.js';

export class Describer {
  private readonly metadataSource: MetadataSource;

  constructor(private readonly core: FolderIntakeCore) {
    this.metadataSource = new MetadataSource(core.stableMs);
  }

  /**
   * Hashes a settled file and looks up its metadata; the row becomes `hashed` (in memory: the
   * journal learns the hash with the `uploading` record, written before anything is sent).
   * Returns the bytes of a small file, which are then uploaded as they were hashed.
   */
  async hash(row: FileRow): Promise<{ bytes: Buffer | undefined } | undefined> {
    const path = this.core.pathOf(row);
    if (row.size === 0) {
      this.core.filer.fail(row, 'invalid_value', 'The file is empty (0 bytes): there is nothing to issue');
      return undefined;
    }
    let hashed: { sha256: string; bytes: Buffer | undefined; after: EntryInfo | undefined };
    try {
      hashed = await hashContained(path, row.size, this.core.folderOf(row).realRoot);
    } catch (error) {
      const code = errorCode(error);
      if (error instanceof ContainmentError) this.core.filer.fail(row, 'no_file_on_payload', error.message);
      else if (code === 'ENOENT' || code === 'ENOTDIR') this.core.vanish(row);
      else this.core.filer.fail(row, 'no_file_on_payload', `The file cannot be read (${code})`);
      return undefined;
    }
    const after = hashed.after ?? (await statEntry(path));
    if (after.kind === 'gone') {
      this.core.vanish(row);
      return undefined;
    }
    if (after.kind !== 'file' || after.size !== row.size || after.mtimeMs !== row.mtime_ms || (hashed.bytes && hashed.bytes.length !== row.size)) {
      this.core.resettle(row, after.kind === 'file' ? after.size : -1, after.kind === 'file' ? after.mtimeMs : -1);
      return undefined;
    }
    const folder = this.core.folderOf(row);
    const lookup = await this.metadataSource.lookup(folder.root, row.rel_path, this.core.clock.now());
    if (lookup.kind === 'wait') {
      const now = this.core.clock.now();
      this.core.settler.settleFrom(row.id, now - this.core.stableMs, now + this.core.stableMs);
      return undefined;
    }
    if (lookup.kind === 'fail') {
      this.core.rows.remember(row, { sidecar: lookup.sidecar });
      this.core.filer.fail(row, lookup.error.id, lookup.error.message);
      return undefined;
    }
    try {
      const details = this.details(folder, row, hashed.sha256, lookup.fields);
      this.core.rows.remember(row, { state: 'hashed', sha256: hashed.sha256, details: JSON.stringify(details), sidecar: lookup.sidecar });
      this.core.rows.indexContent(row);
    } catch (error) {
      if (!(error instanceof MetadataError)) throw error;
      this.core.rows.remember(row, { sidecar: lookup.sidecar });
      this.core.filer.fail(row, error.id, error.message);
      return undefined;
    }
    return { bytes: hashed.bytes };
  }

  details(folder: Folder, row: FileRow, sha256: string, fields: FileFields): CredentialDetails {
    const tags = [...folder.tags, ...(fields.tags ?? []).filter((t) => !folder.tags.includes(t))];
    try {
      validateTags(tags, 'tags');
    } catch (error) {
      throw new MetadataError('invalid_tag', `the folder's and the file's tags together: ${(error as Error).message}`);
    }
    const details: CredentialDetails = {
      title: fields.title ?? row.rel_path.slice(row.rel_path.lastIndexOf('/') + 1),
      metadata: { ...folder.metadata, ...fields.metadata, [INGEST_METADATA_KEY]: { sha256, path: row.rel_path } },
      tags,
    };
    if (fields.expiry_date) details.expiry_date = fields.expiry_date;
    if (fields.credentials?.length) details.credentials = fields.credentials;
    return details;
  }
}
