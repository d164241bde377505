/**
 * Server-side request forgery guard of the webhooks: a webhook may only reach public addresses, unless the
 * operator allows others (`alerts.webhooks.allowPrivateAddresses`: a receiver on its own network). A host is
 * judged by every address it resolves to (private, loopback, link-local, unique-local, carrier-grade NAT,
 * multicast, reserved, IPv4 in IPv6 included), when the webhook is created and again before each delivery
 * (a name may resolve elsewhere later); the Node entry also checks the address each connection is made to.
 */
import ipaddr from "ipaddr.js";

/** Resolves a host name to its addresses (the Node entry: `dns.lookup` with `all`). */
export type AddressResolver = (hostname: string) => Promise<readonly string[]>;

/** Why a webhook's host is refused. */
export type AddressRefusal = "private" | "unresolvable";

/** Whether an address is a public unicast one (IPv4 written in IPv6 judged as the IPv4 it is). */
export const isPublicAddress = (address: string): boolean => {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === "unicast";
};

/** The host of a URL as an address or a name (`[::1]` without its brackets). */
const hostOf = (url: string): string => new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");

/**
 * Checks a webhook URL's host: undefined when it may be posted to, else why not. A literal address is judged as
 * it is; `localhost` names are loopback; other names are resolved with `resolve` when there is one (a runtime
 * without one, as Workers, whose platform refuses private addresses itself, judges literal addresses only).
 */
export const refusedAddress = async (url: string, o: { readonly allowPrivate: boolean; readonly resolve?: AddressResolver | undefined }): Promise<AddressRefusal | undefined> => {
  if (o.allowPrivate) return undefined;
  const host = hostOf(url);
  if (ipaddr.isValid(host)) return isPublicAddress(host) ? undefined : "private";
  if (host === "localhost" || host.endsWith(".localhost")) return "private";
  if (!o.resolve) return undefined;
  let addresses: readonly string[];
  try {
    addresses = await o.resolve(host);
  } catch {
    return "unresolvable";
  }
  if (addresses.length === 0) return "unresolvable";
  return addresses.every(isPublicAddress) ? undefined : "private";
};
