/** Files: upload (streamed), list, get. */
import { ref } from '../../../common/schemas/primitives.js';
import { FileQuerySchema, IgnoreDuplicatedField } from '../../../common/schemas/requests.js';
import { FilePageSchema, FileSchema } from '../../../common/schemas/resources.js';
import { withForm } from '../multipart.js';
import { envelope, form, pathParams, endpoints } from './route.js';

export const fileRoutes = endpoints('Files', [
  {
    method: 'POST',
    url: '/files',
    operationId: 'uploadFile',
    summary: 'Upload a file',
    description:
      'Streams the file to disk while hashing it (SHA-256). No issuing is triggered. A file not used by a credential within one hour is deleted. ' +
      'Send `ignore_duplicated` before the file part to let the file stream straight into the store.',
    form: form({ ignore_duplicated: IgnoreDuplicatedField }, ['file'], 'The file'),
    response: { 201: envelope(ref(FileSchema), 'The uploaded file') },
    errors: ['no_file_on_payload', 'invalid_value', 'file_already_exists', 'payload_too_large'],
    handle: (request, ctx) =>
      withForm(request, ctx, { fields: ['ignore_duplicated'] }, ({ fields, file }) =>
        request.service.uploadFile({ file, ignore_duplicated: fields.ignore_duplicated as string | boolean | undefined }),
      ),
  },
  {
    method: 'GET',
    url: '/files',
    operationId: 'listFiles',
    summary: 'List uploaded files',
    querystring: FileQuerySchema,
    response: { 200: envelope(ref(FilePageSchema), 'A page of files') },
    errors: ['wrong_pagination_argument', 'invalid_value'],
    handle: (request) => request.service.listFiles(request.query),
  },
  {
    method: 'GET',
    url: '/files/:file_hash',
    operationId: 'getFile',
    summary: 'Get an uploaded file',
    params: pathParams({ file_hash: 'SHA-256 of the file, lowercase hex' }),
    response: { 200: envelope(ref(FileSchema), 'The file') },
    errors: ['missing_file'],
    handle: (request) => request.service.getFile(request.params.file_hash!),
  },
]);
