/**
 * Which target a user sends next: rounds in file order, each target sent as many times in a row
 * as its weight allows (weights scaled so the smallest is 1; fractions carry over to the next
 * round). So sends follow the weights exactly, and a login listed first is sent first and its
 * captures reach the targets after it.
 */
export class Picker {
  private readonly weights: number[];
  private readonly credit: number[];
  private at: number;

  constructor(weights: readonly number[]) {
    const smallest = Math.min(...weights.filter((w) => w > 0));
    this.weights = weights.map((w) => (w > 0 ? w / smallest : 0));
    this.credit = weights.map(() => 0);
    this.at = weights.length;
  }

  next(): number {
    // Every round gives each target at least 1 credit, so this loop ends within one round.
    for (;;) {
      if (this.at >= this.weights.length) {
        this.at = 0;
        this.weights.forEach((w, i) => (this.credit[i]! += w));
      }
      if (this.credit[this.at]! >= 1 - 1e-9) {
        this.credit[this.at]! -= 1;
        return this.at;
      }
      this.at++;
    }
  }
}
