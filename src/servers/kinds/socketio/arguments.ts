/**
 * Socket.IO event arguments from the file (`greetingArgs`, `replyArgs`): JSON text, rendered as a
 * template first. A JSON array is spread into the arguments, any other JSON value is one argument,
 * empty text none; text that is not JSON after rendering is sent as one string.
 */
import { compile, type Template, type VariableScope } from '../../../template/index.js';

export interface ArgumentsTemplate {
  render(variables: VariableScope): unknown[];
}

export function compileArguments(text: string, place: 'socketio.greeting' | 'socketio.reply'): ArgumentsTemplate {
  const template: Template = compile(text, place);
  if (template.isStatic) {
    const fixed = parseArguments(text);
    return { render: () => fixed };
  }
  return { render: (variables) => parseArguments(template.render({ variables })) };
}

/** JSON text as arguments: an array spread, any other JSON value one argument, other text one string, empty none. */
export function parseArguments(text: string): unknown[] {
  if (text.trim() === '') return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [value];
  } catch {
    return [text];
  }
}

/** The JSON text of arguments that rules match on and the traffic log shows (acks left out). */
export function argumentsText(args: readonly unknown[]): string {
  try {
    return JSON.stringify(args.filter((a) => typeof a !== 'function')) ?? '[]';
  } catch {
    return '[unserializable]';
  }
}
