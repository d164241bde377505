/**
 * City names as Brazilians write them, for the cities of the airport table that the data set (OpenFlights,
 * in English and without accents) spells otherwise. A small curated list, not a translation table: no
 * maintained npm package carries pt-BR names of airport cities (CLDR's pt exemplar cities cover time zones,
 * and OpenFlights files Brazilian airports under a few zones, so they give São Paulo and Belém but not
 * Brasília or Cuiabá).
 *
 * Sources: Brazilian municipalities as IBGE names them (the official list of municipalities, Instituto
 * Brasileiro de Geografia e Estatística); Lisboa as Portugal's INE names the municipality; other cities by
 * their pt-BR exonyms in CLDR (Unicode Common Locale Data Repository, `pt` exemplar cities).
 */

/** pt-BR name by `city|country` of the data set. */
export const CITY_NAMES_PT_BR: ReadonlyMap<string, string> = new Map([
  // Brazil (IBGE)
  ["Sao Paulo|Brazil", "São Paulo"],
  ["Brasilia|Brazil", "Brasília"],
  ["Florianopolis|Brazil", "Florianópolis"],
  ["Goiania|Brazil", "Goiânia"],
  ["Vitoria|Brazil", "Vitória"],
  ["Sao Luis|Brazil", "São Luís"],
  ["Joao Pessoa|Brazil", "João Pessoa"],
  ["Cuiaba|Brazil", "Cuiabá"],
  ["Maceio|Brazil", "Maceió"],
  ["Belem|Brazil", "Belém"],
  ["Macapa|Brazil", "Macapá"],
  ["Ilheus|Brazil", "Ilhéus"],
  ["Foz Do Iguacu|Brazil", "Foz do Iguaçu"],
  ["Uberlandia|Brazil", "Uberlândia"],
  ["Maringa|Brazil", "Maringá"],
  ["Maraba|Brazil", "Marabá"],
  ["Santarem|Brazil", "Santarém"],
  ["Chapeco|Brazil", "Chapecó"],
  ["Criciuma|Brazil", "Criciúma"],
  ["Aracatuba|Brazil", "Araçatuba"],
  ["Ribeirao Preto|Brazil", "Ribeirão Preto"],
  ["Sao Jose Do Rio Preto|Brazil", "São José do Rio Preto"],
  ["Sao Jose Dos Campos|Brazil", "São José dos Campos"],
  ["Parnaiba|Brazil", "Parnaíba"],
  ["Rondonopolis|Brazil", "Rondonópolis"],
  ["Araguaina|Brazil", "Araguaína"],
  ["Rio De Janeiro|Brazil", "Rio de Janeiro"],
  ["Caxias Do Sul|Brazil", "Caxias do Sul"],
  ["Juazeiro Do Norte|Brazil", "Juazeiro do Norte"],
  // Portugal (INE)
  ["Lisbon|Portugal", "Lisboa"],
  // Other cities (CLDR pt exemplar cities)
  ["New York|United States", "Nova York"],
  ["London|United Kingdom", "Londres"],
  ["Madrid|Spain", "Madri"],
  ["Rome|Italy", "Roma"],
  ["Montevideo|Uruguay", "Montevidéu"],
  ["Asuncion|Paraguay", "Assunção"],
  ["Bogota|Colombia", "Bogotá"],
  ["Mexico City|Mexico", "Cidade do México"],
  ["Zurich|Switzerland", "Zurique"],
  ["Amsterdam|Netherlands", "Amsterdã"],
]);

/** Countries whose airports the data set names in Portuguese, accents included, where their cities have none. */
const NAMED_IN_PORTUGUESE = new Set(["Brazil", "Portugal"]);

/** A letter without its accent, lower case: `ã` and `Ã` as `a`. */
const plainLetter = (c: string): string => c.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
const isLetter = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/**
 * The city as the airport's own name writes it, when the name holds it whole: the data set spells Brazilian cities
 * without accents ("Sao Carlos", "Barra Do Garcas", "BLUMENAU") but their airports' names with them ("Mário
 * Pereira Lopes–São Carlos Airport", "Barra do Garças Airport", "Blumenau Airport").
 */
export const cityFromAirportName = (a: { readonly city: string; readonly name: string }): string | undefined => {
  const chars = [...a.name];
  const plain = chars.map(plainLetter);
  const target = [...a.city].map(plainLetter).join("");
  if (target === "") return undefined;
  for (let i = 0; i < chars.length; i++) {
    if (isLetter(chars[i - 1])) continue;
    let j = i;
    let matched = "";
    while (j < chars.length && matched.length < target.length) matched += plain[j++];
    if (matched === target && !isLetter(chars[j])) return chars.slice(i, j).join("");
  }
  return undefined;
};

/**
 * The pt-BR name of an airport's city, when it differs from the data set's: the curated list's, or, in Brazil and
 * Portugal, as the airport's name writes it ({@link cityFromAirportName}).
 */
export const cityNamePtBr = (a: { readonly city: string; readonly country: string; readonly name?: string }): string | undefined => {
  const curated = CITY_NAMES_PT_BR.get(`${a.city}|${a.country}`);
  if (curated !== undefined || a.name === undefined || !NAMED_IN_PORTUGUESE.has(a.country)) return curated;
  const named = cityFromAirportName({ city: a.city, name: a.name });
  return named !== undefined && named !== a.city ? named : undefined;
};

const KINDS: Readonly<Record<string, string>> = { "": "Aeroporto", International: "Aeroporto Internacional", Regional: "Aeroporto Regional", State: "Aeroporto Estadual" };
const plain = (text: string): string => [...text].map(plainLetter).join("");

/**
 * An airport of Brazil or Portugal named in Portuguese where the data set names it in English: "Altamira Airport" as
 * "Aeroporto de Altamira" (the place is its city), "Piloto Osvaldo Marques Dias Airport" as "Aeroporto Piloto
 * Osvaldo Marques Dias", "Corumbá International Airport" as "Aeroporto Internacional de Corumbá", "Santa Cruz Air
 * Force Base" as "Base Aérea de Santa Cruz". `city` is the city as the directory writes it.
 */
export const airportNameInPortuguese = (a: { readonly name: string; readonly city: string; readonly country: string }, city: string): string | undefined => {
  if (!NAMED_IN_PORTUGUESE.has(a.country)) return undefined;
  const base = /^(.+?)\s+Air Force Base$/.exec(a.name.trim());
  if (base) return `Base Aérea de ${base[1]}`;
  const m = /^(.+?)\s+(?:(International|Regional|State)\s+)?Airport$/.exec(a.name.trim());
  if (!m) return undefined;
  const [, place = "", kind = ""] = m;
  if (/^(Aeroporto|Base Aérea|Aeródromo)\b/.test(place)) return place;
  const noun = KINDS[kind]!;
  return plain(place) === plain(city) || plain(place) === plain(a.city) ? `${noun} de ${city}` : `${noun} ${place}`;
};
