/**
 * The `yaml` package (writing files, editing them in place, and reading what js-yaml declines),
 * loaded the first time it is used: opening a workspace to read it needs none of it.
 *
 * The CLI bundle replaces this module with one that loads a one-file build of the package,
 * dist/bundle/yaml.cjs (scripts/bundle-cli.mjs): Node 20 reads, wraps and compiles the package's
 * 72 CommonJS files one by one, ~75 ms of CPU, against ~18 ms for the one file.
 */
import { lazyRequire } from './lazy-require.js';

export const yamlLibrary = lazyRequire<typeof import('yaml')>(import.meta.url, 'yaml');
