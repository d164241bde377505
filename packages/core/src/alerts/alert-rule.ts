/**
 * When a price watch fires: the one rule of "avise-me quando baixar", pure, for cash (centavos) and for points
 * alike. A watch keeps, per currency, the lowest price it has seen in its window (`low`) and the last price it
 * told the traveller (`notified`).
 *
 * - With a ceiling: it fires when a price is at or below the ceiling and below the last price it told (the first
 *   time, any price at or below the ceiling); not again for the same price or a higher one.
 * - Without one ("any new low"): the first price seen is the baseline; it fires when a price is below every
 *   price seen before.
 */

/** What a watch remembers of one currency. */
export interface LowState {
  /** The lowest price seen so far in the window; absent before the first. */
  readonly low?: number | undefined;
  /** The last price the watch told; absent before it fired. */
  readonly notified?: number | undefined;
}

/** The outcome of one observed price. */
export interface LowDecision {
  readonly fire: boolean;
  /** The lowest price seen before this one (the event's "previous low"); absent on the first. */
  readonly previousLow: number | undefined;
  /** The state after it. */
  readonly next: LowState;
}

/**
 * Applies an observed price to a currency's state. `ceiling` absent: "any new low".
 *
 * @example
 * decideLow({ low: 45_000 }, 41_290, undefined); // { fire: true, previousLow: 45_000, next: { low: 41_290, notified: 41_290 } }
 */
export const decideLow = (state: LowState, observed: number, ceiling: number | undefined): LowDecision => {
  const previousLow = state.low;
  const low = previousLow === undefined ? observed : Math.min(previousLow, observed);
  const fire =
    ceiling === undefined
      ? previousLow !== undefined && observed < previousLow
      : observed <= ceiling && (state.notified === undefined || observed < state.notified);
  return { fire, previousLow, next: { low, notified: fire ? observed : state.notified } };
};
