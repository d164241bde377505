/** pt-BR formatting of the answer's numbers and times for people. */

const brl = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
const points = new Intl.NumberFormat("pt-BR");

/** `R$ 1.091,96` from a wire decimal. */
export const formatBrl = (value: number): string => brl.format(value);

/** `58.800 pts + R$ 33,56`, or `pagante` for a cash flight (negative points). */
export const formatMiles = (pontos: number, taxes: number): string =>
  pontos < 0 ? "pagante" : `${points.format(pontos)} pts + ${formatBrl(taxes)}`;

/** `20/12 10:40` from a local ISO date-time. */
export const formatLocal = (iso: string): string => `${iso.slice(8, 10)}/${iso.slice(5, 7)} ${iso.slice(11, 16)}`;

/** `2h05` from minutes. */
export const formatMinutes = (minutes: number): string => `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}`;

/** `direto`, `1 parada`, `2 paradas`. */
export const formatStops = (stops: number): string => (stops === 0 ? "direto" : stops === 1 ? "1 parada" : `${stops} paradas`);
