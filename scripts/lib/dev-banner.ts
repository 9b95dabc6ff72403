import path from "node:path";
import { DEFAULT_IDENTITY_API_URL } from "@/identity/env";
import { CREDENTIALS_FILE } from "@/identity/agent";
import { NOTES_PATH } from "@/lib/http/paths";
import { DEMO_EMAIL, DEMO_PASSWORD } from "./dev-provision";

export type BannerOptions = {
  appUrl: string;
  identityUrl: string;
  /** Whose key the agent tool holds. */
  agentEmail: string;
  agentHasAccount: boolean;
  agentConfigDir: string;
  customAgentConfigDir: boolean;
  inheritedIdentityUrl: string | undefined;
};

/** Quotes `value` for a POSIX shell when it needs it. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * Settings the agent command needs in front of it: the identity service's
 * URL when it is not the tool's default (or the shell points elsewhere), and
 * the key's directory when it is not the default.
 */
function agentEnvPrefix(options: BannerOptions): string {
  const settings: string[] = [];
  if (options.identityUrl !== DEFAULT_IDENTITY_API_URL || (options.inheritedIdentityUrl ?? options.identityUrl) !== options.identityUrl) {
    settings.push(`IDENTITY_API_URL=${options.identityUrl}`);
  }
  if (options.customAgentConfigDir) settings.push(`AGENT_CONFIG_DIR=${shellQuote(options.agentConfigDir)}`);
  return settings.map((setting) => `${setting} `).join("");
}

/** What to print once the stack is up: where things are and the typical API flow, ready to paste. */
export function formatBanner(options: BannerOptions): string {
  const { appUrl, identityUrl, agentEmail } = options;
  const notes = `${appUrl}${NOTES_PATH}`;
  const header = `-H "x-session-token: $TOKEN"`;
  // The demo account is only worth a mention while the agent tool acts as it.
  const signIn = agentEmail === DEMO_EMAIL ? `browser sign-in: ${DEMO_EMAIL} / ${DEMO_PASSWORD}` : `your account: ${agentEmail}`;
  const lines = [
    "",
    `  Notes app         ${appUrl}   (${signIn})`,
    `  Identity service  ${identityUrl}`,
    `  Agent key         ${path.join(options.agentConfigDir, CREDENTIALS_FILE)} (${agentEmail})`,
    "",
    "  Try the API from another terminal:",
    "",
    `    TOKEN=$(${agentEnvPrefix(options)}npm run -s agent -- token)`,
    `    curl -s '${notes}?search=groceries' ${header}`,
    `    curl -s ${notes} ${header} -H 'content-type: application/json' \\`,
    `      -d '{"title":"Groceries","contentText":"milk, eggs, coffee"}'`,
    `    curl -s '${notes}?search=groceries' ${header}`,
    "",
    "  Tokens expire after 5 minutes: run the TOKEN= line again. Ctrl-C stops everything.",
    "",
  ];
  if (!options.agentHasAccount) {
    lines.splice(
      -1,
      0,
      `  Note: the saved agent key belongs to ${agentEmail}, who has no notes account yet:`,
      `    npm run users -- add ${shellQuote(agentEmail)} --password   (works while this runs)`,
      "",
    );
  }
  return lines.join("\n");
}
