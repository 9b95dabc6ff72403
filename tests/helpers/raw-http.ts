import http from "node:http";

export type RawResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): any;
  /** Whether `agent` sent it on a connection an earlier request had used. */
  reused: boolean;
};

/**
 * One HTTP request with exactly the headers given, Host included (fetch would
 * replace it): what an attacker's own client sends.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; agent?: http.Agent } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined && !("transfer-encoding" in headers)) headers["content-length"] = String(Buffer.byteLength(options.body));
    const req = http.request(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: options.method ?? "GET", headers, setHost: !("host" in headers), agent: options.agent },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text), reused: req.reusedSocket }));
      },
    );
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
