/**
 * A run's cookie jar: the data folder's copy (appdata/) in the protocols' jar, loaded at the start
 * and saved at the end when it changed, merged into what the file holds then (other processes
 * save their jars there too: only what this jar changed is written).
 */
import { readCookieJarFile, updateCookieJarFile } from '../appdata/index.js';
import { CookieStore } from '../protocols/index.js';

export async function loadCookies(file: string | undefined): Promise<CookieStore> {
  return CookieStore.fromSerialized(await readCookieJarFile(file));
}

export async function saveCookies(cookies: CookieStore, file: string | undefined): Promise<void> {
  if (!file || !cookies.changed) return;
  await updateCookieJarFile(file, (current) => cookies.mergedWith(current));
  cookies.saved();
}
