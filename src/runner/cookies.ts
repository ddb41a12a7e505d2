/** A run's cookie jar: the data folder's copy (appdata/) in the protocols' jar, loaded at the start and saved at the end when it changed. */
import { readCookieJarFile, writeCookieJarFile } from '../appdata/index.js';
import { CookieStore } from '../protocols/index.js';

export async function loadCookies(file: string | undefined): Promise<CookieStore> {
  return CookieStore.fromSerialized(await readCookieJarFile(file));
}

export async function saveCookies(cookies: CookieStore, file: string | undefined): Promise<void> {
  if (!file || !cookies.changed) return;
  await writeCookieJarFile(file, cookies.serialize());
  cookies.changed = false;
}
