/**
 * One event of the `text/event-stream` format (WHATWG HTML, server-sent events): an `event:` line
 * when named, an `id:` line when given, one `data:` line per line of the data, then a blank line.
 * Any line break (CRLF, CR, LF) inside the data starts a new `data:` line, so a client gets the
 * data back joined with LF exactly as the standard says. Line breaks can't be part of a name or id
 * (they would end the field), so they are removed there.
 */
export function frameEvent(name: string, id: string, data: string): string {
  let out = '';
  const event = stripLineBreaks(name);
  if (event !== '') out += `event: ${event}\n`;
  const eventId = stripLineBreaks(id).replaceAll('\0', ''); // a NUL makes clients ignore the id
  if (eventId !== '') out += `id: ${eventId}\n`;
  let from = 0;
  for (;;) {
    const at = nextLineBreak(data, from);
    if (at < 0) {
      out += `data: ${data.slice(from)}\n`;
      break;
    }
    out += `data: ${data.slice(from, at)}\n`;
    from = data.charCodeAt(at) === 0x0d && data.charCodeAt(at + 1) === 0x0a ? at + 2 : at + 1;
  }
  return `${out}\n`;
}

function nextLineBreak(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return i;
  }
  return -1;
}

function stripLineBreaks(text: string): string {
  return text.replace(/[\r\n]+/g, '');
}
