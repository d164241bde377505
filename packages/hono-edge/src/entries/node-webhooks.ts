/**
 * The webhooks' network on Node: host names resolved with `dns.lookup`, and each delivery posted with
 * `node:http`/`node:https` through a lookup that refuses a non-public address at the moment of connecting (so a
 * name that resolved to a public address when checked and to a private one a moment later is refused too),
 * unless the operator allows private addresses. No redirect is followed.
 */
import { lookup } from "node:dns";
import { lookup as lookupAll } from "node:dns/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isPublicAddress, type AddressResolver } from "../alerts/webhook-address.js";
import type { WebhookPost } from "../alerts/webhook-deliverer.js";

/** Every address a host name resolves to. */
export const nodeResolver: AddressResolver = async (hostname) => (await lookupAll(hostname, { all: true })).map((a) => a.address);

/** A lookup that keeps only public addresses (all of them when `allowPrivate`). */
const guardedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) =>
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const kept = allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (kept.length === 0) return callback(Object.assign(new Error(`webhook host ${hostname} has no public address`), { code: "EADDRNOTPUBLIC" }), "", 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof kept) => void)(null, kept);
      callback(null, kept[0]!.address, kept[0]!.family);
    });

/** Posts deliveries over Node's HTTP clients, checking the address of every connection. */
export const nodeWebhookPost = (allowPrivate: boolean): WebhookPost => {
  const lookupGuarded = guardedLookup(allowPrivate);
  return (url, init) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const request = target.protocol === "https:" ? httpsRequest : httpRequest;
      const req = request(target, { method: "POST", headers: { ...init.headers, "content-length": String(Buffer.byteLength(init.body)) }, lookup: lookupGuarded, signal: init.signal }, (res) => {
        res.resume(); // the receiver's body is not read
        resolve({ status: res.statusCode ?? 0 });
      });
      req.on("error", reject);
      req.end(init.body);
    });
};
