import { bundleWorkerd as bundle } from "../../../scripts/bundle-workerd.js";

/**
 * Bundles the workerd entry exactly as the `bundle:workerd` script does (core's compact airport table included)
 * and returns the script's text: the test needs no prior build.
 */
export const bundleWorkerd = async (): Promise<string> => {
  const { text } = await bundle();
  if (text === undefined) throw new Error("esbuild produced no output for the workerd entry");
  return text;
};
