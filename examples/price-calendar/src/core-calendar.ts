import { strict as assert } from "node:assert";
import { calendar, dayPrices, planCalendar, search, todayInSaoPaulo, type CalendarSnapshot, type SearchQuery } from "@voar/core";
import { airports } from "@voar/core/airports";
import { createSimulator } from "@voar/testing/simulator";
import { lastValueFrom, tap } from "rxjs";

/** core's calendar() over the simulator: days filling in, the day asked first; the final snapshot checked against each day's own search. */
export const coreCalendar = async (ida: string): Promise<void> => {
  const sources = createSimulator({ latencyMs: 200 }).sources;
  const asked: SearchQuery = { origin: "GRU", destination: "SSA", departureDate: ida, passengers: { adults: 2, children: 0, infants: 0 }, mode: { kind: "all-airlines" } };
  // Three days on each side of the day asked (those before today are left out), each an ordinary search.
  const plan = planCalendar(asked, 3, todayInSaoPaulo(new Date()));
  let shown = "";
  const final: CalendarSnapshot = await lastValueFrom(
    calendar(plan, (day) => search(day, sources), { airports, concurrency: 3 }).pipe(
      tap((c) => {
        // ■ done, ▫ searching, · waiting: the day asked starts first, then its neighbours outward.
        const line = c.days.map((d) => (d.state === "completed" ? "■" : d.state === "searching" ? "▫" : "·")).join("");
        if (line !== shown) console.log(`v${c.version}: ${(shown = line)}`);
      }),
    ),
  );
  for (const d of final.days) {
    const cash = d.cash ? `R$ ${(d.cash.total.amount / 100).toFixed(2)} (${d.cash.carrier.name})` : "sem tarifa em dinheiro";
    const miles = d.miles ? `${d.miles.points} milhas + R$ ${(d.miles.taxes.amount / 100).toFixed(2)} (${d.miles.programme})` : "sem milhas";
    console.log(`${d.query.departureDate}${d.asked ? " (pedido)" : ""}: ${cash}; ${miles}`);
  }
  assert.equal(final.completed, true);
  assert.equal(final.days.length, plan.days.length);
  // Each day's prices are its own search's cheapest: the same search run alone agrees.
  const day = final.days[0]!;
  const alone = await lastValueFrom(search(day.query, sources));
  assert.deepEqual(dayPrices(alone, airports), { ...(day.cash ? { cash: day.cash } : {}), ...(day.miles ? { miles: day.miles } : {}) });
  console.log(`  ✓ core: ${final.days.length} days in ${final.version} snapshots; ${day.query.departureDate} agrees with its own search`);
};
