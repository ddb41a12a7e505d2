/**
 * The descriptors a gRPC request is sent with (spec 2.8): compiled from the request's `protoFiles`
 * (relative to the workspace, outside it only when allowed, as body files in 2.5), or asked of the
 * server by reflection (v1, then v1alpha) when `protoFiles` is empty. Either way the result is a
 * proto-loader package definition, so one path serializes and reads messages.
 */
import { accessSync, constants, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import type { Channel, ChannelCredentials, Interceptor, Metadata } from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { MethodDefinition, PackageDefinition } from '@grpc/proto-loader';
import { GrpcReflection } from 'grpc-js-reflection-client';
import { SendError } from '../send-error.js';
import { namedFile } from '../../support/paths-inside.js';
import { encodeMapsAsEntryLists } from './messages.js';
import { protoImports } from './proto-imports.js';
import { listedServices, ReflectionCallEnded, reflectedDefinition, strictReflection } from './reflection.js';

export { splitMethod } from './method-name.js';

/**
 * How messages are read (documented in docs/running.md): proto3 JSON names (lowerCamelCase),
 * 64-bit integers as strings (JSON numbers lose precision past 2^53), enums by name, bytes as
 * base64, fields left unset shown with their defaults; `json` unpacks an Any whose type is known
 * (its type URL under "@type") and writes NaN and Infinity as strings, as proto3 JSON does.
 */
export const LOADER_OPTIONS: protoLoader.Options = { keepCase: false, longs: String, enums: String, bytes: String, defaults: true, oneofs: true, json: true };

export interface ProtoSource {
  protoFiles: string[];
  importPaths: string[];
  workspaceRoot: string;
  allowFilesOutside: boolean;
}

/** Compiles the request's proto files; a file that does not compile fails with its name and line. */
export async function loadProtoFiles(source: ProtoSource): Promise<PackageDefinition> {
  const written = source.protoFiles.filter((f) => f.trim() !== '');
  const files = await Promise.all(written.map((f) => workspaceFile(f, `grpc.protoFiles ${f}`, source)));
  for (const [i, file] of files.entries()) {
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat?.isDirectory()) {
      throw new SendError(`grpc.protoFiles ${written[i]} is a folder, not a .proto file: list the .proto files in grpc.protoFiles; folders to look up imports in go in grpc.importPaths.`, 'other');
    }
    const wrong = stat && unreadable(stat);
    if (wrong) throw new SendError(`grpc.protoFiles ${written[i]} ${wrong}.`, 'other');
  }
  const importDirs = await Promise.all(source.importPaths.filter((f) => f.trim() !== '').map((f) => workspaceFile(f, `grpc.importPaths ${f}`, source)));
  const includeDirs = [...new Set([...files.map((f) => path.dirname(f)), ...importDirs])];
  await checkImports(files, includeDirs, source);
  try {
    return checkFieldNumbers(compile(files, includeDirs));
  } catch (error) {
    if (error instanceof SendError) throw error;
    const message = (error as Error).message.replaceAll(source.workspaceRoot + path.sep, '');
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || /ENOENT|no such file/i.test(message)) {
      throw new SendError(`a proto file could not be read: ${message.split('\n')[0]} (grpc.protoFiles, grpc.importPaths).`, 'other');
    }
    // protobufjs names the file of some errors; others (a type found nowhere, "no such Type or Enum 'X' in Type .A") only a line, or nothing.
    const where = /\.proto\b/.test(message) ? undefined : brokenFile(files, includeDirs, source.workspaceRoot);
    throw new SendError(`the proto files do not compile: ${where ? `${where}: ` : ''}${message.split('\n')[0]}.`, 'other');
  }
}

/**
 * The files compiled. Synchronously: protobufjs's asynchronous load throws a type it cannot
 * resolve (`Nope x = 1;`) from inside its file-read callback, an uncaught exception that ended
 * the process (and the load's promise never settled). The files are checked first (regular, at
 * most 32 MB each), so reading them does not block for long.
 */
function compile(files: string[], includeDirs: string[]): PackageDefinition {
  return protoLoader.loadSync(files, { ...LOADER_OPTIONS, includeDirs });
}

/** The largest field number protobuf has (2^29 - 1): a tag is the number shifted left by 3 in 32 bits. */
const MAX_FIELD_NUMBER = 536_870_911;

/**
 * protobufjs compiles field numbers protoc refuses (0, past 2^29 - 1, protobuf's own 19000 to
 * 19999) and then writes tags no server reads (99999999999 overflowed into another field's). They
 * are refused naming the field and its message, as protoc would.
 */
function checkFieldNumbers(definition: PackageDefinition): PackageDefinition {
  const check = (type: { name?: string; field?: Array<{ name?: string; number?: number }>; nestedType?: unknown[] }, owner: string) => {
    for (const field of type.field ?? []) {
      const n = field.number ?? 0;
      if (n < 1 || n > MAX_FIELD_NUMBER || (n >= 19_000 && n <= 19_999)) {
        throw new SendError(`the proto files give field ${field.name} of ${owner} the number ${n}, which protoc refuses: field numbers run from 1 to ${MAX_FIELD_NUMBER}, without 19000 to 19999 (protobuf's own); renumber the field.`, 'other');
      }
    }
    for (const nested of (type.nestedType ?? []) as Array<typeof type>) check(nested, `${owner}.${nested.name}`);
  };
  for (const [name, entry] of Object.entries(definition)) {
    if ('format' in entry && String(entry.format).includes('DescriptorProto') && !String(entry.format).includes('Enum')) check(entry.type as Parameters<typeof check>[0], name);
  }
  return definition;
}

/**
 * protobufjs names the line of a syntax error but not always its file: the first listed file that
 * fails alone is named (the error may lie in a file it imports).
 */
function brokenFile(files: string[], includeDirs: string[], root: string): string | undefined {
  for (const file of files) {
    try {
      compile([file], includeDirs);
    } catch {
      return path.relative(root, file);
    }
  }
  return undefined;
}

/** A proto file or folder `what` names, by the body-file rules: inside the workspace without a link on the way, or outside when allowed. */
async function workspaceFile(written: string, what: string, source: ProtoSource): Promise<string> {
  const { absolute, inside, linked } = await namedFile(source.workspaceRoot, written);
  if (linked) throw new SendError(`${what} cannot be used: ${linked}.`, 'other');
  if (!inside && !source.allowFilesOutside) {
    throw new SendError(`${what} lies outside the workspace folder; Ferry reads such files only when allowed (ferry run --allow-files-outside, or the setting filesOutsideWorkspace).`, 'other');
  }
  return absolute;
}

/** Files an import graph may hold before it is refused as runaway. */
const MAX_PROTO_FILES = 10_000;

/** The largest .proto file read (googleapis' largest are a few MB); each is read whole, then compiled. */
const MAX_PROTO_BYTES = 32 * 1024 * 1024;

/**
 * Why a .proto path (no folder) cannot be read as one, or undefined: a named pipe or a device
 * would block the read for ever (a pipe's open waits for a writer) or never end (/dev/zero).
 */
function unreadable(stat: Stats): string | undefined {
  if (stat.isDirectory()) return 'is a folder, not a .proto file';
  if (!stat.isFile()) return 'is not a regular file (a named pipe, a device or a socket), so it is not read; list .proto files only';
  if (stat.size > MAX_PROTO_BYTES) return `is ${(stat.size / 1024 / 1024).toFixed(0)} MB, past the ${MAX_PROTO_BYTES / 1024 / 1024} MB Ferry reads of one .proto file, so it is not read; check that it is one`;
  return undefined;
}

/**
 * The files the proto files import, followed before protobufjs reads them, each resolved as
 * proto-loader resolves it (absolute as written; else the first include folder holding it; else
 * beside the importing file) and held to the same rules as protoFiles: an `import "/etc/passwd";`
 * or one through a link is refused, not compiled (its first token would show in the error).
 * An import found nowhere is refused naming it, its importer and the folders searched, except
 * google/protobuf's, which protobufjs has bundled. Files importing each other in a cycle are
 * refused as protoc refuses them (protobufjs compiled them, so a workspace that worked here
 * would not with the server's own tools).
 */
async function checkImports(files: string[], includeDirs: string[], source: ProtoSource): Promise<void> {
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const named = (file: string) => path.relative(source.workspaceRoot, file) || file;
  const visit = async (file: string): Promise<void> => {
    if (onStack.has(file)) {
      const cycle = [...stack.slice(stack.indexOf(file)), file].map(named).join(' → ');
      throw new SendError(`the proto files import each other in a cycle (${cycle}), which protoc refuses too; move what they share into a file each of them imports.`, 'other');
    }
    if (done.has(file)) return;
    if (done.size >= MAX_PROTO_FILES) throw new SendError(`the proto files import more than ${MAX_PROTO_FILES} files; check grpc.protoFiles and grpc.importPaths.`, 'other');
    const stat = await fs.stat(file).catch(() => undefined);
    const wrong = stat && unreadable(stat);
    if (wrong) throw new SendError(`the import ${named(file)} of ${stack.length ? named(stack.at(-1)!) : 'grpc.protoFiles'} ${wrong}.`, 'other');
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      done.add(file);
      return; // a missing file is reported by the compile, with its name
    }
    stack.push(file);
    onStack.add(file);
    const importer = named(file);
    for (const target of protoImports(text)) {
      const resolved = resolveImport(file, target, includeDirs);
      if (resolved === undefined) {
        // protobufjs has google/protobuf's own files; any other import found nowhere is named here
        // (protobufjs would print a Node warning and fail on one path it guessed).
        if (target.startsWith('google/protobuf/')) continue;
        const searched = includeDirs.map((dir) => `${path.relative(source.workspaceRoot, dir) || '.'}/`).join(', ');
        throw new SendError(`the import "${target}" in ${importer} was found in none of ${searched} (the proto files' folders, then grpc.importPaths); add the folder that holds ${target} to grpc.importPaths.`, 'other');
      }
      await visit(await workspaceFile(path.relative(source.workspaceRoot, resolved) || resolved, `the import "${target}" in ${importer}`, source));
    }
    stack.pop();
    onStack.delete(file);
    done.add(file);
  };
  for (const file of files) await visit(file);
}

function resolveImport(importer: string, target: string, includeDirs: string[]): string | undefined {
  const readable = (file: string) => {
    try {
      accessSync(file, constants.R_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (path.isAbsolute(target)) return target;
  for (const dir of includeDirs) if (readable(path.join(dir, target))) return path.join(dir, target);
  const beside = path.resolve(path.dirname(importer), target);
  return readable(beside) ? beside : undefined;
}

/**
 * Asks the server for the descriptors of `service` (of all its services when undefined) over
 * `channel`: reflection v1, falling back to v1alpha when the server has only that one. Each call
 * goes through `interceptors` (a signed request's signs each call for reflection's path).
 */
export async function loadByReflection(channel: Channel, credentials: ChannelCredentials, service: string | undefined, metadata: Metadata, deadline: number | undefined, interceptors: Interceptor[] = []): Promise<PackageDefinition> {
  let lastError: unknown;
  for (const version of ['v1', 'v1alpha'] as const) {
    const reflection = strictReflection(new GrpcReflection('ignored:0', credentials, { channelOverride: channel, interceptors }, version));
    const options = deadline ? { deadline } : {};
    try {
      const services = await listedServices(reflection, metadata, options);
      const own = services.filter((s) => !s.startsWith('grpc.reflection.'));
      if (service !== undefined && !services.includes(service)) throw unknownService(service, own);
      // Every service the server has (the app's picker), or the one the request names.
      const definition: PackageDefinition = {};
      for (const name of service === undefined ? own : [service]) {
        Object.assign(definition, await reflectedDefinition(reflection, name, metadata, options, LOADER_OPTIONS));
      }
      return encodeMapsAsEntryLists(definition);
    } catch (error) {
      if (error instanceof SendError) throw error;
      lastError = error;
      if (!/\b12 UNIMPLEMENTED\b/.test(String((error as Error).message))) break;
    }
  }
  throw reflectionFailed(lastError);
}

/** What became of a reflection attempt that failed: no reflection, or a status the caller maps (connection). `ended`: the call's status and headers, when it ended with one. */
export class ReflectionFailure extends Error {
  constructor(
    message: string,
    readonly status?: string,
    readonly ended?: ReflectionCallEnded,
  ) {
    super(message);
  }
}

function reflectionFailed(error: unknown): Error {
  const text = String((error as Error)?.message ?? error).replace(/^Error: /, '');
  if (/\b12 UNIMPLEMENTED\b/.test(text)) {
    return new SendError('the server does not support reflection (neither grpc.reflection.v1 nor v1alpha); list the service\'s .proto files in grpc.protoFiles.', 'unsupported');
  }
  return new ReflectionFailure(text, /^(\d+) ([A-Z_]+)/.exec(text)?.[2], error instanceof ReflectionCallEnded ? error : undefined);
}

export function unknownService(service: string, known: string[]): SendError {
  const list = known.length ? `; the server has: ${known.slice(0, 20).join(', ')}` : '';
  return new SendError(`unknown gRPC service ${service}${list}.`, 'other');
}

/** The method's definition, or a line listing the services or methods that exist. */
export function findMethod(definition: PackageDefinition, service: string, method: string): MethodDefinition<object, object> {
  const found = definition[service];
  const services = Object.entries(definition).filter(([, value]) => isService(value)).map(([name]) => name);
  if (!found || !isService(found)) throw unknownService(service, services);
  const methods = found as Record<string, MethodDefinition<object, object>>;
  const match = methods[method] ?? Object.values(methods).find((m) => m.originalName === method || m.path.endsWith(`/${method}`));
  if (!match) throw new SendError(`${service} has no method ${method}; it has: ${Object.keys(methods).join(', ')}.`, 'other');
  return match;
}

/** The services of a definition with their methods, in the definition's order. */
export function servicesOf(definition: PackageDefinition): Array<{ service: string; methods: Array<[string, MethodDefinition<object, object>]> }> {
  return Object.entries(definition)
    .filter(([name, value]) => isService(value) && !name.startsWith('grpc.reflection.'))
    .map(([service, value]) => ({ service, methods: Object.entries(value as Record<string, MethodDefinition<object, object>>) }));
}

function isService(value: unknown): boolean {
  if (!value || typeof value !== 'object' || 'format' in value) return false;
  const first = Object.values(value)[0] as { path?: unknown } | undefined;
  return typeof first?.path === 'string';
}
