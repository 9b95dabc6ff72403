import { describe, expect, it } from "vitest";
import { formatBanner, type BannerOptions } from "@/scripts/lib/dev-banner";
import { DEMO_EMAIL, DEMO_PASSWORD } from "@/scripts/lib/dev-provision";

const options: BannerOptions = {
  appUrl: "http://localhost:3000",
  identityUrl: "http://127.0.0.1:4000",
  agentEmail: DEMO_EMAIL,
  agentHasAccount: true,
  agentConfigDir: "/home/ada/.config/notes-agent",
  customAgentConfigDir: false,
  inheritedIdentityUrl: undefined,
};

describe("npm run dev's banner", () => {
  it("names the demo account's sign-in while the agent key is the demo's", () => {
    const banner = formatBanner(options);
    expect(banner).toContain(`  Notes app         http://localhost:3000   (browser sign-in: ${DEMO_EMAIL} / ${DEMO_PASSWORD})`);
    expect(banner).toContain(`  Agent key         /home/ada/.config/notes-agent/credentials.json (${DEMO_EMAIL})`);
  });

  it("names the person's own account, and nothing of the demo, once the saved key is theirs", () => {
    const banner = formatBanner({ ...options, agentEmail: "you@example.com" });
    expect(banner).toContain("  Notes app         http://localhost:3000   (your account: you@example.com)");
    expect(banner).toMatch(/Agent key .*\(you@example\.com\)/);
    expect(banner).not.toContain("demo");
    expect(banner).not.toContain("Note: the saved agent key");
  });

  it("says how to add the account a saved key belongs to when it has none", () => {
    const banner = formatBanner({ ...options, agentEmail: "o'brien@example.com", agentHasAccount: false });
    expect(banner).toContain("  Note: the saved agent key belongs to o'brien@example.com, who has no notes account yet:");
    expect(banner).toContain(`    npm run users -- add 'o'\\''brien@example.com' --password   (works while this runs)`);
  });

  it("puts the identity service's address and the key's folder in front of the token command when they are not the defaults", () => {
    expect(formatBanner(options)).toContain("    TOKEN=$(npm run -s agent -- token)");
    const custom = formatBanner({ ...options, identityUrl: "http://127.0.0.1:4100", customAgentConfigDir: true, agentConfigDir: "/tmp/my keys" });
    expect(custom).toContain("    TOKEN=$(IDENTITY_API_URL=http://127.0.0.1:4100 AGENT_CONFIG_DIR='/tmp/my keys' npm run -s agent -- token)");
  });
});
