/**
 * Request bodies as sent (spec 2.5): each body type's bytes and its Content-Type. Body files
 * (binary bodies, multipart file parts) must lie inside the workspace folder unless files outside
 * it are allowed, and are never reached through a symbolic link.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Body } from '../model/index.js';
import { namedFile } from '../support/paths-inside.js';
import { FileTooLargeError, isLinkError, readFileNoFollow } from '../support/read-no-follow.js';
import { PrepareError } from './errors.js';
import type { PreparedBody, PreparedMultipartPart } from './prepared.js';
import type { Face } from './url.js';

export interface BodyContext {
  /** Absolute workspace folder; relative file paths resolve against it. */
  root: string;
  allowFilesOutside: boolean;
  /** Fills `{{variables}}`. */
  fill: (text: string) => string;
  /** For messages: `requests/Folder/Name.yaml`. */
  where: string;
  /** Who reads the messages (how files outside are allowed there); the command line when absent. */
  face?: Face;
}

/** How each face gets files outside the workspace allowed, for the message that refuses one. */
const ALLOW_FILES_OUTSIDE: Record<Face, string> = {
  cli: 'allow files outside it (ferry config set filesOutsideWorkspace true, or --allow-files-outside)',
  app: 'allow files outside it (⚙ Application settings: filesOutsideWorkspace on, or ferry config set filesOutsideWorkspace true)',
  // An agent has no flag to pass: a person decides, as for programs (docs/agents.md, "Safety").
  agent: 'ask the user to allow files outside it (ferry config set filesOutsideWorkspace true)',
};

export interface PreparedBodyWithType {
  body: PreparedBody;
  /** The Content-Type the body type implies; undefined for none and multipart (the encoder sets it). */
  contentType?: string;
}

const encoder = new TextEncoder();
const textBytes = (text: string) => encoder.encode(text);

export async function prepareBody(body: Body, ctx: BodyContext): Promise<PreparedBodyWithType> {
  switch (body.type) {
    case 'none':
      return { body: { kind: 'none' } };
    case 'json':
      return textBody('json', ctx.fill(body.text ?? ''), 'application/json');
    case 'xml':
      return textBody('xml', ctx.fill(body.text ?? ''), 'application/xml');
    case 'text':
      return textBody('text', ctx.fill(body.text ?? ''), ctx.fill(body.contentType || 'text/plain'));
    case 'formUrlencoded': {
      const params = new URLSearchParams();
      for (const row of body.form) if (row.enabled !== false && row.key !== '') params.append(ctx.fill(row.key), ctx.fill(row.value));
      return textBody('formUrlencoded', params.toString(), 'application/x-www-form-urlencoded');
    }
    case 'graphql': {
      const prepared = textBody('graphql', graphqlJson(body, ctx), 'application/json');
      const gql = body.graphql;
      if (prepared.body.kind === 'bytes') {
        prepared.body.subscription = {
          ...(gql?.transport ? { transport: gql.transport } : {}),
          subscriptionUrl: ctx.fill(gql?.subscriptionUrl ?? '').trim(),
          connectionParams: ctx.fill(gql?.connectionParams ?? ''),
        };
      }
      return prepared;
    }
    case 'multipart': {
      const parts: PreparedMultipartPart[] = [];
      for (const part of body.multipart) {
        if (part.enabled === false || part.key === '') continue;
        const name = ctx.fill(part.key);
        const contentType = part.contentType ? ctx.fill(part.contentType) : undefined;
        if (part.file) {
          const written = ctx.fill(part.value);
          const absolutePath = await checkBodyFile(written, ctx, `multipart part "${name}"`);
          parts.push({ name, file: { path: written, absolutePath }, ...(contentType ? { contentType } : {}) });
        } else {
          parts.push({ name, value: ctx.fill(part.value), ...(contentType ? { contentType } : {}) });
        }
      }
      return { body: { kind: 'multipart', parts } };
    }
    case 'binary': {
      const written = ctx.fill(body.file ?? '');
      if (written === '') throw new PrepareError(`${ctx.where}: body type is binary but no file is chosen; set body.file.`);
      const absolutePath = await checkBodyFile(written, ctx, 'binary body');
      const bytes = new Uint8Array(await readChecked(absolutePath, written, ctx, 'binary body'));
      // `contentType` keeps its text-body default; a binary body is octet-stream unless one was chosen.
      const chosen = body.contentType && body.contentType !== 'text/plain' ? ctx.fill(body.contentType) : 'application/octet-stream';
      return { body: { kind: 'bytes', source: 'binary', bytes, isText: false, file: { path: written, absolutePath } }, contentType: chosen };
    }
  }
}

function textBody(source: 'json' | 'text' | 'xml' | 'formUrlencoded' | 'graphql', text: string, contentType: string): PreparedBodyWithType {
  return { body: { kind: 'bytes', source, bytes: textBytes(text), isText: true }, contentType };
}

/** `{"query", "variables", "operationName"}`; empty variables are `{}`, an empty operation name `null`. */
function graphqlJson(body: Body, ctx: BodyContext): string {
  const gql = body.graphql;
  const query = ctx.fill(gql?.query ?? '');
  const variablesText = ctx.fill(gql?.variables ?? '').trim();
  let variables: unknown = {};
  if (variablesText !== '') {
    try {
      variables = JSON.parse(variablesText);
    } catch (error) {
      throw new PrepareError(`${ctx.where}: body.graphql.variables is not valid JSON (${(error as Error).message}); fix the GraphQL variables.`);
    }
  }
  const operationName = ctx.fill(gql?.operationName ?? '');
  return JSON.stringify({ query, variables, operationName: operationName === '' ? null : operationName });
}

const GB = 1024 * 1024 * 1024;

/**
 * A body file is read whole (Digest and AWS signing, redirects and repeats send it again), so it
 * must fit in memory: past this size the request fails with a message, not a crash (the spec is
 * silent; Node cannot read more than 2 GB into one buffer anyway).
 */
export const MAX_BODY_FILE_BYTES = GB;

/** Why a body file that passed `checkBodyFile` could not be read when it was used. */
export type BodyFileRefusal = 'link' | 'tooLarge' | 'missing';

/**
 * Reads a file `checkBodyFile` passed (when preparing, or a multipart part when sending), without
 * following a link at its end (O_NOFOLLOW): one put in its place since the check is refused, not
 * read through. `refuse` words the refusal for the caller (undefined: the system's error as it is).
 */
export async function readBodyFile(absolutePath: string, refuse: (why: BodyFileRefusal) => Error | undefined): Promise<Buffer> {
  try {
    return await readFileNoFollow(absolutePath, undefined, MAX_BODY_FILE_BYTES);
  } catch (error) {
    const why: BodyFileRefusal | undefined = isLinkError(error) ? 'link' : error instanceof FileTooLargeError ? 'tooLarge' : (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : undefined;
    throw (why && refuse(why)) ?? error;
  }
}

/** What to do about a body file reached through a link (spec 2.1.7: links are never followed). */
const LINK_FIX = 'Put the real file (or folder) in the link\'s place, or name the file the link points to (outside the workspace, only if allowed).';

/** A binary body's file, read as it is prepared. */
function readChecked(absolutePath: string, written: string, ctx: Pick<BodyContext, 'where'>, what: string): Promise<Buffer> {
  return readBodyFile(absolutePath, (why) => {
    if (why === 'link') return new PrepareError(`${ctx.where}: the ${what} file ${written} is a symbolic link; Ferry never follows links. ${LINK_FIX}`);
    if (why === 'tooLarge') return new PrepareError(`${ctx.where}: the ${what} file ${written} is over 1 GB; Ferry sends body files of at most 1 GB (they are read whole, to sign and repeat them).`);
    return undefined;
  });
}

/** Resolves a body file and checks the rules; returns its absolute path. */
export async function checkBodyFile(written: string, ctx: Pick<BodyContext, 'root' | 'allowFilesOutside' | 'where' | 'face'>, what: string): Promise<string> {
  if (written.trim() === '') throw new PrepareError(`${ctx.where}: the ${what} names no file.`);
  const { absolute: absolutePath, inside, linked } = await namedFile(ctx.root, written);
  if (linked) throw new PrepareError(`${ctx.where}: the ${what} file cannot be used: ${linked}. ${LINK_FIX}`);
  if (!inside && !ctx.allowFilesOutside) {
    throw new PrepareError(
      `${ctx.where}: the ${what} file ${written} lies outside the workspace folder. Move it into the workspace, or ${ALLOW_FILES_OUTSIDE[ctx.face ?? 'cli']}.`,
    );
  }
  let stat;
  try {
    stat = await fs.lstat(absolutePath);
  } catch {
    throw new PrepareError(`${ctx.where}: the ${what} file ${written} does not exist (looked for ${absolutePath}).`);
  }
  if (stat.isSymbolicLink()) throw new PrepareError(`${ctx.where}: the ${what} file ${written} is a symbolic link; Ferry never follows links. ${LINK_FIX}`);
  if (!stat.isFile()) throw new PrepareError(`${ctx.where}: the ${what} file ${written} is not a regular file.`);
  if (stat.size > MAX_BODY_FILE_BYTES) {
    throw new PrepareError(`${ctx.where}: the ${what} file ${written} is ${(stat.size / GB).toFixed(1)} GB; Ferry sends body files of at most 1 GB (they are read whole, to sign and repeat them).`);
  }
  return absolutePath;
}
