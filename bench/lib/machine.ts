import os from "node:os";

/** The machine a bench ran on, for the report's header. */
export const machine = () => ({
  cpu: os.cpus()[0]?.model.trim() ?? "unknown",
  cores: os.cpus().length,
  memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
  node: process.version,
  platform: `${os.type()} ${os.release()} ${os.arch()}`,
  date: new Date().toISOString(),
});
