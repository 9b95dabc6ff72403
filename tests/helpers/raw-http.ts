import http from "node:http";

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; text: string; json(): any };

/**
 * One HTTP request with exactly the headers given, Host included (fetch would
 * replace it): what an attacker's own client sends.
 */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers["content-length"] = String(Buffer.byteLength(options.body));
    const req = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: options.method ?? "GET", headers, setHost: !("host" in headers) },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
