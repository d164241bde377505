import { DEMO_CONFIG_PATH, type DemoConfig } from "../../shared/demo-config.js";

/** Reads the demo's settings from the server that served the page. */
export const loadDemoConfig = async (): Promise<DemoConfig> => {
  const response = await fetch(DEMO_CONFIG_PATH, { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`${DEMO_CONFIG_PATH} respondeu HTTP ${response.status}`);
  return (await response.json()) as DemoConfig;
};
