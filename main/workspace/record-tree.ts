/**
 * A credential record as a tree (the spec: a record grows by new credentials linking to earlier
 * ones). The whole record is every credential reachable over links in either direction; the
 * tree starts at its first credentials and shows under each the credentials added to it.
 */
import type { RecordNode } from '../../common/ipc/detail.js';
import type { Credential } from '../../common/wire-types.js';
import { recordGraphOf, type PartnerScope, type RecordGraph } from '../engine/index.js';

/** Most credentials of one record shown (a record of thousands is shown in part). */
export const MAX_RECORD_NODES = 2000;

/** Builds the tree: roots link to nothing in the record; children link to their parent. */
export function buildRecordTree(graph: RecordGraph): RecordNode[] {
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
  const graph = recordGraphOf(scope, uid, MAX_RECORD_NODES);
  return { tree: buildRecordTree(graph), size: graph.nodes.size };
}

/** The part of a record a credential itself holds (its linked credentials, nested): for a remote service. */
export function recordFromCredential(credential: Credential): { tree: RecordNode[]; size: number } {
  const graph: RecordGraph = { nodes: new Map(), links: new Map() };
  const visit = (c: Credential) => {
    if (graph.nodes.has(c.uid) || graph.nodes.size >= MAX_RECORD_NODES) return;
    graph.nodes.set(c.uid, { title: c.title, upload_date: c.upload_date });
    graph.links.set(c.uid, c.credentials.map((l) => l.uid));
    c.credentials.forEach(visit);
  };
  visit(credential);
  return { tree: buildRecordTree(graph), size: graph.nodes.size };
}
