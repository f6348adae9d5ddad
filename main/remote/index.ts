/** The remote client: IssuingService over HTTP against any instance of the spec. */
export { RemoteService, type RemoteServiceOptions } from './remote-service.js';
