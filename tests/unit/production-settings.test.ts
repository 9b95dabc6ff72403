import { describe, expect, it } from "vitest";
import { appOrigin } from "@/lib/auth/origin";
import { ConfigError, parseEnv } from "@/lib/env";
import { assertProductionSettings } from "@/lib/auth/production-settings";

const SECRET = "a-test-secret-that-is-long-enough-0123456789";

describe("APP_URL, the one trusted origin", () => {
  it("is the origin of APP_URL, whatever else the value carries", () => {
    expect(appOrigin(parseEnv({ NODE_ENV: "production", APP_URL: "https://notes.example.com/" }))).toBe("https://notes.example.com");
    expect(appOrigin(parseEnv({ NODE_ENV: "production", APP_URL: "http://127.0.0.1:4321" }))).toBe("http://127.0.0.1:4321");
  });

  it("is required in production, and named when missing", () => {
    expect(() => appOrigin(parseEnv({ NODE_ENV: "production" }))).toThrow(ConfigError);
    expect(() => appOrigin(parseEnv({ NODE_ENV: "production", APP_URL: "" }))).toThrow(/APP_URL is not set/);
  });

  it("defaults to localhost on PORT in development, with no configuration", () => {
    expect(appOrigin(parseEnv({ NODE_ENV: "development" }))).toBe("http://localhost:3000");
    expect(appOrigin(parseEnv({ NODE_ENV: "development", PORT: "4123" }))).toBe("http://localhost:4123");
  });

  it.each(["javascript://notes.example.com", "ftp://notes.example.com", "https://notes.example.com/app", "https://notes.example.com/?x=1", "notes.example.com"])(
    "refuses %s, naming the variable and not the value",
    (value) => {
      expect(() => parseEnv({ APP_URL: value })).toThrow(new ConfigError("Invalid environment configuration: APP_URL"));
    },
  );
});

describe("assertProductionSettings (npm start and the server's own start)", () => {
  it("passes with a secret and APP_URL", () => {
    expect(() => assertProductionSettings(parseEnv({ NODE_ENV: "production", APP_URL: "https://notes.example.com", BETTER_AUTH_SECRET: SECRET }))).not.toThrow();
  });

  it("names what is missing", () => {
    expect(() => assertProductionSettings(parseEnv({ APP_URL: "https://notes.example.com" }))).toThrow(/BETTER_AUTH_SECRET is not set/);
    expect(() => assertProductionSettings(parseEnv({ BETTER_AUTH_SECRET: SECRET }))).toThrow(/APP_URL is not set/);
  });
});

describe("trusted proxy settings", () => {
  it("are off by default and validated when set", () => {
    const env = parseEnv({});
    expect(env.TRUSTED_PROXY_HEADER).toBeUndefined();
    expect(env.TRUSTED_PROXY_HOPS).toBeUndefined();
    expect(parseEnv({ TRUSTED_PROXY_HEADER: "X-Real-IP", TRUSTED_PROXY_HOPS: "2" })).toMatchObject({ TRUSTED_PROXY_HEADER: "x-real-ip", TRUSTED_PROXY_HOPS: 2 });
    expect(() => parseEnv({ TRUSTED_PROXY_HEADER: "bad header" })).toThrow(/TRUSTED_PROXY_HEADER/);
    expect(() => parseEnv({ TRUSTED_PROXY_HOPS: "0" })).toThrow(/TRUSTED_PROXY_HOPS/);
  });

  it("API limits have generous defaults", () => {
    expect(parseEnv({})).toMatchObject({ API_RATE_LIMIT: 600, API_RATE_LIMIT_WINDOW: 60 });
  });
});
