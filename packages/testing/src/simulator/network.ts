import type { Airport, AirportDirectory } from "@voar/core";
import { distanceKm } from "@voar/core/airports";
import { CARRIER_PROFILES, carrierProfile, FOCUS_RADIUS_KM, type CarrierProfile } from "./carriers.js";
import { unitHash } from "./prng.js";

/** One nonstop hop of a route: who sells it and, for a codeshare, who flies it. */
export interface RouteHop {
  readonly origin: Airport;
  readonly destination: Airport;
  /** The airline whose flight number the passenger holds. */
  readonly marketing: CarrierProfile;
  /** The airline flying the aircraft; a partner for a codeshare feeder hop. */
  readonly operating: CarrierProfile;
  readonly km: number;
}

/** A way an airline can carry a passenger from origin to destination: one to three hops. */
export interface RoutePath {
  readonly hops: readonly RouteHop[];
  /** Flown distance, the sum of the hops. */
  readonly km: number;
}

/** Which routes each airline plausibly flies, over an airport directory. */
export interface Network {
  /** The paths an airline sells between two airports, fewest hops and shortest first; empty when it does not. */
  paths(airlineId: number, origin: string, destination: string): readonly RoutePath[];
  /** Whether any airline flies the route nonstop (on its own aircraft or a partner's): connections then compete with it. */
  hasNonstop(origin: string, destination: string): boolean;
}

/**
 * The longest flown distance of a connection on a route some airline flies nonstop: 25 % or 700 km over
 * the great circle, whichever is more. CNF-SDU (340 km) connects through São Paulo or Campinas (about
 * 860 km), never through Brasília (1,530 km); GRU-LIS connects through Madrid, not Panama.
 */
export const maxDetourKm = (directKm: number): number => Math.max(directKm * 1.25, directKm + 700);

/** Airports closer than this are the same city (GRU-CGH, GIG-SDU): nobody flies between them. */
const MIN_HOP_KM = 150;
const MAX_PATHS = 6;

/**
 * Builds the simulated route network. It does not depend on the seed: who flies where is a fact of the
 * simulated world, the seed only moves timetables and prices.
 *
 * Rules: a home-market carrier flies hub to hub, hub to the big airports, and hub to a share of the small
 * ones (every small airport of a market gets at least one carrier, from its nearest hub); regional focus
 * cities fly to the small airports around them; big-to-big nonstops bypass the hubs (most carriers on
 * routes under 1,000 km, a quarter of them up to 2,000 km). International
 * routes are the hub-to-gateway lists of the profiles. A foreign carrier reaches an airport of its
 * partner's market on a codeshare hop, flown by the partner, to or from one of its gateways there.
 * A path has at most three hops (two stops only when nothing shorter exists) and may not detour more
 * than max(45 %, 1,300 km) over the great circle, or max(100 %, 2,600 km) within one country; where any
 * airline flies the route nonstop, no more than {@link maxDetourKm}: nobody would fly the detour instead.
 */
export const createNetwork = (directory: AirportDirectory): Network => {
  const airport = (iata: string) => directory.get(iata);

  const primaryCarrier = (a: Airport): CarrierProfile | undefined => {
    const local = CARRIER_PROFILES.filter((p) => p.homeCountry === a.country && p.minorShare > 0);
    return local[Math.floor(unitHash("primary", a.iata) * local.length)];
  };

  const serves = (p: CarrierProfile, a: Airport): boolean =>
    a.country === p.homeCountry &&
    (p.hubs.includes(a.iata) || p.majors.includes(a.iata) || primaryCarrier(a) === p || unitHash("serves", p.airlineId, a.iata) < p.minorShare);

  /** The nearest hub it can fly to (Pampulha's nearest hub, Confins, is in the same city). */
  const nearestHub = (p: CarrierProfile, a: Airport): string | undefined => {
    let best: { iata: string; km: number } | undefined;
    for (const h of p.hubs) {
      const hub = airport(h);
      if (!hub) continue;
      const km = distanceKm(a, hub);
      if (km >= MIN_HOP_KM && (!best || km < best.km)) best = { iata: h, km };
    }
    return best?.iata;
  };

  const spokeFlies = (p: CarrierProfile, hub: Airport, x: Airport): boolean =>
    p.majors.includes(x.iata) || nearestHub(p, x) === hub.iata || unitHash("spoke", p.airlineId, x.iata, hub.iata) < 0.5;

  const isFocus = (p: CarrierProfile, a: Airport): boolean => p.focusCities?.includes(a.iata) ?? false;

  const domesticFlies = (p: CarrierProfile, a: Airport, b: Airport): boolean => {
    if (!serves(p, a) || !serves(p, b)) return false;
    const aHub = p.hubs.includes(a.iata);
    const bHub = p.hubs.includes(b.iata);
    if (aHub && bHub) return true;
    if (aHub) return spokeFlies(p, a, b);
    if (bHub) return spokeFlies(p, b, a);
    const km = distanceKm(a, b);
    if (km <= FOCUS_RADIUS_KM && (isFocus(p, a) || isFocus(p, b))) return true;
    const pair = [a.iata, b.iata].sort().join("-");
    // Short big-to-big routes (CNF-SDU, POA-FLN) are flown nonstop by most carriers; longer ones by a few.
    const share = km < 1000 ? 0.6 : 0.25;
    return p.majors.includes(a.iata) && p.majors.includes(b.iata) && km < 2000 && unitHash("direct", p.airlineId, pair) < share;
  };

  const internationalFlies = (p: CarrierProfile, a: Airport, b: Airport): boolean =>
    (p.international[a.iata]?.includes(b.iata) ?? false) || (p.international[b.iata]?.includes(a.iata) ?? false);

  const isGateway = (p: CarrierProfile, iata: string): boolean => Object.values(p.international).some((list) => list.includes(iata));

  const hop = (p: CarrierProfile, a: Airport, b: Airport): RouteHop | undefined => {
    const km = distanceKm(a, b);
    if (km < MIN_HOP_KM) return undefined;
    const domestic = a.country === p.homeCountry && b.country === p.homeCountry;
    if ((domestic && domesticFlies(p, a, b)) || internationalFlies(p, a, b)) {
      return { origin: a, destination: b, marketing: p, operating: p, km };
    }
    const feeder = p.feederId === undefined ? undefined : carrierProfile(p.feederId);
    if (
      feeder &&
      a.country === feeder.homeCountry &&
      b.country === feeder.homeCountry &&
      (isGateway(p, a.iata) || isGateway(p, b.iata)) &&
      domesticFlies(feeder, a, b)
    ) {
      return { origin: a, destination: b, marketing: p, operating: feeder, km };
    }
    return undefined;
  };

  const connectionPoints = (p: CarrierProfile): string[] => [
    ...new Set([...p.hubs, ...(p.focusCities ?? []), ...Object.values(p.international).flat()]),
  ];

  /** Codeshare hops only at the ends of a path, and at least one hop flown by the airline itself. */
  const wellFormed = (hops: readonly RouteHop[]): boolean =>
    hops.some((h) => h.operating === h.marketing) &&
    hops.every((h, i) => h.operating === h.marketing || i === 0 || i === hops.length - 1);

  const nonstops = new Map<string, boolean>();
  const hasNonstop = (o: Airport, d: Airport): boolean => {
    const key = `${o.iata}-${d.iata}`;
    let found = nonstops.get(key);
    if (found === undefined) nonstops.set(key, (found = CARRIER_PROFILES.some((p) => hop(p, o, d) !== undefined)));
    return found;
  };

  return {
    hasNonstop(originCode, destinationCode) {
      const o = airport(originCode);
      const d = airport(destinationCode);
      return o !== undefined && d !== undefined && o.iata !== d.iata && hasNonstop(o, d);
    },
    paths(airlineId, originCode, destinationCode) {
      const p = carrierProfile(airlineId);
      const o = airport(originCode);
      const d = airport(destinationCode);
      if (!p || !o || !d || o.iata === d.iata) return [];
      const direct = distanceKm(o, d);
      // Hub-and-spoke in one country detours a lot (Marabá to Belém through Brasília); abroad, less.
      const reach = o.country === d.country ? Math.max(direct * 2, direct + 2600) : Math.max(direct * 1.45, direct + 1300);
      const maxKm = hasNonstop(o, d) ? Math.min(reach, maxDetourKm(direct)) : reach;
      const found: RoutePath[] = [];
      const consider = (hops: readonly (RouteHop | undefined)[]) => {
        if (hops.some((h) => h === undefined)) return;
        const ok = hops as readonly RouteHop[];
        const km = ok.reduce((sum, h) => sum + h.km, 0);
        if (km <= maxKm && wellFormed(ok)) found.push({ hops: ok, km });
      };
      consider([hop(p, o, d)]);
      const points = connectionPoints(p)
        .filter((c) => c !== o.iata && c !== d.iata)
        .map(airport)
        .filter((a): a is Airport => a !== undefined);
      for (const h of points) consider([hop(p, o, h), hop(p, h, d)]);
      if (found.length === 0) {
        for (const h1 of points) {
          const first = hop(p, o, h1);
          if (!first) continue;
          for (const h2 of points) if (h2 !== h1) consider([first, hop(p, h1, h2), hop(p, h2, d)]);
        }
      }
      found.sort((x, y) => x.hops.length - y.hops.length || x.km - y.km);
      return found.slice(0, MAX_PATHS);
    },
  };
};
