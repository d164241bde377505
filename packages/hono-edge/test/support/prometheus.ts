/**
 * Reads a Prometheus text exposition with a parser of its own (`parse-prometheus-text-format`), so tests
 * check what a Prometheus server would read, not what a regular expression of ours guesses.
 */
import parsePrometheusTextFormat from "parse-prometheus-text-format";

/** One sample: its labels and value. */
export interface Sample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One metric family as parsed. */
export interface Family {
  readonly name: string;
  readonly type: string;
  readonly samples: readonly Sample[];
}

interface Parsed {
  readonly name: string;
  readonly type: string;
  readonly metrics: readonly { readonly labels?: Record<string, string>; readonly value?: string }[];
}

/**
 * The families of a scrape by name. The parser folds a histogram's series into one bucket table and loses
 * their labels when there are several label sets, so a histogram is read as the plain series it is written
 * as: `<name>_bucket` (with `le`), `<name>_sum` and `<name>_count`, each a family of its own (type
 * `UNTYPED`); the histogram's own name maps to its `_count` series, typed `HISTOGRAM`.
 */
export const parseScrape = (text: string): ReadonlyMap<string, Family> => {
  const histograms = new Set([...text.matchAll(/^# TYPE (\S+) histogram$/gm)].map((m) => m[1]!));
  const plain = text
    .split("\n")
    .filter((line) => !/^# (TYPE|HELP) (\S+)/.test(line) || !histograms.has(/^# \w+ (\S+)/.exec(line)![1]!))
    .join("\n");
  const parsed = (parsePrometheusTextFormat as (t: string) => Parsed[])(plain);
  // The series of one histogram alternate (buckets, sum, count per label set): a name may come back, its samples add up.
  const families = new Map<string, Family>();
  for (const f of parsed) {
    const samples = f.metrics.map((m) => ({ labels: m.labels ?? {}, value: Number(m.value) }));
    const before = families.get(f.name);
    families.set(f.name, { name: f.name, type: f.type, samples: [...(before?.samples ?? []), ...samples] });
  }
  for (const name of histograms) families.set(name, { name, type: "HISTOGRAM", samples: families.get(`${name}_count`)?.samples ?? [] });
  return families;
};

/** The value of the sample of `name` with these labels (all of them matching), or undefined. */
export const sampleOf = (families: ReturnType<typeof parseScrape>, name: string, labels: Record<string, string> = {}): number | undefined =>
  families.get(name)?.samples.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

/** The sum of the samples of `name` with these labels (all of them matching), whatever their other labels: 0 when none. */
export const totalOf = (families: ReturnType<typeof parseScrape>, name: string, labels: Record<string, string> = {}): number =>
  (families.get(name)?.samples ?? []).filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);
