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

/** The pt-BR name of an airport's city, when it differs from the data set's. */
export const cityNamePtBr = (a: { readonly city: string; readonly country: string }): string | undefined => CITY_NAMES_PT_BR.get(`${a.city}|${a.country}`);
