import type { CodeRequest } from './normalize.js';

/** What a library does by itself; drives what a snippet leaves out (spec 4.7 rule 4). */
export interface LibraryRules {
  /** `keep`: a repeated header is sent once per value; `join`: the library holds one value per name. */
  repeatedHeaders: 'keep' | 'join';
  /** With `keep`: names the library still joins into one line itself (Java joins Cookie). */
  joinedHeaders?: readonly string[];
  /** The library adds its own Accept-Encoding and decompresses the answer. */
  decompresses: boolean;
  /** Methods with which the library cannot send a body. */
  noBodyWith: readonly string[];
  /** The library has no multipart support: the snippet builds the body and its Content-Type itself. */
  buildsMultipart?: boolean;
  /**
   * The library sends no `Content-Length: 0` for a POST, PUT or PATCH without a body (curl, libcurl,
   * PHP's curl). Ferry's client does, and some servers answer 411 without it, so the code writes it.
   */
  noLengthWithoutBody?: boolean;
  /** Headers the library refuses to set (lower case), beyond Host and Content-Length. */
  refusedHeaders?: readonly string[];
  /**
   * Headers the library (or tool) adds itself when the request has none of that name (lower case).
   * Not used to shape the code; execution tests ignore these on the wire.
   */
  addsHeaders: readonly string[];
}

export interface Target {
  /** `language/library`, e.g. `python/requests`. */
  id: string;
  /** Key of the language for `--lang`, e.g. `python`. */
  lang: string;
  /** Key of the library for `--lib`, e.g. `requests`. */
  lib: string;
  /** Display names. */
  language: string;
  library: string;
  /** The library's own name in comments, e.g. `curl`, `requests`. */
  tool: string;
  /** Where the code runs, e.g. `Node.js 18+, browsers`. */
  platform: string;
  /** File name the code runs from (tests and the app's download). */
  fileName: string;
  rules: LibraryRules;
  render(request: CodeRequest): string;
}
