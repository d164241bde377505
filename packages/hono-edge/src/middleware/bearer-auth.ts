import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import { bearerToken, type Authenticator } from "../auth/authenticator.js";

/** Requires `Authorization: Bearer <token>` (an API key or an issued token) and sets the principal; 401 otherwise. */
export const bearerAuth = (auth: Authenticator): MiddlewareHandler<AppEnv> => async (c, next) => {
  c.set("principal", await auth.authenticate(bearerToken(c.req.header("authorization"))));
  await next();
};
