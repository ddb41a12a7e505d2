/**
 * A rule's `match`/`pattern` (spec 2.11), compiled once when the server loads. `regex` patterns
 * run on re2js, a linear-time engine, so a hostile pattern or message cannot stall the server;
 * a pattern it cannot compile is a load error naming the rule.
 */
import { RE2JS } from 're2js';
import { ServerError } from '../../errors.js';

export type MatchKind = 'any' | 'contains' | 'exact' | 'regex';

/** True when the message text matches. */
export type TextMatcher = (text: string) => boolean;

export function compileMatcher(match: MatchKind, pattern: string, where: string): TextMatcher {
  switch (match) {
    case 'any':
      return () => true;
    case 'contains':
      return (text) => text.includes(pattern);
    case 'exact':
      return (text) => text === pattern;
    case 'regex': {
      let compiled: RE2JS;
      try {
        compiled = RE2JS.compile(pattern);
      } catch (error) {
        throw new ServerError(`${where}: pattern ${JSON.stringify(pattern)} is not a regular expression Ferry can run (${(error as Error).message}).`);
      }
      return (text) => compiled.matcher(text).find();
    }
  }
}
