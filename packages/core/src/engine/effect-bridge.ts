import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import { Observable } from "rxjs";

/**
 * The one bridge from Effect to RxJS. Runs a program that pushes values through `emit`; the Observable
 * completes when the program succeeds, errors on a defect, and interrupts the program (running its
 * finalizers, which abort in-flight work) when the subscriber unsubscribes.
 *
 * @example
 * const ticks$ = effectToObservable<number>((emit) => Effect.sync(() => { emit(1); emit(2); }));
 */
export const effectToObservable = <T>(program: (emit: (value: T) => void) => Effect.Effect<void>): Observable<T> =>
  new Observable<T>((subscriber) => {
    const fiber = Effect.runFork(program((value) => subscriber.next(value)));
    fiber.addObserver((exit) => {
      if (Exit.isSuccess(exit)) subscriber.complete();
      else if (!Cause.isInterruptedOnly(exit.cause)) subscriber.error(Cause.squash(exit.cause));
    });
    return () => {
      if (fiber.unsafePoll() === null) Effect.runFork(Fiber.interrupt(fiber));
    };
  });
