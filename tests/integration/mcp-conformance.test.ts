import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectOutput, exited } from "@/scripts/lib/processes";
import { useNotesStack } from "@/tests/helpers/notes-app";
import { ROOT } from "@/tests/helpers/test-app";

const SUITE = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

/** The server scenarios that apply to this server. */
const APPLICABLE = ["server-initialize", "ping", "tools-list", "resources-list", "dns-rebinding-protection"];

/** Every server scenario of the suite that does not apply to this server, and why. */
const NOT_APPLICABLE: Record<string, string> = {
  "logging-set-level": "no logging capability: tool calls answer at once, with nothing to log along the way",
  "completion-complete": "no completions capability: no prompt or resource template takes an argument to complete",
  "tools-call-simple-text": "calls the suite's own fixture tool (test_simple_text)",
  "tools-call-image": "calls the suite's own fixture tool",
  "tools-call-audio": "calls the suite's own fixture tool",
  "tools-call-embedded-resource": "calls the suite's own fixture tool",
  "tools-call-mixed-content": "calls the suite's own fixture tool",
  "tools-call-with-logging": "calls the suite's own fixture tool",
  "tools-call-error": "calls the suite's own fixture tool",
  "tools-call-with-progress": "calls the suite's own fixture tool",
  "tools-call-sampling": "calls the suite's own fixture tool; the server asks nothing of the client",
  "tools-call-elicitation": "calls the suite's own fixture tool; the server asks nothing of the client",
  "elicitation-sep1034-defaults": "calls the suite's own fixture tool; the server asks nothing of the client",
  "elicitation-sep1330-enums": "calls the suite's own fixture tool; the server asks nothing of the client",
  "json-schema-2020-12": "lists the suite's own fixture tool",
  "server-sse-polling": "a stateless server answers each POST with JSON; it holds no SSE stream to resume",
  "server-sse-multiple-streams": "a stateless server answers each POST with JSON; it holds no SSE stream to resume",
  "resources-read-text": "reads the suite's own fixture resource",
  "resources-read-binary": "reads the suite's own fixture resource",
  "resources-templates-read": "reads the suite's own fixture template",
  "resources-subscribe": "no subscriptions: a stateless server cannot send updates",
  "resources-unsubscribe": "no subscriptions: a stateless server cannot send updates",
  "prompts-list": "no prompts capability",
  "prompts-get-simple": "no prompts capability",
  "prompts-get-with-args": "no prompts capability",
  "prompts-get-embedded-resource": "no prompts capability",
  "prompts-get-with-image": "no prompts capability",
};

type Check = { id: string; name: string; status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED"; description: string; errorMessage?: string };

// The official MCP conformance suite (@modelcontextprotocol/conformance) run
// against /api/mcp of the production server. The suite sends no credentials,
// so it talks to a proxy that adds a fresh session token to each request and
// stands in for the app: a Host or Origin naming the proxy (by any loopback
// name) is turned into the app's, any other passes through as sent.
describe("the MCP conformance suite against /api/mcp", () => {
  const stack = useNotesStack("postgres", { users: 1 });
  let proxy: http.Server;
  let proxyUrl = "";
  const outputs = fs.mkdtempSync(path.join(os.tmpdir(), "notes-mcp-conformance-"));

  beforeAll(async () => {
    const app = new URL(stack.app.url);
    const user = stack.freshUser();
    const loopback = new Set(["localhost", "127.0.0.1", "[::1]"]);
    const namesProxy = (url: URL) => loopback.has(url.hostname) && url.port === new URL(proxyUrl).port;
    proxy = http.createServer((req, res) => {
      const headers = { ...req.headers, "x-session-token": user.token() };
      if (headers.host && namesProxy(new URL(`http://${headers.host}`))) headers.host = app.host;
      if (headers.origin && URL.canParse(headers.origin) && namesProxy(new URL(headers.origin))) headers.origin = app.origin;
      const forwarded = http.request(
        { host: app.hostname, port: app.port, method: req.method, path: "/api/mcp", headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on("error", (err) => res.destroy(err));
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    fs.rmSync(outputs, { recursive: true, force: true });
  });

  /** Runs one scenario and returns its checks. */
  async function runScenario(scenario: string): Promise<{ checks: Check[]; output: string }> {
    const dir = path.join(outputs, scenario);
    const child = spawn(process.execPath, [SUITE, "server", "--url", proxyUrl, "--scenario", scenario, "-o", dir], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const output = collectOutput(child);
    await exited(child);
    const found = fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).find((file) => file.endsWith("checks.json"));
    if (!found) throw new Error(`The suite wrote no checks for ${scenario}:\n${output()}`);
    return { checks: JSON.parse(fs.readFileSync(path.join(dir, found), "utf8")) as Check[], output: output() };
  }

  it("lists only scenarios this test knows, applicable or not", async () => {
    const child = spawn(process.execPath, [SUITE, "list", "--server"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const output = collectOutput(child);
    await exited(child);
    const listed = [...output().matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]!);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((scenario) => !(scenario in NOT_APPLICABLE) && !APPLICABLE.includes(scenario))).toEqual([]);
  });

  for (const scenario of APPLICABLE) {
    it(`${scenario}: every check passes`, async () => {
      const { checks, output } = await runScenario(scenario);
      expect(checks.length, output).toBeGreaterThan(0);
      expect(checks.filter((check) => check.status !== "SUCCESS").map((check) => `${check.status} ${check.name}: ${check.errorMessage ?? check.description}`), output).toEqual([]);
    });
  }
});
