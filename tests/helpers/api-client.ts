export type ApiResponse = { status: number; headers: Headers; body: any; text: string };

export type ApiRequest = {
  method?: string;
  token?: string;
  /** Sent as JSON with Content-Type application/json unless `raw` is given. */
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
};

/** A tiny HTTP client for the API under test: real requests to a real server. */
export function apiClient(baseUrl: string) {
  return async function api(path: string, request: ApiRequest = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...request.headers };
    if (request.token !== undefined) headers["x-session-token"] = request.token;
    let body: string | undefined = request.raw;
    if (request.json !== undefined) {
      body = JSON.stringify(request.json);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(`${baseUrl}${path}`, { method: request.method ?? "GET", headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}
