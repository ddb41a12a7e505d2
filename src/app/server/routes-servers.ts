/**
 * The servers panel's routes: the workspace's servers (every kind), started and stopped through
 * `startWorkspaceServers` as `ferry serve` starts them, and their traffic. All servers the app
 * starts share one traffic log; its batches go to the page over the live channel. Closing the
 * app stops every server it started.
 */
import { formatWarning, SERVERS_DIR } from '../../workspace/index.js';
import { ServerError, startWorkspaceServers, TrafficLog, type RunningServer, type TrafficRecord } from '../../servers/index.js';
import type { ServerView, TrafficView } from '../shared/api.js';
import type { LiveChannel } from './live.js';
import { ApiError, field, type Routes } from './router.js';
import type { WorkspaceState } from './workspace-state.js';

/** Traffic rows kept for a page that opens the panel later (the log's own ring holds as many). */
const TRAFFIC_KEPT = 1000;

export function trafficView(record: TrafficRecord): TrafficView {
  const { detail: _detail, ...view } = record;
  return view;
}

export class AppServers {
  readonly traffic = new TrafficLog(TRAFFIC_KEPT);
  private readonly running = new Map<string, RunningServer>();
  private readonly starting = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(private readonly state: WorkspaceState, live: LiveChannel) {
    this.unsubscribe = this.traffic.subscribe((records) => live.publish({ type: 'traffic', records: records.map(trafficView) }));
  }

  list(): ServerView[] {
    const ws = this.state.workspace;
    const rows: ServerView[] = ws.servers.map((entry) => {
      const server = this.running.get(entry.id);
      return {
        id: entry.id, name: entry.value.name, kind: entry.value.kind, port: entry.value.port, host: entry.value.host,
        running: server !== undefined, ...(server ? { url: server.url, connections: server.openConnections() } : {}),
      };
    });
    // Server files that do not parse are listed with their error, as in the sidebar.
    for (const warning of ws.warnings) {
      const rest = warning.file.slice(SERVERS_DIR.length + 1);
      if (!warning.file.startsWith(`${SERVERS_DIR}/`) || rest.includes('/')) continue;
      const id = rest.replace(/\.ya?ml$/, '');
      if (!rows.some((r) => r.id === id)) rows.push({ id, name: id, kind: '', port: 0, host: '', running: false, error: formatWarning(warning) });
    }
    return rows;
  }

  async start(id: string): Promise<ServerView[]> {
    if (this.running.has(id) || this.starting.has(id)) return this.list();
    this.starting.add(id);
    try {
      const handle = await startWorkspaceServers(this.state.workspace, { ids: [id], traffic: this.traffic });
      const failure = handle.failures[0];
      for (const server of handle.servers) this.running.set(server.id, server);
      if (failure) throw new ApiError(failure.unknown ? 404 : 400, failure.message);
    } catch (error) {
      if (error instanceof ServerError) throw new ApiError(400, error.message);
      throw error;
    } finally {
      this.starting.delete(id);
    }
    return this.list();
  }

  async stop(id: string): Promise<ServerView[]> {
    const server = this.running.get(id);
    this.running.delete(id);
    await server?.stop();
    return this.list();
  }

  async close(): Promise<void> {
    this.unsubscribe();
    const all = [...this.running.values()];
    this.running.clear();
    await Promise.allSettled(all.map((s) => s.stop()));
  }
}

export function serverRoutes(servers: AppServers): Routes {
  return {
    'GET /api/servers': async () => servers.list(),
    'POST /api/servers/start': async ({ body }) => servers.start(field(body, 'id')),
    'POST /api/servers/stop': async ({ body }) => servers.stop(field(body, 'id')),
    /** The traffic so far (newest last); new records arrive on the live channel. */
    'GET /api/servers/traffic': async () => servers.traffic.recent().map(trafficView),
  };
}
