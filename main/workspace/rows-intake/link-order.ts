/**
 * The order rows are created in when they link to each other (staging and CSV import): a row
 * comes after every row it links to. A link naming neither another row nor an existing
 * credential, and rows linked in a circle, are row errors; nothing about them is created.
 */
import type { TaskError } from '../../../common/tasks.js';

export interface LinkedItem {
  key: string;
  /** Other items' keys, or uids of existing credentials. */
  links: string[];
}

export interface LinkPlan {
  /** Keys of the rows that can be attempted, each after the rows it links to. */
  order: string[];
  /** Rows that cannot be created as they are, with the reason. */
  errors: Map<string, TaskError>;
}

/**
 * Plans the creation order.
 *
 * @param isExisting tells whether a link that is not a key names an existing credential
 * @example orderByLinks([{ key: 'b', links: ['a'] }, { key: 'a', links: [] }], () => false).order // ['a', 'b']
 */
export function orderByLinks(
  items: LinkedItem[],
  isExisting: (link: string) => boolean,
  label: (key: string) => string = (k) => JSON.stringify(k),
  /** Rows already known to fail for other reasons (their fields): rows linking to them fail too. */
  failing: ReadonlySet<string> = new Set(),
): LinkPlan {
  const errors = new Map<string, TaskError>();
  const keys = new Set(items.map((i) => i.key));
  const waitingOn = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const item of items) {
    const missing = item.links.find((link) => !keys.has(link) && !isExisting(link));
    if (missing !== undefined) {
      errors.set(item.key, { id: 'missing_credential', message: `It links to ${JSON.stringify(missing)}, which is neither a row here nor an existing credential` });
    }
    const own = item.links.filter((link) => keys.has(link));
    if (own.includes(item.key)) errors.set(item.key, { id: 'invalid_value', message: 'It links to itself' });
    waitingOn.set(item.key, own.length);
    for (const target of own) dependents.set(target, [...(dependents.get(target) ?? []), item.key]);
  }
  // Kahn's algorithm: take rows whose targets are all placed, in their original order.
  const order: string[] = [];
  const ready = items.filter((i) => waitingOn.get(i.key) === 0).map((i) => i.key);
  while (ready.length > 0) {
    const key = ready.shift()!;
    order.push(key);
    for (const next of dependents.get(key) ?? []) {
      const left = waitingOn.get(next)! - 1;
      waitingOn.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  const placed = new Set(order);
  for (const item of items) {
    if (!placed.has(item.key) && !errors.has(item.key)) {
      errors.set(item.key, { id: 'invalid_value', message: `${label(item.key)} is part of a circle of links (or links to one): a record grows only by linking to earlier credentials` });
    }
  }
  // A row linking to a row that cannot be created cannot be created either. Targets come
  // first in `order`, so one pass carries a failure down every chain of links.
  const byKey = new Map(items.map((i) => [i.key, i]));
  const result: string[] = [];
  for (const key of order) {
    if (errors.has(key)) continue;
    const target = byKey.get(key)!.links.find((link) => keys.has(link) && (errors.has(link) || failing.has(link)));
    if (target !== undefined) errors.set(key, { id: 'invalid_value', message: `It links to ${label(target)}, which cannot be created` });
    else if (!failing.has(key)) result.push(key);
  }
  return { order: result, errors };
}
