/**
 * Which target a user sends next: smooth weighted round robin (nginx's), so a user's sends
 * follow the weights exactly over any few rounds, in a fixed order (ties go to the earlier
 * target: a login listed first is sent first, and its captures reach the targets after it).
 */
export class Picker {
  private readonly current: number[];
  private readonly total: number;

  constructor(private readonly weights: readonly number[]) {
    this.current = weights.map(() => 0);
    this.total = weights.reduce((a, b) => a + b, 0);
  }

  next(): number {
    let best = 0;
    for (let i = 0; i < this.weights.length; i++) {
      this.current[i]! += this.weights[i]!;
      if (this.current[i]! > this.current[best]!) best = i;
    }
    this.current[best]! -= this.total;
    return best;
  }
}
