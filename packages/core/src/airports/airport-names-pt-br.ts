/**
 * Airport names as Brazilians know them, for the main airports of Brazil and Portugal, where the data set
 * (OpenFlights, in English) writes them otherwise ("Guarulhos - Governador Andre Franco Montoro International
 * Airport" is "Aeroporto Internacional de Guarulhos"). A small curated list: Brazilian airports by the names
 * ANAC and their operators publish, shortened as travellers say them; Portuguese airports as ANA names them.
 */

/** pt-BR name by IATA code. */
export const AIRPORT_NAMES_PT_BR: ReadonlyMap<string, string> = new Map([
  ["GRU", "Aeroporto Internacional de Guarulhos"],
  ["CGH", "Aeroporto de Congonhas"],
  ["VCP", "Aeroporto Internacional de Viracopos"],
  ["GIG", "Aeroporto Internacional do Galeão"],
  ["SDU", "Aeroporto Santos Dumont"],
  ["CNF", "Aeroporto Internacional de Confins"],
  ["PLU", "Aeroporto da Pampulha"],
  ["BSB", "Aeroporto Internacional de Brasília"],
  ["SSA", "Aeroporto Internacional de Salvador"],
  ["REC", "Aeroporto Internacional do Recife/Guararapes"],
  ["FOR", "Aeroporto Internacional de Fortaleza"],
  ["POA", "Aeroporto Internacional Salgado Filho"],
  ["CWB", "Aeroporto Internacional Afonso Pena"],
  ["FLN", "Aeroporto Internacional Hercílio Luz"],
  ["MAO", "Aeroporto Internacional Eduardo Gomes"],
  ["BEL", "Aeroporto Internacional de Belém"],
  ["VIX", "Aeroporto de Vitória"],
  ["GYN", "Aeroporto de Goiânia"],
  ["CGB", "Aeroporto Internacional Marechal Rondon"],
  ["MCZ", "Aeroporto Internacional Zumbi dos Palmares"],
  ["IGU", "Aeroporto Internacional de Foz do Iguaçu"],
  ["SLZ", "Aeroporto Internacional Marechal Cunha Machado"],
  ["JPA", "Aeroporto Internacional Presidente Castro Pinto"],
  ["AJU", "Aeroporto de Aracaju"],
  ["THE", "Aeroporto de Teresina"],
  ["CGR", "Aeroporto Internacional de Campo Grande"],
  ["NVT", "Aeroporto de Navegantes"],
  ["LIS", "Aeroporto Humberto Delgado"],
  ["OPO", "Aeroporto Francisco Sá Carneiro"],
]);
