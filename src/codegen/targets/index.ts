import type { Target } from '../target.js';
import { curlBash, curlCmd, curlPowershell } from './curl.js';
import { httpie } from './httpie.js';
import { wget } from './wget.js';
import { powershell } from './powershell.js';
import { axiosTarget, fetchTarget } from './javascript.js';
import { pythonHttpx, pythonRequests } from './python.js';
import { goTarget } from './go.js';
import { javaTarget } from './java.js';
import { kotlinTarget } from './kotlin.js';
import { swiftTarget } from './swift.js';
import { csharpTarget } from './csharp.js';
import { phpTarget } from './php.js';
import { rubyTarget } from './ruby.js';
import { rustTarget } from './rust.js';
import { dartTarget } from './dart.js';
import { libcurlTarget } from './libcurl.js';

/** Every target, in the order of the spec's table (4.7). */
export const TARGETS: readonly Target[] = [
  curlBash,
  curlCmd,
  curlPowershell,
  httpie,
  wget,
  powershell,
  fetchTarget,
  axiosTarget,
  pythonRequests,
  pythonHttpx,
  goTarget,
  javaTarget,
  kotlinTarget,
  swiftTarget,
  csharpTarget,
  phpTarget,
  rubyTarget,
  rustTarget,
  dartTarget,
  libcurlTarget,
];
