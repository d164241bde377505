import { formatBrl, formatMiles, formatPercent, isCash } from "../../shared/pt-br-format.js";

interface PriceBlockProps {
  /** Total with taxes, every passenger. */
  readonly total: number;
  /** Taxes and fees in the total. */
  readonly taxes: number;
  /** Points per adult (the outbound's on a round trip); negative for a cash ("pagante") fare. */
  readonly points: number;
  /** Points per adult of the return, on a round trip: shown as outbound + return. */
  readonly returnPoints?: number | undefined;
  /** Saving against the airline's own cash price, in percent. */
  readonly saving: number;
  /** The figure the saving is a percentage of, with what it includes, e.g. `R$ 545,88 na companhia, com taxas`. */
  readonly savingBase: string;
  readonly passengers: string;
  /** What the fare includes (family, baggage), which sets apart two prices of one flight. */
  readonly fare?: string | undefined;
}

/** The price of a group or offer: total, how it is paid (miles plus taxes, or cash), and the saving. */
export const PriceBlock = ({ total, taxes, points, returnPoints, saving, savingBase, passengers, fare }: PriceBlockProps) => (
  <div class="price-block">
    <strong class="price-block__total" data-testid="preco">
      {formatBrl(total)}
    </strong>
    <span class="price-block__who">total{passengers ? ` · ${passengers}` : ""}</span>
    {isCash(points) || (returnPoints !== undefined && isCash(returnPoints)) ? (
      <span class="pay pay--cash" data-pagamento="pagante">
        Tarifa pagante · em dinheiro
      </span>
    ) : (
      <span class="pay pay--miles" data-pagamento="milhas">
        {formatMiles(points, returnPoints)}/adulto + {formatBrl(taxes)} de taxas
      </span>
    )}
    {fare ? (
      <span class="price-block__fare" data-testid="tarifa">
        {fare}
      </span>
    ) : null}
    {saving >= 1 ? (
      <span class="saving">
        {formatPercent(saving)} abaixo da companhia <span class="saving__base">({savingBase})</span>
      </span>
    ) : null}
  </div>
);
