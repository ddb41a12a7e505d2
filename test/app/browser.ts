/**
 * Debian's Chromium driven by playwright-core (which downloads nothing), for the app's
 * end-to-end tests; the built UI, built here when missing. Tests skip with the reason when
 * Chromium is absent (CI installs it with .ci/install-peers.sh).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.FERRY_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (install Debian's chromium, as .ci/install-peers.sh does, or set FERRY_CHROMIUM)`;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Without the background-networking flags Chromium keeps calling home, which this machine's closed network refuses.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

const ROOT = path.resolve(import.meta.dirname, '../..');
export const WEB_ROOT = path.join(ROOT, 'dist/app/web');

/** Builds the UI with Vite (as `npm run build` does) when dist/app/web is missing. */
export async function ensureBuiltUi(): Promise<void> {
  if (existsSync(path.join(WEB_ROOT, 'index.html'))) return;
  const { build } = await import('vite');
  await build({ configFile: path.join(ROOT, 'src/app/web/vite.config.ts'), logLevel: 'warn' });
}

/** Screenshots go here (gitignored): CI keeps them as artifacts. */
export const ARTIFACTS = path.join(ROOT, 'test-artifacts/app');
