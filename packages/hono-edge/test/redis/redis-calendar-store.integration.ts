import { calendarStoreContract } from "../contract/calendar-store-contract.js";
import { redisHarness } from "./support/redis-harness.js";

// The same contract as the in-memory store's calendars, on a real Redis.
calendarStoreContract("redis", redisHarness);
