import { clientCalendar } from "./client-calendar.js";
import { coreCalendar } from "./core-calendar.js";

// Thirty days from now, in São Paulo's calendar as the service counts it (the date of a UTC instant is close enough here).
const ida = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
await coreCalendar(ida);
await clientCalendar(ida);
