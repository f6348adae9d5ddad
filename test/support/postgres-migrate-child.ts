/**
 * A process that opens the engine's PostgreSQL database (migrating it) and closes it: a `serve`
 * node starting. Usage: node --import tsx test/support/postgres-migrate-child.ts <url>
 */
import { openPostgresDatabase } from '../../main/engine/store/open-postgres.js';

openPostgresDatabase(process.argv[2]!).close();
process.stdout.write('migrated\n');
