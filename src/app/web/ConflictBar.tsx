/**
 * The one "changed on disk" conflict bar of the app's editors (request, variables, settings,
 * server, load test): a save was refused because the file no longer holds what the editor read, or the file
 * changed while edits were pending. The two choices do the same in every editor:
 *
 * - **Take the file's version**: the file's version becomes the editor's base and its content
 *   (what was typed is dropped); the conflict and the refusal's message go.
 * - **Keep mine (overwrite the file)**: the file's version becomes the editor's base (so no later
 *   save of this edit is refused for it again, even when this one is refused for something else,
 *   a slip in the YAML), the conflict goes, and the editor's content is saved over it.
 */
export interface ConflictSides<T> {
  /** What a save is checked against (`base`) becomes `file`. */
  setBase: (file: T) => void;
  /** The editor shows `file`, with no refusal left on screen. */
  show: (file: T) => void;
  /** Saves the editor's content over `file` (the base just set: state updates land later). */
  save: (file: T) => void;
  /** Clears the conflict. */
  clear: () => void;
}

export function takeFile<T>(file: T, sides: ConflictSides<T>): void {
  sides.setBase(file);
  sides.show(file);
  sides.clear();
}

export function keepMine<T>(file: T, sides: ConflictSides<T>): void {
  sides.setBase(file);
  sides.clear();
  sides.save(file);
}

/**
 * `message`: why, for an editor with no line of its own saying it (the others show the save's
 * refusal, "… changed on disk since the app read it; nothing was saved.", as their error).
 */
export function ConflictBar<T>({ file, message, ...sides }: { file: T; message?: string } & ConflictSides<T>) {
  return (
    <div className="conflict" role="group" aria-label="Changed on disk">
      {message && <span role="alert">{message}</span>}
      <button onClick={() => takeFile(file, sides)}>Take the file's version</button>
      <button onClick={() => keepMine(file, sides)}>Keep mine (overwrite the file)</button>
    </div>
  );
}
