import type { RecordNode } from '../../common/ipc/detail.js';
import { openDetail } from './detail-store.js';
import { localDay } from '../format/local-format.js';
import { useT } from '../i18n/use-t.js';

function Node({ node, current }: { node: RecordNode; current: string }) {
  const here = node.uid === current;
  return (
    <li>
      {here ? (
        <strong aria-current="true">{node.title}</strong>
      ) : (
        <button type="button" className="link-button" onClick={() => openDetail(node.uid)}>
          {node.title}
        </button>
      )}{' '}
      <span className="muted">{localDay(node.upload_date)}</span>
      {node.children.length > 0 && (
        <ul>
          {node.children.map((child) => (
            <Node key={child.uid} node={child} current={current} />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * The whole record as a tree: its first credentials at the top, under each the credentials
 * added to it later. Every other credential is a button that opens its detail.
 */
export function RecordTree({ record, current, size }: { record: RecordNode[]; current: string; size: number }) {
  const t = useT();
  return (
    <nav aria-label={t('detail.recordTree')} className="record-tree">
      <p className="muted">
        {t('detail.recordSize', { size })}
      </p>
      <ul>
        {record.map((node) => (
          <Node key={node.uid} node={node} current={current} />
        ))}
      </ul>
    </nav>
  );
}
