/** Times and sizes as people read them (`812 ms`, `1.2 kB`): the terminal reporter and the progress line share them. */

export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * The size of something over `limitBytes`, for a refusal: in MB with one decimal, unless that
 * rounds to the limit or below ("50.0 MB; … over 50 MB" for 10 bytes over), then in bytes.
 */
export function sizeOverLimit(bytes: number, limitBytes: number): string {
  const mb = (bytes / 1048576).toFixed(1);
  return Number(mb) * 1048576 > limitBytes ? `${mb} MB` : `${bytes.toLocaleString('en-US')} bytes`;
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}
