import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import { bearerToken, type Authenticator } from "../auth/authenticator.js";
import { Unauthorized } from "../errors/service-errors.js";

/**
 * Requires an admin key, in `X-Admin-Key` or as `Authorization: Bearer <admin key>`; 401 otherwise. API keys
 * and issued tokens are not admin keys (the configuration refuses a key that is both).
 */
export const adminAuth = (auth: Authenticator): MiddlewareHandler<AppEnv> => async (c, next) => {
  const header = c.req.header("x-admin-key");
  const key = header !== undefined && header.trim() !== "" ? header.trim() : bearerToken(c.req.header("authorization"));
  if (!(await auth.isAdmin(key))) throw new Unauthorized("unknown");
  await next();
};
