/** What {@link stopOnSignals} listens to and exits through; `process` by default, a stand-in in tests. */
export interface SignalTarget {
  on(signal: "SIGINT" | "SIGTERM", listener: () => void): unknown;
  exit(code: number): void;
}

/** Options of {@link stopOnSignals}. */
export interface StopOnSignalsOptions {
  /** Where "Parando…" goes. */
  readonly write: (text: string) => void;
  /** How long a shutdown may take before the process exits anyway, with 1. Default 10 s. */
  readonly graceMs?: number | undefined;
  readonly target?: SignalTarget | undefined;
}

/**
 * Stops the demo on Ctrl+C (SIGINT) or SIGTERM and exits 0 once `stop` has closed everything, so
 * `pnpm demo` ends quietly. A terminal's Ctrl+C reaches the whole process group, and pnpm then forwards it
 * to its child once more: every signal is listened to for as long as the process lives, and the ones after
 * the first wait for the same shutdown instead of killing the process mid-way (which pnpm reports as
 * "ELIFECYCLE Command failed"). A shutdown that fails, or outlasts `graceMs`, exits 1.
 */
export const stopOnSignals = (stop: () => Promise<void>, options: StopOnSignalsOptions): void => {
  const target = options.target ?? process;
  let stopping = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    options.write("\nParando…\n");
    const timer = setTimeout(() => {
      options.write("A parada demorou demais; saindo assim mesmo.\n");
      target.exit(1);
    }, options.graceMs ?? 10_000);
    // The timer alone must not keep a process alive whose server has already closed.
    if (typeof timer === "object" && "unref" in timer) timer.unref();
    stop().then(
      () => {
        clearTimeout(timer);
        target.exit(0);
      },
      (e: unknown) => {
        clearTimeout(timer);
        options.write(`Erro ao parar: ${e instanceof Error ? e.message : String(e)}\n`);
        target.exit(1);
      },
    );
  };
  target.on("SIGINT", onSignal);
  target.on("SIGTERM", onSignal);
};
