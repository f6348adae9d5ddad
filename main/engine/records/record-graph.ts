/** A credential record's graph: every credential reachable over links, and the links among them. */
import { formatDate } from '../../../common/validate.js';
import type { PartnerScope } from '../scope.js';
import { isOneOf } from '../store/dialect.js';

export interface RecordGraph {
  nodes: Map<string, { title: string; upload_date: string }>;
  /** uid → uids it links to (earlier credentials). */
  links: Map<string, string[]>;
}

/**
 * The credentials reachable from `uid` over links in either direction (at most `maxNodes`),
 * with the links among them; empty when the Partner has no such credential.
 */
export function recordGraphOf(scope: PartnerScope, uid: string, maxNodes: number): RecordGraph {
  const { db } = scope;
  const start = db.prepare('SELECT id FROM credentials WHERE uid = ? AND partner_id = ?').get(uid, scope.partner.id) as { id: number } | undefined;
  if (!start) return { nodes: new Map(), links: new Map() };
  const ids = new Set<number>([start.id]);
  const edges: [number, number][] = [];
  let frontier = [start.id];
  while (frontier.length > 0 && ids.size < maxNodes) {
    const from = isOneOf(db, 'credential_id', frontier, 'bigint');
    const to = isOneOf(db, 'linked_id', frontier, 'bigint');
    const rows = db
      .prepare(`SELECT credential_id AS a, linked_id AS b FROM credential_links WHERE ${from.sql} OR ${to.sql}`)
      .all(...from.params, ...to.params) as { a: number; b: number }[];
    const next: number[] = [];
    for (const { a, b } of rows) {
      edges.push([a, b]);
      for (const id of [a, b]) {
        if (!ids.has(id) && ids.size < maxNodes) {
          ids.add(id);
          next.push(id);
        }
      }
    }
    frontier = next;
  }
  const list = [...ids];
  const nodes = new Map<number, { uid: string; title: string; upload_date: string }>();
  for (let i = 0; i < list.length; i += 500) {
    const oneOf = isOneOf(db, 'id', list.slice(i, i + 500), 'bigint');
    const rows = db
      .prepare(`SELECT id, uid, title, upload_date FROM credentials WHERE partner_id = ? AND ${oneOf.sql}`)
      .all(scope.partner.id, ...oneOf.params) as { id: number; uid: string; title: string; upload_date: number }[];
    for (const r of rows) nodes.set(r.id, { uid: r.uid, title: r.title, upload_date: formatDate(r.upload_date) });
  }
  const graph: RecordGraph = { nodes: new Map(), links: new Map() };
  for (const n of nodes.values()) graph.nodes.set(n.uid, { title: n.title, upload_date: n.upload_date });
  const seen = new Set<string>();
  for (const [a, b] of edges) {
    const from = nodes.get(a)?.uid;
    const to = nodes.get(b)?.uid;
    if (!from || !to || seen.has(`${from}>${to}`)) continue;
    seen.add(`${from}>${to}`);
    graph.links.set(from, [...(graph.links.get(from) ?? []), to]);
  }
  return graph;
}
