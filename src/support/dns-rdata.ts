/**
 * A DNS message's parts as bytes, where dns-packet's reading loses them: the data bytes (RDATA)
 * of each record, in the order dns-packet decodes them (answers, authorities, additionals) —
 * dns-packet reads the text of CAA, HINFO and NAPTR as UTF-8, which turns other bytes into
 * U+FFFD; the DNS client's records.ts reads those types from these bytes — and the question as
 * sent (the DNS server echoes it).
 */

/** Most labels or pointers read for one name: a real name has at most 128 labels. */
const MAX_NAME_PARTS = 128;

/** Where the name starting at `offset` ends (a compression pointer ends it). */
export function afterName(message: Buffer, offset: number): number {
  for (let parts = 0; parts < MAX_NAME_PARTS; parts++) {
    const length = message[offset];
    if (length === undefined) throw new RangeError('name runs past the end of the message');
    if (length === 0) return offset + 1;
    if ((length & 0xc0) === 0xc0) return offset + 2;
    offset += 1 + length;
  }
  throw new RangeError('name has too many labels');
}

/** The first question's bytes (name, type, class); undefined when the message has none or ends inside it. */
export function firstQuestion(message: Buffer): Buffer | undefined {
  try {
    if (message.length < 12 || message.readUInt16BE(4) === 0) return undefined;
    const end = afterName(message, 12) + 4;
    return end <= message.length ? message.subarray(12, end) : undefined;
  } catch {
    return undefined;
  }
}

/** The labels of the name a question (firstQuestion's bytes) starts with; undefined when it is compressed or cut short. */
export function questionLabels(question: Buffer): Buffer[] | undefined {
  const labels: Buffer[] = [];
  for (let offset = 0; labels.length < MAX_NAME_PARTS; ) {
    const length = question[offset];
    if (length === undefined || (length & 0xc0) !== 0 || offset + 1 + length > question.length) return undefined;
    if (length === 0) return labels;
    labels.push(question.subarray(offset + 1, offset + 1 + length));
    offset += 1 + length;
  }
  return undefined;
}

/** Each record's data, or undefined when the message cannot be walked (dns-packet's decoding is used alone then). */
export function recordData(message: Buffer): Buffer[] | undefined {
  try {
    if (message.length < 12) return undefined;
    const questions = message.readUInt16BE(4);
    const records = message.readUInt16BE(6) + message.readUInt16BE(8) + message.readUInt16BE(10);
    let offset = 12;
    for (let i = 0; i < questions; i++) offset = afterName(message, offset) + 4;
    const data: Buffer[] = [];
    for (let i = 0; i < records; i++) {
      offset = afterName(message, offset);
      const length = message.readUInt16BE(offset + 8);
      const start = offset + 10;
      if (start + length > message.length) return undefined;
      data.push(message.subarray(start, start + length));
      offset = start + length;
    }
    return data;
  } catch {
    return undefined;
  }
}
