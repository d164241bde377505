/**
 * One instance of the service as its own process, for the test that kills it: serves on 127.0.0.1 (a free
 * port, printed as a `listening` JSON line) over the Redis store. Run with `node --import tsx`.
 * Environment: REDIS_URL, VOAR_TEST_PREFIX, VOAR_INSTANCE_ID.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { redisInstance } from "./instance-setup.js";

const env = process.env;
const { app } = redisInstance({ redis: env["REDIS_URL"]!, prefix: env["VOAR_TEST_PREFIX"]!, instanceId: env["VOAR_INSTANCE_ID"]! });
serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => console.log(JSON.stringify({ level: "info", msg: "listening", port: info.port })));
