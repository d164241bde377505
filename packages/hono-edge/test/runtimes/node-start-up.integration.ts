import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_DIR } from "./support/runtime-binaries.js";
import { startVoarServer } from "../redis/support/voar-server.js";

// voar-server's start, as an operator meets it: a misspelled variable, the strict flag, a port another process holds.

const KEYS = { VOAR_API_KEYS: "acme:a-long-random-secret-0001" };

/** Runs voar-server from the sources until it exits by itself (or 60 s pass): its exit code and its output. */
const runToExit = (env: Readonly<Record<string, string>>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/node.ts"], {
      cwd: PACKAGE_DIR,
      env: { ...process.env, VOAR_CONFIG_FILE: "", VOAR_HOSTNAME: "127.0.0.1", ...KEYS, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => void (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => void (stderr += c.toString("utf8")));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`voar-server did not exit within 60 s:\n${stdout}\n${stderr}`));
    }, 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });

describe("voar-server at start", () => {
  it("warns once per unknown VOAR_* variable, naming the closest known one, and serves", async () => {
    const server = await startVoarServer({ ...KEYS, VOAR_PROT: "8080", VOAR_UPSTREM_URL: "https://upstream.example/api" });
    try {
      const warnings = server.logs().filter((r) => r.msg === "config.unknown_variable");
      expect(warnings).toEqual([
        expect.objectContaining({ level: "warn", variable: "VOAR_PROT", closest: "VOAR_PORT" }),
        expect.objectContaining({ level: "warn", variable: "VOAR_UPSTREM_URL", closest: "VOAR_UPSTREAM_URL" }),
      ]);
      expect(warnings[0]!["detail"]).toBe("VOAR_PROT is not a variable of the service (did you mean VOAR_PORT?); ignored (VOAR_STRICT_ENV=true makes it an error)");
      // The misspelled upstream was ignored: the simulator serves.
      expect(server.logs().find((r) => r.msg === "listening")).toMatchObject({ backend: "simulator" });
      expect((await fetch(`${server.baseUrl}/health`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("with VOAR_STRICT_ENV=true, stops with the configuration's error and exit code 1 instead", async () => {
    const { code, stdout, stderr } = await runToExit({ VOAR_PORT: "0", VOAR_STRICT_ENV: "true", VOAR_PROT: "8080" });
    expect(code).toBe(1);
    expect(stderr).toBe("voar: invalid configuration\n  - VOAR_PROT is not a variable of the service (did you mean VOAR_PORT?)\n");
    expect(stdout).not.toContain('"listening"');
  });

  describe("on a port another process holds", () => {
    let holder: Server;
    let port: number;
    beforeAll(async () => {
      holder = createServer();
      port = await new Promise<number>((resolve) => holder.listen(0, "127.0.0.1", () => resolve((holder.address() as { port: number }).port)));
    });
    afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

    it("says so in one line, without a stack trace, and exits 98", async () => {
      const { code, stderr } = await runToExit({ VOAR_PORT: String(port) });
      expect(code).toBe(98);
      expect(stderr).toBe(`voar: cannot listen: the service's address 127.0.0.1:${port} is already in use (EADDRINUSE); stop what holds it or set VOAR_PORT to another port\n`);
    });

    it("and the same for the metrics' own port", async () => {
      const { code, stderr } = await runToExit({ VOAR_PORT: "0", VOAR_METRICS_PORT: String(port) });
      expect(code).toBe(98);
      expect(stderr).toBe(`voar: cannot listen: the metrics address 127.0.0.1:${port} is already in use (EADDRINUSE); stop what holds it or set VOAR_METRICS_PORT to another port\n`);
    });
  });
});
