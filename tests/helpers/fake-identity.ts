import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small stand-in for the identity service's verify endpoint on loopback, for
 * tests of the notes app. It follows the verify contract's status and error
 * texts; tests mint tokens for emails and can make the service misbehave.
 */
export type FakeIdentity = {
  url: string;
  partnerKey: string;
  /** A fresh valid token for this email. */
  tokenFor(email: string): string;
  /** Number of verify calls received so far. */
  readonly calls: number;
  /** The next `count` verify calls answer with this status and error instead. */
  failNext(status: number, error: string, count?: number): void;
  revokePartnerKey(): void;
  close(): Promise<void>;
};

export async function startFakeIdentity(): Promise<FakeIdentity> {
  const partnerKey = `pk_test_${randomUUID()}`;
  const tokens = new Map<string, string>();
  let revoked = false;
  let calls = 0;
  const failures: { status: number; error: string }[] = [];

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/api/verify") return send(res, 404, { error: "Not found" });
      calls += 1;
      const failure = failures.shift();
      if (failure) return send(res, failure.status, { error: failure.error });
      const auth = req.headers.authorization ?? "";
      if (!auth.startsWith("Bearer ")) return send(res, 401, { error: "Missing or invalid partner key" });
      const key = auth.slice("Bearer ".length);
      if (!key) return send(res, 401, { error: "Missing partner key" });
      if (key !== partnerKey) return send(res, 401, { error: "Invalid partner key" });
      if (revoked) return send(res, 403, { error: "Partner key has been revoked" });
      let body: { sessionToken?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return send(res, 400, { error: "Invalid JSON body" });
      }
      if (typeof body?.sessionToken !== "string") return send(res, 400, { error: "Missing or invalid sessionToken" });
      const email = tokens.get(body.sessionToken);
      if (!email) return send(res, 401, { error: "Invalid or expired session token" });
      send(res, 200, { email });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    partnerKey,
    tokenFor(email) {
      const token = `st_${randomUUID()}`;
      tokens.set(token, email);
      return token;
    },
    get calls() {
      return calls;
    },
    failNext(status, error, count = 1) {
      for (let i = 0; i < count; i += 1) failures.push({ status, error });
    },
    revokePartnerKey() {
      revoked = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
