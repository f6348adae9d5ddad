/**
 * A credential record as a tree (the spec: a record grows by new credentials linking to earlier
 * ones). The whole record is every credential reachable over links in either direction; the
 * tree starts at its first credentials and shows under each the credentials added to it.
 */
import type { RecordNode } from '../../../common/ipc/detail.js';
import type { Credential } from '../../../common/wire-types.js';
import { formatDate } from '../../../common/validate.js';
import type { PartnerScope } from '../../engine/scope.js';

/** Most credentials of one record shown (a record of thousands is shown in part). */
export const MAX_RECORD_NODES = 2000;

interface Graph {
  nodes: Map<string, { title: string; upload_date: string }>;
  /** uid → uids it links to (earlier credentials). */
  links: Map<string, string[]>;
}

/** Builds the tree: roots link to nothing in the record; children link to their parent. */
export function buildRecordTree(graph: Graph): RecordNode[] {
  const children = new Map<string, string[]>();
  for (const [uid, targets] of graph.links) {
    for (const target of targets) if (graph.nodes.has(target)) children.set(target, [...(children.get(target) ?? []), uid]);
  }
  const roots = [...graph.nodes.keys()].filter((uid) => !(graph.links.get(uid) ?? []).some((t) => graph.nodes.has(t)));
  let budget = MAX_RECORD_NODES;
  const node = (uid: string, path: Set<string>): RecordNode => {
    budget--;
    const info = graph.nodes.get(uid)!;
    const next = new Set(path).add(uid);
    const kids = (children.get(uid) ?? []).filter((c) => !next.has(c) && budget > 0).map((c) => node(c, next));
    return { uid, title: info.title, upload_date: info.upload_date, children: kids };
  };
  return roots.filter(() => budget > 0).map((uid) => node(uid, new Set()));
}

/** The whole record of a credential from the embedded engine's database. */
export function recordFromDatabase(scope: PartnerScope, uid: string): { tree: RecordNode[]; size: number } {
  const { db } = scope;
  const start = db.prepare('SELECT id FROM credentials WHERE uid = ? AND partner_id = ?').get(uid, scope.partner.id) as { id: number } | undefined;
  if (!start) return { tree: [], size: 0 };
  const ids = new Set<number>([start.id]);
  const edges: [number, number][] = [];
  let frontier = [start.id];
  while (frontier.length > 0 && ids.size < MAX_RECORD_NODES) {
    const marks = frontier.map(() => '?').join(',');
    const rows = db
      .prepare(`SELECT credential_id AS a, linked_id AS b FROM credential_links WHERE credential_id IN (${marks}) OR linked_id IN (${marks})`)
      .all(...frontier, ...frontier) as { a: number; b: number }[];
    const next: number[] = [];
    for (const { a, b } of rows) {
      edges.push([a, b]);
      for (const id of [a, b]) {
        if (!ids.has(id) && ids.size < MAX_RECORD_NODES) {
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
    const chunk = list.slice(i, i + 500);
    const rows = db
      .prepare(`SELECT id, uid, title, upload_date FROM credentials WHERE partner_id = ? AND id IN (${chunk.map(() => '?').join(',')})`)
      .all(scope.partner.id, ...chunk) as { id: number; uid: string; title: string; upload_date: number }[];
    for (const r of rows) nodes.set(r.id, { uid: r.uid, title: r.title, upload_date: formatDate(r.upload_date) });
  }
  const graph: Graph = { nodes: new Map(), links: new Map() };
  for (const n of nodes.values()) graph.nodes.set(n.uid, { title: n.title, upload_date: n.upload_date });
  const seen = new Set<string>();
  for (const [a, b] of edges) {
    const from = nodes.get(a)?.uid;
    const to = nodes.get(b)?.uid;
    if (!from || !to || seen.has(`${from}>${to}`)) continue;
    seen.add(`${from}>${to}`);
    graph.links.set(from, [...(graph.links.get(from) ?? []), to]);
  }
  return { tree: buildRecordTree(graph), size: graph.nodes.size };
}

/** The part of a record a credential itself holds (its linked credentials, nested): for a remote service. */
export function recordFromCredential(credential: Credential): { tree: RecordNode[]; size: number } {
  const graph: Graph = { nodes: new Map(), links: new Map() };
  const visit = (c: Credential) => {
    if (graph.nodes.has(c.uid) || graph.nodes.size >= MAX_RECORD_NODES) return;
    graph.nodes.set(c.uid, { title: c.title, upload_date: c.upload_date });
    graph.links.set(c.uid, c.credentials.map((l) => l.uid));
    c.credentials.forEach(visit);
  };
  visit(credential);
  return { tree: buildRecordTree(graph), size: graph.nodes.size };
}
