/**
 * `pnpm demo`: the Voar service on the embedded simulator (or a real upstream), the search page and the
 * CLI's target, in one process. Prints where everything is, then serves until Ctrl+C.
 */
import { resolveRelativeDate } from "@voar/core";
import { ConfigError } from "@voar/hono-edge";
import { colorsFor } from "../cli/colors.js";
import { VOAR_CLI } from "../shared/cli-invocation.js";
import { demoOptionsFromEnv, DemoOptionError } from "./demo-options.js";
import { UnknownSourceError } from "./demo-sources.js";
import { startDemoServer, type DemoServer } from "./demo-server.js";
import { stopOnSignals } from "./stop-on-signals.js";

const pc = colorsFor({ out: process.stdout, env: process.env });

const banner = (demo: DemoServer): string => {
  const page = demo.options.hostname === "127.0.0.1" ? demo.url.replace("127.0.0.1", "localhost") : demo.url;
  const api = demo.apiUrl.replace("127.0.0.1", "localhost");
  const backend =
    demo.config.backend === "simulador"
      ? `simulador embutido (latência ${demo.options.latencyMs[0]}–${demo.options.latencyMs[1]} ms por fonte${
          demo.config.simulatedFailures.length > 0 ? `; falha simulada em ${demo.config.simulatedFailures.join(", ")}` : ""
        })`
      : `fornecedor real em ${demo.options.upstream?.baseUrl ?? "?"}`;
  return [
    "",
    `  ${pc.bold("Voar")} · demonstração pronta`,
    "",
    `  Página          ${pc.cyan(page)}`,
    `  API             ${api}   (docs: ${api}/docs)`,
    `  Resultados de   ${backend}`,
    `  Chave da API    ${demo.options.apiKey}`,
    `  Chave de admin  ${demo.options.adminKey}   (painel do operador: chave Pagante por companhia)`,
    "",
    `  CLI   ${VOAR_CLI} search CNF SDU +30 --base-url ${api} --token ${demo.options.apiKey}`,
    `  curl  curl -N -X POST ${api}/ConsultaAereo/Stream -H 'Authorization: Bearer ${demo.options.apiKey}' \\`,
    `             -H 'Content-Type: application/json' -d '{"Origem":"CNF","Destino":"SDU","Ida":"${resolveRelativeDate("+30", new Date())}"}'`,
    "",
    `  ${pc.dim("Ctrl+C para parar.")}`,
    "",
  ].join("\n");
};

try {
  const demo = await startDemoServer(demoOptionsFromEnv(process.env));
  process.stdout.write(banner(demo));
  stopOnSignals(() => demo.close(), { write: (text) => process.stdout.write(text) });
} catch (e) {
  if (e instanceof DemoOptionError || e instanceof UnknownSourceError || e instanceof ConfigError) {
    process.stderr.write(`voar demo: configuração inválida\n  ${e.message}\n`);
    process.exit(2);
  }
  if (e instanceof Error && "code" in e && e.code === "EADDRINUSE") {
    process.stderr.write(`voar demo: a porta já está em uso. Use outra: PORT=8788 npx -y pnpm@10.34.9 demo\n`);
    process.exit(2);
  }
  throw e;
}
