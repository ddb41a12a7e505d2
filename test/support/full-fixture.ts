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
  ['request', 'requests/Signing/OAuth 1.yaml'],
  ['request', 'requests/Signing/NTLM.yaml'],
  ['request', 'requests/Signing/JWT.yaml'],
  ['request', 'requests/Signing/Hawk.yaml'],
  ['request', 'requests/Signing/EdgeGrid.yaml'],
  ['request', 'requests/Signing/ASAP.yaml'],
  ['environment', 'environments/staging.yaml'],
  ['server', 'servers/mock.yaml'],
  ['server', 'servers/sockets.yaml'],
  ['loadtest', 'loadtests/smoke.yaml'],
];
