import { writeSync } from "node:fs";

/**
 * Writes log lines to a file descriptor (stdout by default) in batches: lines of one turn of the event loop
 * go out together in one write at the next turn (`setImmediate`), instead of one write per line, so a busy
 * server's request log costs a string append per request. Whatever is pending when the process exits is
 * written synchronously before it does.
 */
export const batchedLineWriter = (fd = 1): ((line: string) => void) => {
  let pending = "";
  /** Bytes a full pipe did not take yet (EAGAIN): they go first at the next flush. */
  let backlog: Buffer | undefined;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === "" && !backlog) return;
    const bytes = backlog ? Buffer.concat([backlog, Buffer.from(pending)]) : Buffer.from(pending);
    pending = "";
    backlog = undefined;
    let at = 0;
    while (at < bytes.length) {
      try {
        at += writeSync(fd, bytes, at);
      } catch (e) {
        // A full pipe would block a synchronous write: keep the rest and try again next turn.
        if ((e as { code?: unknown }).code !== "EAGAIN") throw e;
        backlog = bytes.subarray(at);
        schedule();
        return;
      }
    }
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };
  process.once("exit", flush);
  return (line) => {
    pending += `${line}\n`;
    // A very busy turn flushes early, so memory holds at most about 1 MB of lines.
    if (pending.length > 1 << 20) flush();
    else schedule();
  };
};
