/**
 * Collects a tokenizer's output: characters into words, words and redirects into commands. Each
 * shell's tokenizer decides what the characters mean; this only keeps the bookkeeping in one place.
 */
import type { ShellCommand } from './tokenize.js';

export class CommandBuilder {
  readonly commands: ShellCommand[] = [];
  #words: string[] = [];
  #redirects: string[] = [];
  #word = '';
  // Separate from the text: an empty quote ('') is still a word.
  #inWord = false;
  #expands = false;

  /** The word read so far (not yet ended). */
  get word(): string {
    return this.#word;
  }

  get inWord(): boolean {
    return this.#inWord;
  }

  /**
   * The escape character at `i` of `input` (`\` in POSIX shells, a backtick in PowerShell): before a
   * line end it continues the line, before any other character that character joins the word as it
   * is. Returns where reading goes on.
   */
  escapeAt(input: string, i: number): number {
    const next = input[i + 1];
    if (next === '\n') return i + 2;
    if (next === '\r' && input[i + 2] === '\n') return i + 3;
    if (next === undefined) return i + 1;
    this.append(next);
    return i + 2;
  }

  /** Adds text to the current word, starting one if needed (even for empty text). */
  append(text: string): void {
    this.#word += text;
    this.#inWord = true;
  }

  /** Ends the current word, if one was started. */
  endWord(): void {
    if (this.#inWord) this.#words.push(this.#word);
    this.discardWord();
  }

  /** Drops the current word without keeping it (e.g. the `2` of `2>&1`). */
  discardWord(): void {
    this.#word = '';
    this.#inWord = false;
  }

  /** Adds a whole word (for shells whose words are split afterwards, like cmd.exe). */
  addWord(word: string): void {
    this.#words.push(word);
  }

  /** The current command names a variable the shell would expand (`$env:X`, `%X%`); it is kept as written. */
  markExpansion(): void {
    this.#expands = true;
  }

  addRedirect(redirect: string): void {
    this.#redirects.push(redirect);
  }

  /** Ends the current word and the command; a command without words is not kept. */
  endCommand(separator: string): void {
    this.endWord();
    if (this.#words.length > 0) this.commands.push({ words: this.#words, redirects: this.#redirects, separator, expands: this.#expands });
    this.#words = [];
    this.#redirects = [];
    this.#expands = false;
  }
}
