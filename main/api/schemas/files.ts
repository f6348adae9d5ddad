/** Route schemas of the Files endpoints. */
import { ref } from './components.js';
import { envelope, form, paginationParams, pathParams, query, type RouteSchema } from './common.js';

export const uploadFile: RouteSchema = {
  operationId: 'uploadFile',
  summary: 'Upload a file',
  description:
    'Streams the file to disk while hashing it (SHA-256). No issuing is triggered. A file not used by a credential within one hour is deleted. ' +
    'Send `ignore_duplicated` before the file part to let the file stream straight into the store.',
  tags: ['Files'],
  consumes: 'multipart/form-data',
  body: form(
    { ignore_duplicated: { type: 'string', enum: ['true', 'false'], default: 'false', description: 'true: answer the existing record instead of file_already_exists' } },
    ['file'],
    'The file',
  ),
  response: { 201: envelope(ref('File'), 'The uploaded file') },
  errors: ['no_file_on_payload', 'invalid_value', 'file_already_exists', 'payload_too_large'],
};

export const listFiles: RouteSchema = {
  operationId: 'listFiles',
  summary: 'List uploaded files',
  tags: ['Files'],
  querystring: query({ file_hash: { type: 'string', description: 'Only the file with this hash' }, ...paginationParams(['uploaded'], 'uploaded') }),
  response: { 200: envelope(ref('FilePage'), 'A page of files') },
  errors: ['wrong_pagination_argument', 'invalid_value'],
};

export const getFile: RouteSchema = {
  operationId: 'getFile',
  summary: 'Get an uploaded file',
  tags: ['Files'],
  params: pathParams({ file_hash: 'SHA-256 of the file, lowercase hex' }),
  response: { 200: envelope(ref('File'), 'The file') },
  errors: ['missing_file'],
};
