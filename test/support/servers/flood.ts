/**
 * Floods a server until it stops reading: `offer` sends one chunk and says whether the server took
 * it within its wait (false: it stopped reading). At most `most` chunks, for at most `withinMs`.
 */
export async function floodUntilStalled(offer: () => Promise<boolean>, most: number, withinMs: number): Promise<{ taken: number; stalled: boolean }> {
  let taken = 0;
  const until = Date.now() + withinMs;
  while (taken < most && Date.now() < until) {
    if (!(await offer())) return { taken, stalled: true };
    taken++;
  }
  return { taken, stalled: false };
}

/** A TCP write the server takes within `waitMs` (its drain, when the socket's buffer is full). */
export function tcpOffer(socket: import('node:net').Socket, chunk: Buffer, waitMs = 500): () => Promise<boolean> {
  return async () => {
    if (socket.write(chunk)) return true;
    return Promise.race([new Promise<boolean>((r) => socket.once('drain', () => r(true))), new Promise<boolean>((r) => setTimeout(() => r(false), waitMs))]);
  };
}

/** A WebSocket message the server takes within `waitMs` (the client's buffer empty again). */
export function webSocketOffer(ws: import('ws').WebSocket, message: Buffer | string, binary: boolean, waitMs = 500): () => Promise<boolean> {
  return async () => {
    ws.send(message, { binary });
    const waitUntil = Date.now() + waitMs;
    while (ws.bufferedAmount > 0 && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 10));
    return ws.bufferedAmount === 0;
  };
}
