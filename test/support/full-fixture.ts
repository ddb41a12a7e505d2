/** The files of test/fixtures/full (a workspace using every declared field) with their kinds. */
import path from 'node:path';
import type { ResourceKind } from '../../src/model/index.js';

export const FULL_FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'full');

export const FULL_FIXTURE_FILES: Array<[ResourceKind, string]> = [
  ['workspace', 'ferry.yaml'],
  ['folder', 'requests/Admin/_folder.yaml'],
  ['request', 'requests/Admin/Create thing.yaml'],
  ['request', 'requests/Admin/Deep/Sockets.yaml'],
  ['request', 'requests/Signed.yaml'],
  ['request', 'requests/Basic.yaml'],
  ['environment', 'environments/staging.yaml'],
  ['server', 'servers/mock.yaml'],
  ['server', 'servers/sockets.yaml'],
  ['loadtest', 'loadtests/smoke.yaml'],
];
