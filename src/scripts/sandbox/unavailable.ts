/**
 * Members of Postman's sandbox that Ferry deliberately does not offer. Each fails loudly and
 * names itself, so an imported script says what is missing instead of misbehaving.
 */
const reasons: Record<string, string> = {
  'pm.sendRequest': 'scripts cannot make network requests; make it a request of its own in the collection',
  'pm.cookies': 'scripts cannot read the cookie jar; read the Set-Cookie header with pm.response.headers',
  'pm.visualizer': 'Ferry has no visualizer',
  'pm.require': 'Ferry has no package library; use require() with one of the bundled modules',
  'pm.vault': 'Ferry keeps secrets as secret variables; read them with pm.environment.get',
  'pm.execution.runRequest': 'scripts cannot send requests',
  setTimeout: 'scripts have no timers',
  setInterval: 'scripts have no timers',
  setImmediate: 'scripts have no timers',
  clearTimeout: 'scripts have no timers',
  clearInterval: 'scripts have no timers',
};

export function unavailableError(member: string): Error {
  const why = reasons[member];
  return new Error(`${member} is not available in Ferry${why ? ` (${why})` : ''}`);
}

const functions = new Map<string, (...args: unknown[]) => never>();

/** A function that throws the named error when called (one per name, shared by every script). */
export function unavailableFunction(member: string): (...args: unknown[]) => never {
  let fn = functions.get(member);
  if (!fn) {
    fn = function unavailable() {
      throw unavailableError(member);
    };
    functions.set(member, fn);
  }
  return fn;
}

/** The descriptor of a getter that throws the named error, for members that are objects in Postman. */
export function unavailableObject(member: string): PropertyDescriptor {
  return {
    get() {
      throw unavailableError(member);
    },
    enumerable: false,
    configurable: true,
  };
}
