import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { subscribe } from "node:diagnostics_channel";
import type http from "node:http";
import { isIP } from "node:net";
import type { Env } from "@/lib/env";

/**
 * Where a request came from, for rate limits and the sessions list.
 *
 * Next.js hands route handlers a `Request` without the connection, and it
 * fills `X-Forwarded-For` from the socket only when the client sent none, so
 * that header is whatever the client says. The server therefore notes each
 * connection's address as the request arrives (installed once by
 * instrumentation.ts) and keeps it in an AsyncLocalStorage for the code that
 * handles the request. Node announces every request on the
 * "http.server.request.start" diagnostics channel, synchronously, just before
 * the server's "request" event, whoever owns the server (`next start`,
 * `next dev`, our `npm start`), so no server needs wrapping or patching. A forwarding header counts only when the operator says a
 * proxy sets it (TRUSTED_PROXY_HEADER / TRUSTED_PROXY_HOPS).
 */
type Connection = { remoteAddress: string | undefined };

// On globalThis: instrumentation and route handlers may be bundled as separate module instances.
const storeKey = Symbol.for("notes.connection-address");
type GlobalWithStore = typeof globalThis & { [storeKey]?: AsyncLocalStorage<Connection> };

function connectionStore(): AsyncLocalStorage<Connection> {
  const store = globalThis as GlobalWithStore;
  return (store[storeKey] ??= new AsyncLocalStorage<Connection>());
}

type RequestStart = { request: http.IncomingMessage };

/** Makes every HTTP server in this process record each request's socket address. Idempotent. */
export function trackConnectionAddresses(): void {
  const store = connectionStore() as AsyncLocalStorage<Connection> & { [storeKey]?: true };
  if (store[storeKey]) return;
  store[storeKey] = true;
  subscribe("http.server.request.start", (message) => {
    // The store is entered for what follows in this turn, the "request" event
    // and the handler's async work included. It stays on the connection's
    // context until its next request enters its own: the same socket, the same address.
    store.enterWith({ remoteAddress: (message as RequestStart).request.socket?.remoteAddress });
  });
}

/** The socket address of the request being handled, when the server recorded it. */
export function connectionAddress(): string | undefined {
  return connectionStore().getStore()?.remoteAddress;
}

/**
 * The client's address: from the trusted proxy's header when one is
 * configured (the entry `hops` from the right: each proxy appends the address
 * it saw, so entries further left are whatever the client sent), else the
 * connection's. Null when neither is known.
 */
export function resolveClientAddress(input: { socketAddress: string | undefined; headerValue: string | null; proxy: { hops: number } | null }): string | null {
  if (input.proxy && input.headerValue) {
    const entries = input.headerValue.split(",").map((entry) => entry.trim()).filter(Boolean);
    // Fewer entries than proxies: the leftmost was still written by a proxy we trust.
    const entry = entries[Math.max(0, entries.length - input.proxy.hops)];
    const address = entry ? normalizeAddress(entry) : null;
    if (address) return address;
  }
  return input.socketAddress ? normalizeAddress(input.socketAddress) : null;
}

/** The client address of a request under this server's settings. */
export function clientAddress(headers: Headers, env: Env): string | null {
  const proxied = Boolean(env.TRUSTED_PROXY_HEADER || env.TRUSTED_PROXY_HOPS);
  return resolveClientAddress({
    socketAddress: connectionAddress(),
    headerValue: proxied ? headers.get(env.TRUSTED_PROXY_HEADER ?? "x-forwarded-for") : null,
    proxy: proxied ? { hops: env.TRUSTED_PROXY_HOPS ?? 1 } : null,
  });
}

/** An IP address in canonical form (IPv4-mapped IPv6 as IPv4, brackets and ports dropped), or null. */
export function normalizeAddress(value: string): string | null {
  let address = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(address);
  if (mapped) address = mapped[1]!;
  const version = isIP(address);
  if (version === 4) return address;
  if (version === 6) return address.toLowerCase();
  return null;
}

/**
 * The key an address is limited under: IPv4 as is, IPv6 by its /64 (one
 * subscriber usually holds a whole /64, so single addresses are free to rotate).
 */
export function addressLimitKey(address: string | null): string {
  if (!address) return "unknown";
  if (isIP(address) !== 6) return address;
  return `${expandIpv6(address).slice(0, 4).join(":")}::/64`;
}

function expandIpv6(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill("0"), ...right].map((group) => group.padStart(4, "0"));
}
