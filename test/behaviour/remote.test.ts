/**
 * The behaviour suites again, against RemoteService talking to a real `serve` on loopback:
 * part 1 (files, credentials, tags, scheduling, jobs) exactly as embedded.test.ts runs it, and
 * part 2 (issuing, certificates, download, verification, revocation) against both the remote
 * client and the embedded engine, so that any difference between the two shows here.
 */
import { embeddedLifecycleContext } from '../remote/lifecycle-contexts.js';
import { remoteContext, remoteLifecycleContext } from '../remote/remote-fixture.js';
import { describeIssuingLifecycle } from './issuing-lifecycle.suite.js';
import { describeIssuingService } from './issuing-service.suite.js';

describeIssuingService('remote service over HTTP', remoteContext);

describeIssuingLifecycle('embedded engine', embeddedLifecycleContext);
describeIssuingLifecycle('remote service over HTTP', remoteLifecycleContext);
