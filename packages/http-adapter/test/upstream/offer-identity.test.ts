import { describe, expect, it } from "vitest";
import type { Offer } from "@voar/core";
import { stableOfferIds } from "../../src/upstream/offer-identity.js";

/** An offer as the reader gives it: only its id, source and seller matter here. */
const offer = (id: string, seller: Partial<Offer["seller"]>): Offer =>
  ({
    id,
    sourceId: "upstream",
    seller: { kind: "ota", id: "ota:voaja", name: "Voaja", site: "voaja.example", url: "", ...seller },
  }) as Offer;

const LINK = "https://voaja.example/voos/REC-BSB/2026-12-23?voos=G31495&oferta=ota%3Avoaja%3A142a2df242ee%3Aplus";

describe("stable OTA offer ids", () => {
  it("name an OTA offer by its link, whether the reader read it as a main offer or as another seller's", () => {
    const [asMain] = stableOfferIds([offer("upstream:tk-1", { url: LINK })]);
    const [asOther] = stableOfferIds([offer("upstream:tk-7:ota:voaja", { url: LINK })]);
    const [otherLink] = stableOfferIds([offer("upstream:tk-1", { url: `${LINK}x` })]);
    expect(asMain!.id).toBe(asOther!.id);
    expect(otherLink!.id).not.toBe(asMain!.id);
    expect(asMain!.id.startsWith("upstream:url:")).toBe(true);
  });

  it("stay short whatever the link's length (the link is the offer's already)", () => {
    const long = `${LINK}&${"p=1&".repeat(500)}`;
    const [o] = stableOfferIds([offer("upstream:tk-1", { url: long })]);
    expect(o!.id.length).toBeLessThan(30);
    expect(o!.seller.url).toBe(long);
  });

  it("keep two offers with one link apart within an answer, and leave other offers as they are", () => {
    const airline = offer("upstream:tk-3", { kind: "airline", id: "latam", url: "https://latamairlines.com/" });
    const noLink = offer("upstream:tk-4", { url: "" });
    const [a, b, c, d] = stableOfferIds([offer("upstream:tk-1", { url: LINK }), offer("upstream:tk-2", { url: LINK }), airline, noLink]);
    expect(b!.id).toBe(`${a!.id}~2`);
    expect(c).toBe(airline);
    expect(d).toBe(noLink);
  });
});
