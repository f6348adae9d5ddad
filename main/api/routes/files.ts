/** Files: upload (streamed), list, get. */
import * as S from '../schemas/files.js';
import { withForm } from '../multipart.js';
import type { ApiRoute } from './route.js';

export const fileRoutes: ApiRoute[] = [
  {
    method: 'POST',
    url: '/files',
    schema: S.uploadFile,
    body: 'multipart',
    status: 201,
    handle: (request, ctx) =>
      withForm(request, ctx, { fields: ['ignore_duplicated'] }, ({ fields, file }) =>
        request.service.uploadFile({ file, ignore_duplicated: fields.ignore_duplicated as string | boolean | undefined }),
      ),
  },
  { method: 'GET', url: '/files', schema: S.listFiles, status: 200, handle: (request) => request.service.listFiles(request.query) },
  { method: 'GET', url: '/files/:file_hash', schema: S.getFile, status: 200, handle: (request) => request.service.getFile(request.params.file_hash!) },
];
