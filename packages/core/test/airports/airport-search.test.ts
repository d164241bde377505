import { describe, expect, it } from "vitest";
import { AIRPORT_NAMES_PT_BR, airports, airportsPtBr, CITY_NAMES_PT_BR, countryNamePtBr, createAirportDirectory, METRO_AREAS } from "../../src/airports/index.js";
import { AIRPORT_COUNTRIES, AIRPORT_COUNTRY_CODES } from "../../src/airports/airport-data.generated.js";

const codes = (text: string, limit?: number) => airports.search(text, limit).map((a) => a.iata);

const record = (iata: string, city: string, name: string, country = "Brazil") => ({ iata, city, name, country, latitude: 0, longitude: 0, tz: "America/Sao_Paulo" });

describe("airport autocomplete ranking", () => {
  it('puts Rio de Janeiro (GIG, SDU) first for "rio", before other cities starting with Rio', () => {
    expect(codes("rio").slice(0, 2)).toEqual(["GIG", "SDU"]);
    expect(codes("Rio").indexOf("RBR")).toBeGreaterThanOrEqual(2);
  });

  it('puts Lisbon first for "lisb", before a city with the text inside a word', () => {
    expect(codes("lisb")[0]).toBe("LIS");
  });

  it("ranks an exact IATA code first, then a city named so, then cities starting with the text", () => {
    expect(codes("bel")[0]).toBe("BEL");
    expect(codes("gru")).toEqual(["GRU"]);
    expect(codes("porto")[0]).toBe("OPO");
    expect(codes("porto alegre")[0]).toBe("POA");
    expect(codes("sao paulo").slice(0, 2).sort()).toEqual(["CGH", "GRU"]);
  });

  it("ignores accents, case and repeated spaces", () => {
    expect(codes("SÃO   PAULO")).toEqual(codes("sao paulo"));
    expect(codes("Galeão")).toContain("GIG");
  });

  it("orders the tiers: code, city, city prefix, name prefix, word in city or name, anywhere", () => {
    const directory = createAirportDirectory([
      record("AAA", "Xinside", "Some Airport"),
      record("BBB", "Other Town", "Word Xin Airport"),
      record("CCC", "Elsewhere", "Xin Name Airport"),
      record("DDD", "Xinville", "Town Airport"),
      record("EEE", "Xin", "City Airport"),
      record("XIN", "Faraway", "Code Airport"),
      record("FFF", "Somewhere", "AirportXinport"),
    ]);
    expect(directory.search("xin").map((a) => a.iata)).toEqual(["XIN", "EEE", "AAA", "DDD", "CCC", "BBB", "FFF"]);
  });

  it("keeps a city's airports together, cities with more airports first, military fields and heliports after every other", () => {
    const directory = createAirportDirectory([
      record("AB1", "Alpha Beach", "One Airport"),
      record("AL3", "Alpha", "Alpha Air Force Base"),
      record("AL2", "Alpha", "Alpha International Airport"),
      record("AP1", "Alpha Park", "Park Airport"),
      record("AP2", "Alpha Park", "Park City Airport"),
      record("AL1", "Alpha", "Alpha Downtown Airport"),
    ]);
    expect(directory.search("alp").map((a) => a.iata)).toEqual(["AL1", "AL2", "AP1", "AP2", "AB1", "AL3"]);
    expect(directory.search("alpha").map((a) => a.iata).slice(0, 2)).toEqual(["AL1", "AL2"]);
    expect(directory.search("AL3").map((a) => a.iata)[0]).toBe("AL3");
  });

  it("lists military fields and heliports after every airport a traveller flies from, unless their code is asked", () => {
    const rio = airportsPtBr.search("rio");
    expect(rio.slice(0, 2).map((a) => a.iata)).toEqual(["GIG", "SDU"]);
    expect(rio.map((a) => a.iata)).not.toContain("SNZ");
    expect(airportsPtBr.search("rio", 40).map((a) => a.iata).indexOf("SNZ")).toBeGreaterThan(8);
    expect(codes("SNZ")[0]).toBe("SNZ");
  });

  it("in pt-BR: Brazilian cities with their accents and airports named in Portuguese, found by either spelling", () => {
    const shown = (text: string) => airportsPtBr.search(text, 1).map((a) => `${a.iata} ${a.city} · ${a.name}`)[0];
    expect(shown("sao carlos")).toBe("QSC São Carlos · Aeroporto Mário Pereira Lopes–São Carlos");
    expect(shown("São Carlos")).toBe("QSC São Carlos · Aeroporto Mário Pereira Lopes–São Carlos");
    expect(shown("altamira")).toBe("ATM Altamira · Aeroporto de Altamira");
    expect(shown("corumba")).toBe("CMG Corumbá · Aeroporto Internacional de Corumbá");
    expect(shown("SNZ")).toBe("SNZ Rio de Janeiro · Base Aérea de Santa Cruz");
    expect(shown("santa cruz air force")).toBe("SNZ Rio de Janeiro · Base Aérea de Santa Cruz");
    expect(shown("blumenau")).toBe("BNU Blumenau · Aeroporto de Blumenau");
    // The service's directory keeps the data set's names.
    expect(airports.get("QSC")?.city).toBe("Sao Carlos");
    // Other countries as the data set writes them.
    expect(airportsPtBr.get("JFK")?.name).toBe(airports.get("JFK")?.name);
  });

  it("returns nothing for blank text and honours the limit", () => {
    expect(codes("   ")).toEqual([]);
    expect(codes("a", 3)).toHaveLength(3);
  });

  it("in pt-BR: cities as Brazilians write them, found by either name, ranked the same way", () => {
    const ptBr = (text: string) => airportsPtBr.search(text).map((a) => `${a.iata} ${a.city}`);
    expect(ptBr("rio").slice(0, 2)).toEqual(["GIG Rio de Janeiro", "SDU Rio de Janeiro"]);
    expect(ptBr("lisb")[0]).toBe("LIS Lisboa");
    expect(ptBr("lisboa")[0]).toBe("LIS Lisboa");
    expect(ptBr("lisbon")[0]).toBe("LIS Lisboa");
    expect(ptBr("brasilia")).toEqual(["BSB Brasília"]);
    expect(ptBr("São Paulo").slice(0, 2).sort()).toEqual(["CGH São Paulo", "GRU São Paulo"]);
    expect(airportsPtBr.get("cgb")?.city).toBe("Cuiabá");
    // The contract's directory keeps the data set's names.
    expect(airports.get("LIS")?.city).toBe("Lisbon");
  });

  it("names only cities the table has, each with its accents or exonym", () => {
    for (const [key, name] of CITY_NAMES_PT_BR) {
      const [city, country] = key.split("|");
      const found = airports.search(city!, 50).filter((a) => a.city === city && a.country === country);
      expect(found.length, key).toBeGreaterThan(0);
      for (const a of found) expect(airportsPtBr.get(a.iata)?.city, a.iata).toBe(name);
    }
  });

  it("finds a metropolitan area's airports by its city code: nyc, rio, sao, bhz, lon", () => {
    const ptBr = (text: string) => airportsPtBr.search(text).map((a) => a.iata);
    expect(ptBr("nyc").slice(0, 3)).toEqual(["JFK", "EWR", "LGA"]);
    expect(ptBr("rio").slice(0, 2)).toEqual(["GIG", "SDU"]);
    expect(ptBr("sao").slice(0, 3)).toEqual(["GRU", "CGH", "VCP"]);
    expect(ptBr("SAO").slice(0, 3)).toEqual(["GRU", "CGH", "VCP"]);
    expect(ptBr("bhz").slice(0, 2)).toEqual(["CNF", "PLU"]);
    expect(ptBr("lon").slice(0, 6)).toEqual(["LHR", "LGW", "STN", "LTN", "LCY", "SEN"]);
    expect(codes("nyc").slice(0, 3)).toEqual(["JFK", "EWR", "LGA"]);
    // After the area's airports, the cities starting with the text, as before.
    const plain = (city: string) => city.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
    expect(ptBr("sao").slice(3).map((code) => plain(airportsPtBr.get(code)!.city).slice(0, 3))).toEqual(ptBr("sao").slice(3).map(() => "sao"));
    // A city code is no airport: a search request still names an airport.
    expect(airports.get("NYC")).toBeUndefined();
  });

  it("lists each metropolitan area with airports of the table, under a code no airport has", () => {
    for (const [code, members] of METRO_AREAS) {
      expect(airports.get(code), code).toBeUndefined();
      for (const iata of members) expect(airports.get(iata), `${code}: ${iata}`).toBeDefined();
      // One city and its neighbours: every airport within 120 km of the first (Stockholm's Skavsta is 100 km out).
      const first = airports.get(members[0]!)!;
      for (const iata of members) {
        const a = airports.get(iata)!;
        expect(Math.hypot(a.latitude - first.latitude, (a.longitude - first.longitude) * Math.cos((first.latitude * Math.PI) / 180)) * 111, `${code}: ${iata}`).toBeLessThan(120);
      }
    }
  });

  it("in pt-BR: countries in Portuguese, found by either name", () => {
    expect(airportsPtBr.get("JFK")?.country).toBe("Estados Unidos");
    expect(airportsPtBr.get("GRU")?.country).toBe("Brasil");
    expect(airportsPtBr.get("LHR")?.country).toBe("Reino Unido");
    expect(airportsPtBr.get("FRA")?.country).toBe("Alemanha");
    expect(airportsPtBr.get("NRT")?.country).toBe("Japão");
    const ptBr = (text: string) => airportsPtBr.search(text, 50).map((a) => a.iata);
    expect(ptBr("alemanha")).toContain("FRA");
    expect(ptBr("germany")).toContain("FRA");
    // The contract's directory keeps the data set's names.
    expect(airports.get("JFK")?.country).toBe("United States");
  });

  it("has an ISO code for every country of the table but one dissolved, each named in Portuguese", () => {
    const withoutCode = AIRPORT_COUNTRIES.filter((_, i) => AIRPORT_COUNTRY_CODES[i] === "");
    expect(withoutCode).toEqual(["Netherlands Antilles"]);
    for (const code of AIRPORT_COUNTRY_CODES.filter((c) => c !== "")) {
      expect(code, code).toMatch(/^[A-Z]{2}$/);
      expect(countryNamePtBr(code), code).toBeDefined();
    }
    expect(countryNamePtBr("")).toBeUndefined();
    expect(countryNamePtBr("QQ")).toBeUndefined();
  });

  it("in pt-BR: the main airports of Brazil and Portugal by their own names, found by either name", () => {
    expect(airportsPtBr.get("GIG")?.name).toBe("Aeroporto Internacional do Galeão");
    expect(airportsPtBr.get("CNF")?.name).toBe("Aeroporto Internacional de Confins");
    expect(airportsPtBr.get("LIS")?.name).toBe("Aeroporto Humberto Delgado");
    const ptBr = (text: string) => airportsPtBr.search(text).map((a) => a.iata);
    expect(ptBr("santos dumont")[0]).toBe("SDU");
    expect(ptBr("confins")[0]).toBe("CNF");
    expect(ptBr(airports.get("GRU")!.name)[0]).toBe("GRU");
    for (const iata of AIRPORT_NAMES_PT_BR.keys()) expect(airports.get(iata), iata).toBeDefined();
    // The contract's directory keeps the data set's names.
    expect(airports.get("GIG")?.name).not.toBe("Aeroporto Internacional do Galeão");
  });
});
