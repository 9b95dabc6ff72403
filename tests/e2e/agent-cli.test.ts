import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { VERIFY_ERRORS } from "@/lib/identity/contract";
import { startIdentityServer } from "@/identity/server";
import { revokeUserKey } from "@/identity/users";
import { spawn } from "node:child_process";
import { findSystemBinary, requireSystemBinary } from "@/tests/helpers/system";
import { childEnv, postVerify, ROOT, run, runAgentCli, runCleanups, startSeededService, tempDir } from "@/tests/identity/helpers";

// util-linux's `script` gives the tool a terminal, as a person's shell does.
const scriptBinary = findSystemBinary("script", { install: "apt-get install util-linux" });

afterEach(runCleanups);

const TOKEN = /^ist1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}\n$/;
const mode = async (file: string) => (await fs.stat(file)).mode & 0o777;

async function setup() {
  const seeded = await startSeededService();
  const configDir = path.join(await tempDir("notes-agent-test-"), "notes-agent");
  const env = { AGENT_CONFIG_DIR: configDir, IDENTITY_API_URL: seeded.service.url };
  const verifyToken = (sessionToken: string) =>
    postVerify(seeded.service.url, { authorization: `Bearer ${seeded.partner.partnerKey}`, body: JSON.stringify({ sessionToken }) });
  return { ...seeded, configDir, env, verifyToken };
}

describe("agent CLI", () => {
  it("key save stores the key privately (dir 0700, file 0600)", async () => {
    const { user, configDir, env } = await setup();
    const saved = await runAgentCli(["key", "save"], env, user.apiKey);
    expect(saved).toMatchObject({ code: 0, stdout: "" });
    expect(saved.stderr).toBe(`Saved API key to ${path.join(configDir, "credentials.json")}\n`);
    expect(await mode(configDir)).toBe(0o700);
    expect(await mode(path.join(configDir, "credentials.json"))).toBe(0o600);
    expect(JSON.parse(await fs.readFile(path.join(configDir, "credentials.json"), "utf8"))).toEqual({ apiKey: user.apiKey });
  });

  it("key save reads the key piped from identity user add (and accepts the old `-`)", async () => {
    const { user, env, verifyToken } = await setup();
    expect((await runAgentCli(["key", "save"], env, `${user.apiKey}\n`)).code).toBe(0);
    expect((await runAgentCli(["key", "save", "-"], env, `${user.apiKey}\n`)).code).toBe(0);
    const token = await runAgentCli(["token"], env);
    expect((await verifyToken(token.stdout.trim())).status).toBe(200);
  });

  it.skipIf(!requireSystemBinary(scriptBinary, "key save at a terminal prompt"))("key save on a terminal asks for the key and does not echo it", async () => {
    const { user, configDir, env } = await setup();
    const child = spawn(scriptBinary.path!, ["-qec", `${process.execPath} --import tsx identity/agent-cli.ts key save`, "/dev/null"], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    // Type the key only once the prompt shows, as a person would.
    await expect.poll(() => output, { timeout: 20_000 }).toContain("Personal API key (input hidden): ");
    child.stdin.write(`${user.apiKey}\r`);
    expect(await exited).toBe(0);
    expect(output).toContain("Saved API key to ");
    expect(output).not.toContain(user.apiKey);
    expect(JSON.parse(await fs.readFile(path.join(configDir, "credentials.json"), "utf8"))).toEqual({ apiKey: user.apiKey });
  });

  it("key save refuses a key on the command line, where shell history would keep it", async () => {
    const { user, configDir, env } = await setup();
    const result = await runAgentCli(["key", "save", user.apiKey], env);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toContain("not from the command line");
    expect(result.stderr).not.toContain(user.apiKey);
    await expect(fs.stat(path.join(configDir, "credentials.json"))).rejects.toThrow();
  });

  it("token prints only a fresh session token, which verifies to the user's email", async () => {
    const { user, env, verifyToken } = await setup();
    await runAgentCli(["key", "save"], env, user.apiKey);
    const result = await runAgentCli(["token"], env);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(TOKEN);
    expect(await verifyToken(result.stdout.trim())).toEqual({ status: 200, body: { email: "alice@example.com" } });
  });

  it("token fails with exit 1 when no key is saved", async () => {
    const { env } = await setup();
    expect(await runAgentCli(["token"], env)).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "notes-agent: No saved API key; run `notes-agent key save` first\n",
    });
  });

  it("token fails with exit 1 when the service is unreachable", async () => {
    const { user, env } = await setup();
    await runAgentCli(["key", "save"], env, user.apiKey);
    const gone = await startIdentityServer({ port: 0, dataDir: await tempDir() });
    await gone.close();
    expect(await runAgentCli(["token"], { ...env, IDENTITY_API_URL: gone.url })).toMatchObject({
      code: 1,
      stdout: "",
      stderr: `notes-agent: Cannot reach the identity service at ${gone.url} (ECONNREFUSED)\n`,
    });
  });

  it("token fails with exit 1 for a revoked or unknown key", async () => {
    const { service, user, env } = await setup();
    await runAgentCli(["key", "save"], env, user.apiKey);
    await revokeUserKey(service.store, { key: user.apiKey });
    expect(await runAgentCli(["token"], env)).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "notes-agent: The identity service rejected the saved API key: API key has been revoked\n",
    });
    await runAgentCli(["key", "save"], env, "idk_unknown");
    expect(await runAgentCli(["token"], env)).toMatchObject({
      code: 1,
      stderr: "notes-agent: The identity service rejected the saved API key: Invalid API key\n",
    });
  });

  it("refuses to save a partner key", async () => {
    const { partner, env } = await setup();
    expect(await runAgentCli(["key", "save"], env, partner.partnerKey)).toMatchObject({
      code: 1,
      stderr: "notes-agent: That is a partner key; save a personal API key instead\n",
    });
  });

  it("--help prints usage with exit 0; unknown commands exit 2", async () => {
    const { env } = await setup();
    const help = await runAgentCli(["--help"], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("key save ");
    expect(help.stdout).toContain("IDENTITY_API_URL");
    const bogus = await runAgentCli(["bogus"], env);
    expect(bogus).toMatchObject({ code: 2, stdout: "" });
    expect(bogus.stderr).toBe("notes-agent: Unknown command: bogus\nRun with --help for usage.\n");
  });

  it("a token stops verifying once the key is revoked", async () => {
    const { service, user, env, verifyToken } = await setup();
    await runAgentCli(["key", "save"], env, user.apiKey);
    const token = (await runAgentCli(["token"], env)).stdout.trim();
    await revokeUserKey(service.store, { key: user.keyId });
    expect(await verifyToken(token)).toEqual({ status: 401, body: { error: VERIFY_ERRORS.invalidOrExpiredToken } });
  });
});

describe("notes-agent bin and npm script", () => {
  it("bin/notes-agent.mjs runs with plain node from any directory", async () => {
    const { user, env, verifyToken } = await setup();
    const bin = path.join(ROOT, "bin/notes-agent.mjs");
    const elsewhere = await tempDir();
    expect((await run(process.execPath, [bin, "key", "save"], { env, cwd: elsewhere, input: user.apiKey })).code).toBe(0);
    const result = await run(process.execPath, [bin, "token"], { env, cwd: elsewhere });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const token = result.stdout;
    expect(token).toMatch(TOKEN);
    expect((await verifyToken(token.trim())).status).toBe(200);
  });

  it("npm run -s agent -- token prints only the token", async () => {
    const { user, env, verifyToken } = await setup();
    await runAgentCli(["key", "save"], env, user.apiKey);
    const result = await run("npm", ["run", "-s", "agent", "--", "token"], { env });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(TOKEN);
    expect((await verifyToken(result.stdout.trim())).status).toBe(200);
  });
});
