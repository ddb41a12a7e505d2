/** A refusal for the agent to read and act on (a tool error, `isError: true`): what, where, what to do. */
export class AgentError extends Error {
  override name = 'AgentError';
}
