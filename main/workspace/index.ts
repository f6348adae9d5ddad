/**
 * The app's main-side services over the embedded engine, for main/app's IPC
 * handlers: records windows and search, tag autocomplete, selections resolved in main, bulk
 * work over them (run as tasks by the caller's TaskRunner), and proof export. Each takes the
 * active Partner's scope (Engine.scopeFor). In remote mode there is no scope: see
 * docs/app-workspace.md for what the app offers there.
 */
export { recordWindow, tagSuggestions } from './record-query.js';
export { countSelection, resolveSelection } from './selection.js';
export { editSelectionTags } from './bulk-tags.js';
export { scheduleSelection, unscheduleSelection } from './bulk-schedule.js';
export { exportProofs, proofFileName } from './proof-export.js';
