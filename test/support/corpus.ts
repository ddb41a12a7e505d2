/**
 * The corpus of real-world inputs the tests read (OpenAPI and Swagger documents, Postman
 * collections and environments, cURL commands with their expected parse): an unmodified copy of
 * the workplace's shared corpus, kept in the repository so a clone alone passes its tests.
 * Its origins and licences: test/fixtures/corpus/MANIFEST.md and LICENSES/.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/corpus');
