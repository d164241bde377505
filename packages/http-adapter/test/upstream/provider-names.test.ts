import { describe, expect, it } from "vitest";
import { activeAirlines, airlineOfProvider } from "../../src/upstream/provider-names.js";

describe("the providers an upstream lists as searching", () => {
  it("reads the real deployment's names loosely, and ignores names it does not know", () => {
    const real = ["Latam", "Gol", "Azul", "Livelo", "Tap", "Interline", "iberia", "AmericanAirlines"];
    expect([...activeAirlines(real)!].sort((a, b) => a - b)).toEqual([1, 2, 3, 11, 22, 26, 34, 1200]);
    expect(airlineOfProvider("American Airlines")).toBe(22);
    expect(airlineOfProvider("Smiles")).toBe(2);
    expect(airlineOfProvider("Copa Airlines")).toBeUndefined();
    expect(activeAirlines(undefined)).toBeUndefined();
  });
});
