import { useEffect } from 'react';
import { commandForKey, type CommandId } from '../../common/commands.js';
import { runCommand, windowCommands } from './command-registry.js';

/**
 * The window's one keyboard dispatcher: a key press that is a command's shortcut (the command
 * table's accelerators) runs the command when it can run now, and only then takes the key from
 * the browser. The platform's own (clipboard, undo, zoom, window) are left to the platform, and
 * while a dialog is open its keys are its own.
 */
export function useCommandShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat) return;
      const command = commandForKey(
        windowCommands().filter((c) => !c.role),
        event,
      );
      if (!command || document.querySelector('dialog[open], [role="menu"]')) return;
      if (runCommand(command.id as CommandId)) event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
