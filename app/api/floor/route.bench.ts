// The framework's own floor for `npm run bench`: a route handler with no auth
// and no database. Only the benchmark's build has it (next.config.mjs adds the
// `bench.ts` page extension when NEXT_BENCH_FLOOR=1), so it is never part of
// the API.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ ok: true });
}
