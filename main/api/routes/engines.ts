/** GET /engines and GET /engines/<engine> (DESIGN.md: the engine identifiers the spec leaves unshown). */
import * as S from '../schemas/service.js';
import type { ApiRoute } from './route.js';

export const engineRoutes: ApiRoute[] = [
  { method: 'GET', url: '/engines', schema: S.listEngines, status: 200, handle: (request) => request.service.listEngines() },
  { method: 'GET', url: '/engines/:engine', schema: S.getEngine, status: 200, handle: (request) => request.service.getEngine(request.params.engine!) },
];
