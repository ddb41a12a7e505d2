/**
 * The closed model's user places (0, 1, 2…): a user above the number the stages want leaves, so
 * each user holds a place of its own. A new user takes the lowest free place: one given back by a
 * user that left, else the next one. Numbering users by their count instead gave a newcomer the
 * place of a user that was still finishing its request after a ramp down and up, and at the next
 * ramp down both left, one more than asked.
 */
export class Places {
  /** Places given back, below `next`: a binary min-heap. */
  private readonly free: number[] = [];
  private next = 0;

  take(): number {
    const free = this.free;
    if (free.length === 0) return this.next++;
    const lowest = free[0]!;
    const last = free.pop()!;
    if (free.length > 0) {
      // Sift the last one down from the top.
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        if (left >= free.length) break;
        const child = left + 1 < free.length && free[left + 1]! < free[left]! ? left + 1 : left;
        if (free[child]! >= last) break;
        free[i] = free[child]!;
        i = child;
      }
      free[i] = last;
    }
    return lowest;
  }

  give(place: number): void {
    const free = this.free;
    let i = free.length;
    free.push(place);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (free[parent]! <= place) break;
      free[i] = free[parent]!;
      i = parent;
    }
    free[i] = place;
  }
}
