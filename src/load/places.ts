/**
 * The closed model's user places (0, 1, 2…): a user above the number the stages want leaves, so
 * each user holds a place of its own. A new user takes the lowest free place: one given back by a
 * user that left, else the next one. Numbering users by their count instead gave a newcomer the
 * place of a user that was still finishing its request after a ramp down and up, and at the next
 * ramp down both left, one more than asked.
 */
export class Places {
  /** Places given back, below `next`, in no order: few at a time (users that left), so a scan finds the lowest. */
  private readonly free: number[] = [];
  private next = 0;

  take(): number {
    const free = this.free;
    if (free.length === 0) return this.next++;
    let lowest = 0;
    for (let i = 1; i < free.length; i++) if (free[i]! < free[lowest]!) lowest = i;
    const place = free[lowest]!;
    free[lowest] = free[free.length - 1]!;
    free.pop();
    return place;
  }

  give(place: number): void {
    this.free.push(place);
  }
}
