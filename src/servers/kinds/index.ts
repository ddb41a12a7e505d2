/** The server kinds this version runs; the others are refused with a clear message when started. */
import type { ServerKind } from '../../model/index.js';
import { httpMockKind } from './http-mock/http-mock.js';
import type { ServerKindModule } from './kind.js';
import { sseKind } from './sse/sse.js';

export const SERVER_KIND_MODULES: Partial<Record<ServerKind, ServerKindModule>> = {
  http: httpMockKind,
  sse: sseKind,
};

export type { ServerKindModule, KindInstance, KindContext, KindSettings } from './kind.js';
