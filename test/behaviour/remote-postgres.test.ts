/**
 * The behaviour suites against RemoteService talking to a real `serve` on loopback whose
 * engine keeps its database on PostgreSQL (a fresh database of the test cluster per context):
 * what a client of a `serve` node on PostgreSQL sees is what it sees on SQLite.
 */
import { remoteContext, remoteLifecycleContext } from '../remote/remote-fixture.js';
import { describeIssuingLifecycle } from './issuing-lifecycle.suite.js';
import { describeIssuingService } from './issuing-service.suite.js';

describeIssuingService('remote service over HTTP, engine on PostgreSQL', () => remoteContext('postgres'));
describeIssuingLifecycle('remote service over HTTP, engine on PostgreSQL', () => remoteLifecycleContext('postgres'));
