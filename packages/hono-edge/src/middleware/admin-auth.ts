import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app/app-env.js";
import { bearerToken, type Authenticator } from "../auth/authenticator.js";
import { Unauthorized } from "../errors/service-errors.js";

/**
 * Requires an admin key, in `X-Admin-Key` or as `Authorization: Bearer <admin key>`; 401 otherwise. API keys
 * and issued tokens are not admin keys (the configuration refuses a key that is both). The key's name (never
 * the key) is left for the handlers as `admin`, for the audit log.
 */
export const adminAuth = (auth: Authenticator): MiddlewareHandler<AppEnv> => async (c, next) => {
  const header = c.req.header("x-admin-key");
  const key = header !== undefined && header.trim() !== "" ? header.trim() : bearerToken(c.req.header("authorization"));
  const name = await auth.adminName(key);
  if (name === undefined) throw new Unauthorized("unknown");
  c.set("admin", name);
  await next();
};
