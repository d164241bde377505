import type { ModeBOffer } from "@voar/core";
import { formatBrl, formatPercent } from "../../shared/pt-br-format.js";
import { comparisonRows } from "../search/comparison-rows.js";

/** Every OTA's price for one flight, cabin by cabin, with how much more each costs than the cheapest of its cabin. */
export const ComparisonTable = ({ offer }: { readonly offer: ModeBOffer }) => {
  const rows = comparisonRows(offer);
  return (
    <div class="table-scroll">
      <table class="comparison" data-testid="comparacao">
        <caption class="sr-only">Ofertas das agências para o voo {offer.FlightCode}</caption>
        <thead>
          <tr>
            <th scope="col">Agência</th>
            <th scope="col" class="num">
              Preço total
            </th>
            <th scope="col" class="num">
              Diferença
            </th>
            <th scope="col">Cabine</th>
            <th scope="col">Opção de reserva</th>
            <th scope="col">
              <span class="sr-only">Link</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.site}|${r.opcao}|${r.valor}|${r.cabine}`} class={r.best ? "is-best" : r.cabinCheapest ? "is-other-cabin" : undefined} data-cabine={r.cabine}>
              <th scope="row">
                {r.nome}
                <span class="comparison__site">{r.site}</span>
              </th>
              <td class="num" data-label="Preço total">
                {formatBrl(r.valor)}
              </td>
              <td class="num" data-label="Diferença" data-testid="diferenca">
                {r.best ? (
                  <span class="tag tag--best">mais barata</span>
                ) : r.cabinCheapest ? (
                  <span class="tag">mais barata em {r.cabine}</span>
                ) : (
                  `+${formatBrl(r.difference)} (+${formatPercent((r.difference / (r.valor - r.difference)) * 100)})`
                )}
              </td>
              <td data-label="Cabine">{r.cabine}</td>
              <td data-label="Opção">{r.opcao}</td>
              <td class="comparison__link">
                <a href={r.url} target="_blank" rel="noopener noreferrer">
                  Ver no site<span class="sr-only"> {r.nome}</span>
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};
