/**
 * Who sells an offer read from an upstream. Mode A and single-airline answers name no seller: the offer is
 * the airline's own (or a third-party points programme's, like Livelo), so the seller is derived from the
 * airline. OTA comparisons name the seller (`Nome`, `Site`, `UrlPesquisa`, `Outros[].Url`).
 */
import type { Airline } from "../domain/airline.js";
import type { Seller } from "../domain/offer.js";

/**
 * Public sites of the decisions.md airlines. The upstream gives no link for airline offers, so `site` names
 * the airline's own site, which is where such an offer is bought, and `url` is that site's home page.
 */
const AIRLINE_SITES: Readonly<Record<string, string>> = {
  LA: "latamairlines.com",
  G3: "voegol.com.br",
  AD: "voeazul.com.br",
  TP: "flytap.com",
  CM: "copaair.com",
  AA: "aa.com",
  IB: "iberia.com",
};

/** Sites of the sources that are programmes or the interline service rather than airlines, by Companhia id. */
const SOURCE_SITES: Readonly<Record<number, string>> = { 34: "livelo.com.br" };

/** A stable lower-case id from a display name: `American Airlines` -> `american-airlines`. */
export const slug = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** The home page of a known site; empty when the site is unknown. */
const homePage = (site: string): string => (site ? `https://${site}/` : "");

const same = (a: string, b: string) => slug(a) !== "" && slug(a) === slug(b);

/**
 * The seller of an airline offer. `programme` is what the upstream names (`FidelityProgram`): the airline's
 * own name or programme (`LATAM`, `LATAM Pass`, `Gol`) gives the airline as seller (`latam`, named after the
 * programme for miles); a third-party programme (`Livelo`) is its own seller (`livelo`), so its offers are
 * never mistaken for the airline's.
 */
export const airlineSeller = (
  carrier: { readonly iata: string; readonly name: string },
  airline: Airline | undefined,
  programme: string | undefined,
): Seller => {
  if (airline && airline.kind !== "airline") {
    const site = SOURCE_SITES[airline.id] ?? "";
    return { kind: "airline", id: slug(airline.name), name: programme || airline.name, site, url: homePage(site) };
  }
  const airlineName = airline?.name ?? carrier.name;
  const own =
    programme === undefined ||
    same(programme, airlineName) ||
    same(programme, airline?.programme ?? "") ||
    slug(programme).startsWith(`${slug(airlineName)}-`);
  if (!own) return { kind: "airline", id: slug(programme) || slug(airlineName), name: programme, site: "", url: "" };
  const site = AIRLINE_SITES[carrier.iata] ?? "";
  return {
    kind: "airline",
    id: slug(airlineName) || carrier.iata.toLowerCase(),
    name: programme ?? airlineName,
    site,
    url: homePage(site),
  };
};

/** A URL only when it is an absolute http(s) link; anything else (`javascript:`, relative, garbage) is dropped. */
export const safeUrl = (text: string | null | undefined): string => {
  const trimmed = text?.trim() ?? "";
  if (!URL.canParse(trimmed)) return "";
  const url = new URL(trimmed);
  return url.protocol === "https:" || url.protocol === "http:" ? url.href : "";
};

/** The host of a site given as a host (`voaja.com.br`) or a URL (`https://www.voaja.com.br/x`). */
const hostOf = (site: string): string => {
  const trimmed = site.trim();
  const href = safeUrl(/^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  return href ? new URL(href).host : trimmed;
};

/**
 * The seller of an OTA offer, from its name, site and link. Undefined when the upstream names none
 * (then the offer is the airline's).
 */
export const otaSeller = (
  name: string | null | undefined,
  site: string | null | undefined,
  url: string | null | undefined,
): Seller | undefined => {
  const label = name?.trim() || site?.trim();
  if (!label) return undefined;
  const host = site?.trim() ? hostOf(site) : url ? hostOf(url) : "";
  return { kind: "ota", id: `ota:${slug(label) || slug(host) || "desconhecida"}`, name: label, site: host, url: safeUrl(url) };
};
