import { describe, expect, it } from "vitest";
import { connectionsPerAddress } from "../src/config/edge-schema.js";
import { defineConfig, loadConfig } from "../src/config/load-config.js";
import { connectionGroup } from "../src/entries/connection-cap.js";

const http = (over: Record<string, unknown>) => defineConfig({ apiKeys: [{ name: "acme", key: "a-valid-api-key-0123456789" }], http: over }).http;

describe("the address a connection counts under", () => {
  it("an IPv4 address as is, also written as IPv6; an IPv6 address by its /64", () => {
    expect(connectionGroup("203.0.113.7")).toBe("203.0.113.7");
    expect(connectionGroup("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(connectionGroup("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(connectionGroup("2001:DB8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(connectionGroup("2001:0db8:0001:0002:0:0:0:ffff")).toBe("2001:db8:1:2::/64");
    expect(connectionGroup("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(connectionGroup("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(connectionGroup("::1")).toBe("0:0:0:0::/64");
  });
});

describe("the cap per address in force", () => {
  it("a quarter of maxConnections by default, the setting when given, never above maxConnections, and none of its own behind a trusted proxy", () => {
    expect(connectionsPerAddress(http({}))).toBe(256);
    expect(connectionsPerAddress(http({ maxConnections: 10_000 }))).toBe(2_500);
    expect(connectionsPerAddress(http({ maxConnections: 2 }))).toBe(1);
    expect(connectionsPerAddress(http({ maxConnectionsPerAddress: 16 }))).toBe(16);
    expect(connectionsPerAddress(http({ maxConnections: 50, maxConnectionsPerAddress: 100 }))).toBe(50);
    expect(connectionsPerAddress(http({ trustedProxyHeader: "x-forwarded-for" }))).toBe(1_024);
    expect(connectionsPerAddress(http({ trustedProxyHeader: "x-forwarded-for", maxConnectionsPerAddress: 512 }))).toBe(512);
  });

  it("is read from VOAR_MAX_CONNECTIONS_PER_ADDRESS", () => {
    const result = loadConfig({ env: { VOAR_API_KEYS: "acme:a-valid-api-key-0123456789", VOAR_MAX_CONNECTIONS_PER_ADDRESS: "32" } });
    expect(result.ok && result.config.http.maxConnectionsPerAddress).toBe(32);
  });
});
