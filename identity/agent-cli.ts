import { parseArgs } from "node:util";
import { AgentError, readApiKey, removeApiKey, requestSessionToken, saveApiKey } from "./agent";
import { runCli, UsageError } from "./cli-runner";
import { readIdentityEnv } from "./env";
import { readSecret } from "./secret-input";

const USAGE = `Usage: notes-agent <command>   (or: npm run -s agent -- <command>)

Gets short-lived session tokens for an agent from the identity service.

Commands:
  key save            Save your personal API key, read from a prompt or from stdin:
                        npm run -s identity -- user add you@example.com | npm run -s agent -- key save
  key remove          Forget the saved key
  token [--url <u>]   Print a fresh session token (valid 5 minutes), alone on stdout:
                        TOKEN=$(npm run -s agent -- token)

Errors go to stderr. Exit codes: 0 ok, 1 failure, 2 usage error.

Environment:
  IDENTITY_API_URL    Identity service (default http://127.0.0.1:4000, the local one)
  AGENT_CONFIG_DIR    Where the key is saved (default ~/.config/notes-agent)
`;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { url: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  const [group, action, arg] = positionals;
  if (values.help || group === "help") {
    console.log(USAGE.trimEnd());
    return 0;
  }
  if (group === undefined) {
    console.error(USAGE.trimEnd());
    return 2;
  }
  const env = readIdentityEnv();
  const command = `${group} ${action ?? ""}`.trim();
  switch (command) {
    case "key save": {
      // `-` is the old spelling of "from stdin"; a key itself is refused so it never lands in shell history.
      if (arg !== undefined && arg !== "-") {
        throw new UsageError("key save reads the key from a prompt or stdin, not from the command line (shell history would keep it)");
      }
      const apiKey = await readSecret("Personal API key (input hidden): ");
      const file = await saveApiKey(env.agentConfigDir, apiKey);
      console.error(`Saved API key to ${file}`);
      return 0;
    }
    case "key remove": {
      const removed = await removeApiKey(env.agentConfigDir);
      console.error(removed ? "Removed the saved API key" : "No saved API key");
      return 0;
    }
    case "token": {
      const apiKey = await readApiKey(env.agentConfigDir);
      if (!apiKey) throw new AgentError("No saved API key; run `notes-agent key save` first");
      const { sessionToken } = await requestSessionToken({ apiUrl: values.url ?? env.apiUrl, apiKey });
      console.log(sessionToken);
      return 0;
    }
    default:
      throw new UsageError(`Unknown command: ${positionals.join(" ")}`);
  }
}

await runCli("notes-agent", run);
