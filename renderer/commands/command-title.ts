import type { CommandId, CommandSection } from '../../common/commands.js';
import { t, type MessageId } from '../i18n/i18n-store.js';

// Fails to compile when a command of common/commands.ts has no title in the catalogue.
type CommandTitleId = `command.${CommandId}` | `command.section.${CommandSection}`;
const everyCommandTitled: MessageId = '' as CommandTitleId;
void everyCommandTitled;

/** A command's title in the window's language (common/commands.ts holds the English one, for the native menu). */
export function commandTitle(id: CommandId): string {
  return t(`command.${id}`);
}

/** A menu section's title (`File`, `Edit`, …) in the window's language. */
export function commandSectionTitle(section: CommandSection): string {
  return t(`command.section.${section}`);
}
