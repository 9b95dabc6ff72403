import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { PortInUseError, startIdentityServer } from "@/identity/server";
import { IdentityStore } from "@/identity/store";
import { listUsers } from "@/identity/users";
import { childEnv, mintToken, onCleanup, postVerify, ROOT, run, runCleanups, runIdentityCli, startTestService, tempDir } from "@/tests/identity/helpers";

afterEach(runCleanups);

const USER_KEY = /^idk_[A-Za-z0-9_-]{43}\n$/;
const PARTNER_KEY = /^ptk_[A-Za-z0-9_-]{43}\n$/;

async function cliEnv() {
  return { IDENTITY_DATA_DIR: await tempDir() };
}

describe("identity CLI: users", () => {
  it("user add prints only the new key on stdout; a second add gives the same user a new key", async () => {
    const env = await cliEnv();
    const first = await runIdentityCli(["user", "add", "alice@example.com"], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(USER_KEY);
    expect(first.stderr).toMatch(/^Created user alice@example.com \(key id key_\S+\)\n$/);
    const second = await runIdentityCli(["user", "add", "Alice@Example.com"], env);
    expect(second.stdout).toMatch(USER_KEY);
    expect(second.stdout).not.toBe(first.stdout);
    expect(second.stderr).toMatch(/^New API key for alice@example.com/);
    const users = await listUsers(await IdentityStore.open(env.IDENTITY_DATA_DIR));
    expect(users).toHaveLength(1);
    expect(users[0]!.keys).toHaveLength(2);
  });

  it("user list shows users and key ids, never keys", async () => {
    const env = await cliEnv();
    const key = (await runIdentityCli(["user", "add", "alice@example.com"], env)).stdout.trim();
    const table = await runIdentityCli(["user", "list"], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^EMAIL\s+USER ID\s+KEY ID\s+KEY STATE\nalice@example.com\s+usr_\S+\s+key_\S+\s+active\n$/);
    const json = await runIdentityCli(["user", "list", "--json"], env);
    expect(JSON.parse(json.stdout)).toEqual([
      { id: expect.any(String), email: "alice@example.com", createdAt: expect.any(String), keys: [{ id: expect.any(String), createdAt: expect.any(String), revokedAt: null }] },
    ]);
    for (const output of [table.stdout, json.stdout]) {
      expect(output).not.toContain(key);
      expect(output).not.toMatch(/[0-9a-f]{64}/); // nor hashes
    }
  });

  it("user revoke-key takes the key or its id; unknown keys fail with exit 1", async () => {
    const env = await cliEnv();
    const key = (await runIdentityCli(["user", "add", "alice@example.com"], env)).stdout.trim();
    const revoked = await runIdentityCli(["user", "revoke-key", key], env);
    expect(revoked).toMatchObject({ code: 0, stdout: "" });
    expect(revoked.stderr).toMatch(/^Revoked: API key key_\S+ of alice@example.com\n$/);
    const keyId = JSON.parse((await runIdentityCli(["user", "list", "--json"], env)).stdout)[0].keys[0].id;
    expect((await runIdentityCli(["user", "revoke-key", keyId], env)).stderr).toMatch(/^Already revoked/);
    expect(await runIdentityCli(["user", "revoke-key", "idk_nope"], env)).toMatchObject({ code: 1, stdout: "", stderr: "identity: No such API key\n" });
  });

  it("user remove deletes the user; removing an unknown user fails with exit 1", async () => {
    const env = await cliEnv();
    await runIdentityCli(["user", "add", "alice@example.com"], env);
    expect(await runIdentityCli(["user", "remove", "alice@example.com"], env)).toMatchObject({ code: 0, stdout: "" });
    expect(JSON.parse((await runIdentityCli(["user", "list", "--json"], env)).stdout)).toEqual([]);
    expect(await runIdentityCli(["user", "remove", "alice@example.com"], env)).toMatchObject({
      code: 1,
      stderr: "identity: No user with email alice@example.com\n",
    });
  });

  it("rejects an invalid email with exit 1 and usage mistakes with exit 2", async () => {
    const env = await cliEnv();
    expect(await runIdentityCli(["user", "add", "not-an-email"], env)).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "identity: Not a valid email address: not-an-email\n",
    });
    for (const args of [["user", "add"], ["user", "frobnicate"], ["bogus"], ["user", "list", "--nope"]]) {
      const result = await runIdentityCli(args, env);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/Run with --help for usage\.\n$/);
    }
    expect((await runIdentityCli([], env)).code).toBe(2);
  });

  it("--help prints usage on stdout with exit 0", async () => {
    const result = await runIdentityCli(["--help"], await cliEnv());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("user add <email>");
    expect(result.stdout).toContain("partner revoke <key|id>");
  });
});

describe("identity CLI: partners", () => {
  it("partner add prints only the key; list shows no secrets; revoke makes verify answer 403", async () => {
    const service = await startTestService();
    const env = { IDENTITY_DATA_DIR: service.dataDir };
    const added = await runIdentityCli(["partner", "add", "notes@example.com"], env);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(PARTNER_KEY);
    const partnerKey = added.stdout.trim();
    const list = await runIdentityCli(["partner", "list"], env);
    expect(list.stdout).toMatch(/^EMAIL\s+KEY ID\s+CREATED\s+STATE\nnotes@example.com\s+pk_\S+\s+\S+Z\s+active\n$/);
    expect(list.stdout).not.toContain(partnerKey);

    const userKey = (await runIdentityCli(["user", "add", "alice@example.com"], env)).stdout.trim();
    const call = { authorization: `Bearer ${partnerKey}`, body: JSON.stringify({ sessionToken: await mintToken(service.url, userKey) }) };
    expect((await postVerify(service.url, call)).status).toBe(200);

    expect(await runIdentityCli(["partner", "revoke", partnerKey], env)).toMatchObject({ code: 0, stdout: "" });
    expect(await postVerify(service.url, call)).toEqual({ status: 403, body: { error: "Partner key has been revoked" } });
    const after = JSON.parse((await runIdentityCli(["partner", "list", "--json"], env)).stdout);
    expect(after).toEqual([{ id: expect.stringMatching(/^pk_/), email: "notes@example.com", createdAt: expect.any(String), revokedAt: expect.any(String) }]);
    expect(await runIdentityCli(["partner", "revoke", "ptk_nope"], env)).toMatchObject({ code: 1, stderr: "identity: No such partner key\n" });
  });
});

describe("npm run -s identity", () => {
  it("prints only the command's own output", async () => {
    const env = await cliEnv();
    const result = await run("npm", ["run", "-s", "identity", "--", "user", "add", "alice@example.com"], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(USER_KEY);
    expect(result.stderr).toMatch(/^Created user alice@example.com \(key id key_\S+\)\n$/);
  });
});

describe("identity CLI: serve", () => {
  it("serves on the given port, logs requests, and stops on SIGTERM", async () => {
    const dataDir = await tempDir();
    const child = spawn(process.execPath, ["--import", "tsx", "identity/cli.ts", "serve", "--port", "0"], {
      cwd: ROOT,
      env: childEnv({ IDENTITY_DATA_DIR: dataDir }),
    });
    // A serve child that a failed assertion left running.
    onCleanup(() => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL"));
    let stdout = "";
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.on("close", () => reject(new Error(`serve exited early: ${stdout}`)));
    });
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ ok: true });
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/GET \/health 200 \d+\.\dms\n/);
  });

  it("exits 1 with one clear line when the port is taken", async () => {
    const service = await startTestService();
    const result = await runIdentityCli(["serve", "--port", String(service.port)], { IDENTITY_DATA_DIR: await tempDir() });
    expect(result).toMatchObject({
      code: 1,
      stdout: "",
      stderr: `identity: port ${service.port} on 127.0.0.1 is already in use; stop the process using it or pick another with --port\n`,
    });
    // Through PORT as well.
    const viaEnv = await runIdentityCli(["serve"], { IDENTITY_DATA_DIR: await tempDir(), PORT: String(service.port) });
    expect(viaEnv.code).toBe(1);
    expect(viaEnv.stderr).toContain(`port ${service.port} on 127.0.0.1 is already in use`);
  });

  it("startIdentityServer rejects with PortInUseError", async () => {
    const service = await startTestService();
    await expect(startIdentityServer({ port: service.port, dataDir: await tempDir() })).rejects.toBeInstanceOf(PortInUseError);
  });
});
