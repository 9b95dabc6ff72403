import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withFileLock } from "@/lib/files/lock-file";
import { addPartnerKey, listPartnerKeys } from "@/identity/partners";
import { IdentityStore } from "@/identity/store";
import { addUserKey, listUsers } from "@/identity/users";
import { VERIFY_ERRORS } from "@/lib/identity/contract";
import { mintToken, postVerify, readAllFiles, runCleanups, runIdentityCli, startSeededService, startTestService, tempDir } from "./helpers";

afterEach(runCleanups);

const mode = async (file: string) => (await fs.stat(file)).mode & 0o777;

describe("data dir", () => {
  it("keeps only hashes: no raw key or token appears in any file", async () => {
    const { service, user, partner } = await startSeededService();
    const second = await addUserKey(service.store, { email: "bob@example.com" });
    const tokens = [await mintToken(service.url, user.apiKey), await mintToken(service.url, second.apiKey)];
    const content = await readAllFiles(service.dataDir);
    expect(content).toContain(user.email);
    for (const secret of [user.apiKey, second.apiKey, partner.partnerKey, ...tokens, ...tokens.map((token) => token.split(".")[2]!)]) {
      expect(content).not.toContain(secret);
      // Not even the random part without its prefix.
      expect(content).not.toContain(secret.slice(4));
    }
  });

  it("is private: dir 0700, state and server secret 0600", async () => {
    const { service } = await startSeededService();
    expect(await mode(service.dataDir)).toBe(0o700);
    expect(await mode(path.join(service.dataDir, "state.json"))).toBe(0o600);
    expect(await mode(path.join(service.dataDir, "server-secret"))).toBe(0o600);
    const secret = (await fs.readFile(path.join(service.dataDir, "server-secret"), "utf8")).trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it("survives a restart: same secret, keys and still-valid tokens", async () => {
    const { service, user, partner } = await startSeededService();
    const token = await mintToken(service.url, user.apiKey);
    const secretBefore = await fs.readFile(path.join(service.dataDir, "server-secret"), "utf8");
    await service.close();
    const restarted = await startTestService({ dataDir: service.dataDir });
    expect(await fs.readFile(path.join(service.dataDir, "server-secret"), "utf8")).toBe(secretBefore);
    const call = { authorization: `Bearer ${partner.partnerKey}`, body: JSON.stringify({ sessionToken: token }) };
    expect(await postVerify(restarted.url, call)).toEqual({ status: 200, body: { email: user.email } });
    expect(await postVerify(restarted.url, { ...call, body: JSON.stringify({ sessionToken: await mintToken(restarted.url, user.apiKey) }) })).toEqual({
      status: 200,
      body: { email: user.email },
    });
  });

  it("refuses to start over an unreadable state file, without quoting it", async () => {
    const dataDir = await tempDir();
    await fs.writeFile(path.join(dataDir, "state.json"), '{"secret-looking": "idk_abc"');
    await expect(startTestService({ dataDir })).rejects.toThrow(/is not valid JSON$/);
  });
});

describe("concurrent writes", () => {
  it("loses no in-process adds across store instances", async () => {
    const dataDir = await tempDir();
    const [a, b] = await Promise.all([IdentityStore.open(dataDir), IdentityStore.open(dataDir)]);
    const emails = Array.from({ length: 20 }, (_, i) => `user${i}@example.com`);
    await Promise.all([
      ...emails.map((email, i) => addUserKey(i % 2 ? a : b, { email })),
      ...emails.map((email, i) => addPartnerKey(i % 2 ? b : a, { email })),
      // Same email from both instances: one user, two keys.
      addUserKey(a, { email: "shared@example.com" }),
      addUserKey(b, { email: "shared@example.com" }),
    ]);
    const users = await listUsers(await IdentityStore.open(dataDir));
    expect(users.map((user) => user.email).sort()).toEqual([...emails, "shared@example.com"].sort());
    expect(users.find((user) => user.email === "shared@example.com")!.keys).toHaveLength(2);
    expect((await listPartnerKeys(a)).map((key) => key.email).sort()).toEqual([...emails].sort());
  });

  it("loses no adds from concurrent CLI processes, and every printed key works", async () => {
    const service = await startTestService();
    const env = { IDENTITY_DATA_DIR: service.dataDir };
    const runs = await Promise.all([
      ...[0, 1, 2, 3].map((i) => runIdentityCli(["user", "add", `cli${i}@example.com`], env)),
      ...[0, 1, 2, 3].map((i) => runIdentityCli(["partner", "add", `partner${i}@example.com`], env)),
    ]);
    for (const result of runs) expect(result.code, result.stderr).toBe(0);
    const users = await listUsers(service.store);
    expect(users.map((user) => user.email).sort()).toEqual([0, 1, 2, 3].map((i) => `cli${i}@example.com`));
    expect((await listPartnerKeys(service.store)).map((key) => key.email).sort()).toEqual([0, 1, 2, 3].map((i) => `partner${i}@example.com`));
    const [userRuns, partnerRuns] = [runs.slice(0, 4), runs.slice(4)];
    for (const [i, userRun] of userRuns.entries()) {
      const token = await mintToken(service.url, userRun.stdout.trim());
      const result = await postVerify(service.url, {
        authorization: `Bearer ${partnerRuns[i]!.stdout.trim()}`,
        body: JSON.stringify({ sessionToken: token }),
      });
      expect(result).toEqual({ status: 200, body: { email: `cli${i}@example.com` } });
    }
    // No lock or temporary file is left behind.
    expect((await fs.readdir(service.dataDir)).sort()).toEqual(["server-secret", "state.json"]);
  });

  it("a change made by the CLI is seen by the running server on the next request", async () => {
    const { service, user, partner } = await startSeededService();
    const token = await mintToken(service.url, user.apiKey);
    const revoked = await runIdentityCli(["partner", "revoke", partner.partnerKey], { IDENTITY_DATA_DIR: service.dataDir });
    expect(revoked.code).toBe(0);
    const result = await postVerify(service.url, { authorization: `Bearer ${partner.partnerKey}`, body: JSON.stringify({ sessionToken: token }) });
    expect(result).toEqual({ status: 403, body: { error: VERIFY_ERRORS.revokedPartnerKey } });
  });
});

describe("lock file", () => {
  it("breaks a lock left by a dead process", async () => {
    const dataDir = await tempDir();
    const store = await IdentityStore.open(dataDir);
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid!;
    await fs.writeFile(store.lockPath, JSON.stringify({ pid: dead, nonce: "abandoned" }));
    // A lock that was not broken would hold this write until the store's lock timeout, and fail it.
    await addUserKey(store, { email: "after-crash@example.com" });
    expect((await listUsers(store)).map((user) => user.email)).toEqual(["after-crash@example.com"]);
  });

  it("waits for a live holder and gives up at the timeout", async () => {
    const dir = await tempDir();
    const lockPath = path.join(dir, "test.lock");
    let release!: () => void;
    let taken!: () => void;
    const lockTaken = new Promise<void>((resolve) => (taken = resolve));
    const held = withFileLock(lockPath, () => {
      taken();
      return new Promise<void>((resolve) => (release = resolve));
    });
    await lockTaken;
    await expect(withFileLock(lockPath, async () => "never", { timeoutMs: 200 })).rejects.toThrow(/Timed out waiting for lock/);
    const waiter = withFileLock(lockPath, async () => "got it", { timeoutMs: 5000 });
    release();
    await held;
    await expect(waiter).resolves.toBe("got it");
    await expect(fs.access(lockPath)).rejects.toThrow();
  });
});
