import type { Context } from "hono";

/**
 * Writes headers onto a request's answer once it exists (in a middleware, after `next()`). Not `c.header`:
 * once the answer exists, each `c.header` makes Hono copy the answer into a new one, its body through a Web
 * stream, which costs a cached poll about half its speed on Node. An answer whose headers cannot change (one
 * from `fetch`: a Durable Object's, through the Worker's front) is copied once first.
 */
export const writeAnswerHeaders = (c: Context, write: (headers: Headers) => void): void => {
  try {
    write(c.res.headers);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    c.res = new Response(c.res.body, c.res);
    write(c.res.headers);
  }
};
