// A mixed soak: one account's clients writing tagged notes at once (creates,
// retags, deletes) between tag-filtered and searched reads, as a heavy agent
// user does. Every answer must be a success: a deadlock, a lost race with a
// delete or a timeout would show up here as an error.
import { percentile } from "./measure";

export type SoakResult = {
  clients: number;
  durationSec: number;
  requests: number;
  writes: number;
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not a success, by status (0: no answer). */
  errors: number;
  errorsByStatus: Record<string, number>;
  /** The account's notes by the API's total against the notes its writes left. */
  totalMatches: boolean;
};

export type SoakOptions = {
  appUrl: string;
  token: () => Promise<string>;
  /** Tags of the account the clients attach (at least 3). */
  tagIds: string[];
  clients: number;
  durationSec: number;
};

export async function runTaggedSoak(options: SoakOptions): Promise<SoakResult> {
  const { appUrl, tagIds, clients, durationSec } = options;
  const latencies: number[] = [];
  const errorsByStatus: Record<string, number> = {};
  let writes = 0;
  let created = 0;
  let deleted = 0;
  const token = await options.token();
  const before = await total(appUrl, token);

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const started = performance.now();
    let status = 0;
    let json: any = undefined;
    try {
      const res = await fetch(`${appUrl}${path}`, {
        method,
        headers: { "x-session-token": token, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      status = res.status;
      const text = await res.text();
      json = text ? JSON.parse(text) : undefined;
    } catch {
      status = 0;
    }
    latencies.push(performance.now() - started);
    if (status < 200 || status >= 300) errorsByStatus[status] = (errorsByStatus[status] ?? 0) + 1;
    return { status, json };
  }

  const tag = (n: number) => tagIds[n % tagIds.length]!;
  const deadline = performance.now() + durationSec * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const mine: string[] = [];
      for (let i = 0; performance.now() < deadline; i += 1) {
        const step = i % 8;
        if (step === 0 || step === 3 || step === 6) {
          const res = await call("POST", "/api/notes", {
            title: `soak ${client} ${i}`,
            contentText: `soak words client${client} step${i % 50}`,
            tagIds: [tag(client + i), tag(client * 3 + i + 1), ...(i % 2 ? [tag(i + 2)] : [])],
          });
          writes += 1;
          if (res.status === 201) {
            created += 1;
            mine.push(res.json.note.id);
          }
        } else if ((step === 1 || step === 4) && mine.length > 0) {
          await call("PATCH", `/api/notes/${mine[mine.length - 1]}`, { tagIds: [tag(i), tag(client + 2 * i + 1)] });
          writes += 1;
        } else if (step === 7 && mine.length > 2) {
          const res = await call("DELETE", `/api/notes/${mine.shift()}`);
          writes += 1;
          if (res.status === 204) deleted += 1;
        } else if (step === 2) {
          await call("GET", `/api/notes?tagId=${tag(client + i)}&limit=20`);
        } else {
          await call("GET", `/api/notes?search=client${client}&limit=20`);
        }
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  const after = await total(appUrl, await options.token());
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    clients,
    durationSec,
    requests: latencies.length,
    writes,
    rps: Math.round((latencies.length / elapsedMs) * 1000),
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    errors: Object.values(errorsByStatus).reduce((a, b) => a + b, 0),
    errorsByStatus,
    totalMatches: after === before + created - deleted,
  };
}

async function total(appUrl: string, token: string): Promise<number> {
  const res = await fetch(`${appUrl}/api/notes?limit=1`, { headers: { "x-session-token": token } });
  return ((await res.json()) as { total: number }).total;
}
