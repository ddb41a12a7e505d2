/**
 * Where the app moved or renamed requests and folders (in any tab): a page whose open request is
 * gone asks where it went (a 404's `movedTo`), so the other tabs follow a rename or move made in
 * one, with their unsaved edits, instead of calling it deleted outside the app. Paths are under
 * requests/; a folder's move moves all under it. Only the app's own moves are known (not git's);
 * the last MOVES_KEPT are kept, in memory.
 */
const MOVES_KEPT = 200;

export class MovedRequests {
  private readonly moves: Array<{ from: string; to: string }> = [];

  /** `from` (a request or a folder) is now `to`. */
  note(from: string, to: string): void {
    if (from === to) return;
    this.moves.push({ from, to });
    if (this.moves.length > MOVES_KEPT) this.moves.shift();
  }

  /** A request made or removed at `path` by the app: a move recorded before is not where that one went. */
  forget(path: string): void {
    for (let i = this.moves.length - 1; i >= 0; i--) if (this.moves[i]!.from === path) this.moves.splice(i, 1);
  }

  /** Where the request that was at `path` is now, after the moves recorded since (in order); undefined when none moved it. */
  where(path: string): string | undefined {
    let now = path;
    for (const { from, to } of this.moves) {
      if (now === from) now = to;
      else if (now.startsWith(`${from}/`)) now = `${to}${now.slice(from.length)}`;
    }
    return now === path ? undefined : now;
  }
}
