/**
 * The page names no server kind (docs/extending.md, "Adding a server kind"): the servers panel
 * draws kinds from `GET /api/server-kinds` (the kinds' own table, `SERVER_KIND_INFO`), so a new
 * kind needs no change in `src/app/web`. Checked by reading every string literal, template text
 * and JSX text of the page's code: a server kind's name as a whole literal (`'tcpProxy'`), or the
 * words a kind says about itself (its label, direction words, send hint, section hint), is refused.
 * Several kind names are also request kinds (`http`, `mcp`, `dns`…): the request side's own uses,
 * which come from its kind table too, are listed in ALLOWED with why; an entry no longer found
 * fails the test as well, so the list only shrinks. Then the page's reading of the answer (the
 * send's words, the direction words, the picker) against the app's server's own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { serverKindsView } from '../../src/app/server/routes-servers.js';
import { directionWords, readServerKinds } from '../../src/app/web/server-kinds.js';
import { SERVER_KINDS } from '../../src/model/index.js';
import { SERVER_KIND_INFO } from '../../src/servers/index.js';

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/app/web');

/** `file: literal` pairs that name a kind for another reason than server kinds. */
const ALLOWED: readonly { file: string; literal: string; why: string }[] = [
  { file: 'tree.ts', literal: 'http', why: 'the compact tree leaves out the default request kind (kind http)' },
  { file: 'kinds.ts', literal: 'http', why: "a request kind's method mode (`KindView.method`) and URL scheme, not a kind" },
  { file: 'BodyEditor.tsx', literal: 'sse', why: "a GraphQL subscription's transport value (spec 2.5 `graphql.transport`), not a server kind" },
];

function webFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return webFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Every piece of text a file writes literally: strings, template parts, JSX text, with its line. */
function textsOf(file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: { text: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node) || ts.isJsxText(node)) {
      // Not the module names of imports (`import … from 'socket.io-client'` would be the page's business).
      if (!(ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent))) {
        out.push({ text: node.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const kinds = new Set<string>(SERVER_KINDS);
/** What kinds say about themselves: refused as a whole literal (`'TCP relay'`, `'from client'`)… */
const phrases = new Set(Object.values(SERVER_KIND_INFO).flatMap((info) => [
  info.label, info.directions.in, info.directions.out, info.sectionHint, ...(info.send?.eventPlaceholder ? [info.send.eventPlaceholder] : []),
]));
/** …and inside any text when long enough not to be ordinary words of the page (hints, `client → target`). */
const words = [...phrases].filter((w) => w.length > 12);

describe('the page names no server kind', () => {
  const files = webFiles(WEB);

  it('reads the page\'s files (the scan finds what it should)', () => {
    expect(files.some((f) => f.endsWith('ServersPanel.tsx'))).toBe(true);
    expect(textsOf(path.join(WEB, 'ServersPanel.tsx')).some((t) => t.text === '/api/server-kinds' || t.text === 'New server kind')).toBe(true);
    expect(words).toContain('client → target');
  });

  it('no server kind name as a literal, and none of the words a kind says about itself, in src/app/web', () => {
    const allowed = new Map(ALLOWED.map((a) => [`${a.file}: ${a.literal}`, a]));
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const file of files) {
      const name = path.relative(WEB, file).split(path.sep).join('/');
      for (const { text, line } of textsOf(file)) {
        if (kinds.has(text)) {
          const key = `${name}: ${text}`;
          if (allowed.has(key)) seen.add(key);
          else problems.push(`src/app/web/${name}:${line} names the server kind '${text}': take it from GET /api/server-kinds (src/servers/kinds/info.ts)`);
        }
        for (const w of phrases) {
          if (text.trim() === w || (words.includes(w) && text.includes(w))) problems.push(`src/app/web/${name}:${line} writes "${w}", which a server kind says about itself in src/servers/kinds/info.ts: take it from GET /api/server-kinds`);
        }
      }
    }
    for (const key of allowed.keys()) if (!seen.has(key)) problems.push(`ALLOWED lists ${key}, which no longer happens: remove it`);
    expect(problems).toEqual([]);
  });
});

describe('the panel draws the kinds from GET /api/server-kinds', () => {
  const kinds = readServerKinds(serverKindsView());

  it('the send\'s words name the kinds that send, in the format\'s order', () => {
    expect(kinds.senders).toBe('WebSocket, Socket.IO, SSE, TCP, UDP or relay');
  });

  it('a record\'s direction in its kind\'s words; an exchange has none', () => {
    expect(directionWords(kinds, 'tcpProxy', 'in')).toBe('client → target');
    expect(directionWords(kinds, 'tcpProxy', 'out')).toBe('target → client');
    expect(directionWords(kinds, 'websocket', 'in')).toBe('from client');
    expect(directionWords(kinds, 'udp', 'out')).toBe('to client');
    expect(directionWords(kinds, 'http', 'exchange')).toBe('');
  });

  it('the picker: its kinds by label, websocket picked at first', () => {
    expect(kinds.newServer.kinds.map((k) => kinds.byKind[k]!.label)).toEqual(['HTTP mock API', 'WebSocket', 'Server-sent events', 'Socket.IO', 'MCP', 'TCP', 'UDP', 'DNS', 'TCP relay']);
    expect(kinds.newServer.picked).toBe('websocket');
  });
});
