/**
 * Watches the bytes a broker sends, ahead of mqtt.js's parser, reading only each packet's fixed
 * header (type, remaining length): mqtt-packet buffers a packet whole before handing it on (up
 * to MQTT's 256 MB), so a packet past the size bound must be refused at its header, before its
 * bytes pile up. It also tells whether the broker's first packet, a CONNACK, has arrived whole,
 * so that what goes wrong afterwards is named as happening after connecting.
 */
export class PacketGuard {
  /** The first packet was a CONNACK and it arrived whole. */
  accepted = false;
  private firstType: number | undefined;
  /** Bytes of the fixed header being read (type byte, then up to 4 length bytes). */
  private header: number[] = [];
  /** Bytes of the current packet still to come after its fixed header. */
  private remaining = 0;
  private stopped = false;

  /**
   * `limit`: the most bytes of one packet (header included); 0 = no bound but MQTT's own.
   * `onNotConnack`: the broker's first packet is of another type (so not MQTT at all, most often:
   * a web server's answer); told with the type, at once, before its length is believed.
   */
  constructor(
    private readonly limit: number,
    private readonly onTooLarge: () => void,
    private readonly onNotConnack: (type: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && !this.stopped) {
      if (this.remaining > 0) {
        const taken = Math.min(this.remaining, chunk.length - at);
        this.remaining -= taken;
        at += taken;
        if (this.remaining === 0) this.packetEnded();
        continue;
      }
      const byte = chunk[at++]!;
      this.header.push(byte);
      if (this.firstType === undefined) {
        this.firstType = byte >> 4;
        if (this.firstType !== 2) {
          this.stopped = true;
          this.onNotConnack(this.firstType);
          return;
        }
      }
      // The remaining length: 7 bits a byte, low first, a set high bit for more (at most 4 bytes).
      if (this.header.length === 1 || ((byte & 0x80) !== 0 && this.header.length < 5)) continue;
      const length = this.header.slice(1).reduce((sum, b, i) => sum + (b & 0x7f) * 128 ** i, 0);
      const size = this.header.length + length;
      this.header = [];
      if (this.limit > 0 && size > this.limit) {
        this.stopped = true;
        this.onTooLarge();
        return;
      }
      this.remaining = length;
      if (length === 0) this.packetEnded();
    }
  }

  private packetEnded(): void {
    // The first packet, a CONNACK (type 2; any other was refused above), has arrived whole.
    if (this.firstType === 2) this.accepted = true;
    this.firstType = -1;
  }
}
