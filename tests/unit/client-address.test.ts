import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { addressLimitKey, clientAddress, connectionAddress, normalizeAddress, resolveClientAddress, trackConnectionAddresses } from "@/lib/auth/client-address";
import { parseEnv } from "@/lib/env";

describe("resolveClientAddress", () => {
  const socketAddress = "::ffff:203.0.113.9";

  it("without a trusted proxy: the connection's address; forwarding headers mean nothing", () => {
    expect(resolveClientAddress({ socketAddress, headerValue: "198.51.100.1", proxy: null })).toBe("203.0.113.9");
  });

  it.each([
    // One proxy appends the address it saw: the rightmost entry is the client, anything left of it is the client's own claim.
    ["spoofed, 198.51.100.7", 1, "198.51.100.7"],
    ["198.51.100.7", 1, "198.51.100.7"],
    // Two proxies (a CDN, then a load balancer): the second entry from the right.
    ["spoofed, 198.51.100.7, 192.0.2.10", 2, "198.51.100.7"],
    // Fewer entries than proxies: the leftmost, still written by a trusted proxy.
    ["198.51.100.7", 3, "198.51.100.7"],
    ["[2001:db8::1]:443", 1, "2001:db8::1"],
  ])("behind trusted proxies: %s with %i hop(s) → %s", (headerValue, hops, expected) => {
    expect(resolveClientAddress({ socketAddress, headerValue, proxy: { hops } })).toBe(expected);
  });

  it("falls back to the connection when the proxy's header is missing or not an address", () => {
    expect(resolveClientAddress({ socketAddress, headerValue: null, proxy: { hops: 1 } })).toBe("203.0.113.9");
    expect(resolveClientAddress({ socketAddress, headerValue: "not-an-ip", proxy: { hops: 1 } })).toBe("203.0.113.9");
    expect(resolveClientAddress({ socketAddress: undefined, headerValue: null, proxy: null })).toBeNull();
  });
});

describe("addresses", () => {
  it("normalizes", () => {
    expect(normalizeAddress("::FFFF:127.0.0.1")).toBe("127.0.0.1");
    expect(normalizeAddress("10.1.2.3:5555")).toBe("10.1.2.3");
    expect(normalizeAddress("2001:DB8::1")).toBe("2001:db8::1");
    expect(normalizeAddress("evil.example")).toBeNull();
  });

  it("limits IPv6 by its /64, IPv4 by address", () => {
    expect(addressLimitKey("2001:db8:1:2:aaaa::1")).toBe(addressLimitKey("2001:db8:1:2:bbbb::2"));
    expect(addressLimitKey("2001:db8:1:2::1")).not.toBe(addressLimitKey("2001:db8:1:3::1"));
    expect(addressLimitKey("198.51.100.7")).toBe("198.51.100.7");
    expect(addressLimitKey(null)).toBe("unknown");
  });
});

describe("trackConnectionAddresses", () => {
  it("gives request handlers the socket's address, whatever X-Forwarded-For says", async () => {
    trackConnectionAddresses();
    trackConnectionAddresses(); // twice changes nothing
    const seen: (string | null | undefined)[] = [];
    const server = http.createServer(async (req, res) => {
      // Later in the request's async work (after a turn of the event loop), as a route handler would be.
      await new Promise((resolve) => setImmediate(resolve));
      const headers = new Headers(req.headers as Record<string, string>);
      seen.push(connectionAddress(), clientAddress(headers, parseEnv({})), clientAddress(headers, parseEnv({ TRUSTED_PROXY_HOPS: "1" })));
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await fetch(`http://127.0.0.1:${port}/`, { headers: { "x-forwarded-for": "198.51.100.7" } });
      expect(seen).toEqual(["127.0.0.1", "127.0.0.1", "198.51.100.7"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("keeps the addresses of requests in flight at once apart", async () => {
    trackConnectionAddresses();
    // Every handler waits until all requests have arrived, so their async work interleaves.
    const clients = ["127.0.0.2", "127.0.0.3", "127.0.0.4"];
    let arrived = 0;
    let allArrived!: () => void;
    const together = new Promise<void>((resolve) => (allArrived = resolve));
    const server = http.createServer(async (_req, res) => {
      if (++arrived === clients.length) allArrived();
      await together;
      res.end(connectionAddress());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const ask = (localAddress: string) =>
        new Promise<string>((resolve, reject) => {
          const req = http.get({ host: "127.0.0.1", port, localAddress, agent: false }, (res) => {
            let body = "";
            res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk)).on("end", () => resolve(body));
          });
          req.on("error", reject);
        });
      expect(await Promise.all(clients.map(ask))).toEqual(clients);
      expect(connectionAddress()).toBeUndefined();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
