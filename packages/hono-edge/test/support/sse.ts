import { vi } from "vitest";

/** One Server-Sent Event as a test sees it. */
export interface SseEvent {
  /** The event's type (`event:`), when it is not the default `message`. */
  readonly event?: string;
  readonly id?: string;
  readonly data?: string;
  readonly retry?: string;
  readonly comment?: string;
}

/** Parses an SSE text into events (blocks separated by a blank line). */
export const parseSse = (text: string): SseEvent[] =>
  text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const e: Record<string, string> = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) e["comment"] = line.slice(1).trim();
        else {
          const at = line.indexOf(":");
          const key = line.slice(0, at);
          e[key] = (e[key] ? `${e[key]}\n` : "") + line.slice(at + 1).replace(/^ /, "");
        }
      }
      return e as SseEvent;
    });

/** Advances fake time in steps until a promise settles (a stream only moves when its timers fire). */
export const settle = async <T>(promise: Promise<T>, stepMs = 10, maxMs = 120_000): Promise<T> => {
  let done = false;
  const p = promise.finally(() => (done = true));
  for (let t = 0; !done && t < maxMs; t += stepMs) await vi.advanceTimersByTimeAsync(stepMs);
  return p;
};

/** Reads a whole SSE response under fake timers. */
export const readStream = async (res: Response): Promise<SseEvent[]> => parseSse(await settle(res.text()));

/** Reads SSE events until `count` data events arrived, then cancels the stream (a dropped connection). */
export const readSome = async (res: Response, count: number): Promise<SseEvent[]> => {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const dataEvents = () => parseSse(text.slice(0, text.lastIndexOf("\n\n") + 2)).filter((e) => e.data !== undefined);
  while (dataEvents().length < count) {
    const { value, done } = await settle(reader.read());
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  return dataEvents().slice(0, count);
};
