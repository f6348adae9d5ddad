import { useEffect, useRef, type RefObject } from 'react';
import type { CommandId } from '../../common/commands.js';
import { commandHint } from '../commands/command-hint.js';
import { useCommandHandler } from '../commands/command-registry.js';

/** The accessible names of a file picker's two buttons and the two hidden file inputs behind them. */
export interface FilePickerNames {
  files: string;
  folder: string;
  filesInput: string;
  folderInput: string;
}

/**
 * Two buttons that open the browser's file dialogs: one for files, one for a folder (its files,
 * each with its path in the folder), handing what was chosen to `onFiles` — the same as a drop
 * of them. Given `commands`, the application menu's commands open the same dialogs and the
 * buttons name their shortcuts.
 *
 * @example <FilePicker names={names} onFiles={(files) => void verifyFiles(files)} disabled={reading} />
 */
export function FilePicker({ names, onFiles, disabled = false, commands }: { names: FilePickerNames; onFiles: (files: File[]) => void; disabled?: boolean; commands?: { files: CommandId; folder: CommandId } }) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const take = (input: HTMLInputElement | null) => {
    const files = [...(input?.files ?? [])];
    // Emptied, so choosing the same files again is a change too.
    if (input) input.value = '';
    if (files.length > 0) onFiles(files);
  };
  useEffect(() => {
    // React has no prop for it: the folder picker is a file input with webkitdirectory.
    folderInput.current?.setAttribute('webkitdirectory', '');
  }, []);
  return (
    <>
      {commands && <PickerCommands commands={commands} disabled={disabled} inputs={[filesInput, folderInput]} />}
      <button type="button" onClick={() => filesInput.current?.click()} disabled={disabled} {...(commands ? commandHint(commands.files) : {})}>
        {names.files}
      </button>
      <button type="button" onClick={() => folderInput.current?.click()} disabled={disabled} {...(commands ? commandHint(commands.folder) : {})}>
        {names.folder}
      </button>
      <input ref={filesInput} type="file" multiple hidden aria-label={names.filesInput} onChange={(e) => take(e.target)} />
      <input ref={folderInput} type="file" hidden aria-label={names.folderInput} onChange={(e) => take(e.target)} />
    </>
  );
}

/** The menu commands that open a picker's dialogs (a component of its own: hooks cannot be conditional). */
function PickerCommands({ commands, disabled, inputs: [files, folder] }: { commands: { files: CommandId; folder: CommandId }; disabled: boolean; inputs: [RefObject<HTMLInputElement | null>, RefObject<HTMLInputElement | null>] }) {
  useCommandHandler(commands.files, () => {
    if (!disabled) files.current?.click();
  });
  useCommandHandler(commands.folder, () => {
    if (!disabled) folder.current?.click();
  });
  return null;
}
