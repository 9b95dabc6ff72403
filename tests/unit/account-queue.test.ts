import { describe, expect, it } from "vitest";
import { AccountQueueTimeout, inAccountQueue } from "@/lib/db/account-writes";

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const LONG = 60_000;

describe("an account's writes in this process", () => {
  it("run one at a time, in the order they came", async () => {
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const writes = gates.map((g, i) =>
      inAccountQueue("account-a", LONG, async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await g.opened;
        running -= 1;
        return i;
      }),
    );
    await expect.poll(() => started).toEqual([0]);
    gates[2]!.open();
    gates[1]!.open();
    // The third may not start before the first finished, though its own work is free to end.
    await Promise.resolve();
    expect(started).toEqual([0]);
    gates[0]!.open();
    expect(await Promise.all(writes)).toEqual([0, 1, 2]);
    expect(started).toEqual([0, 1, 2]);
    expect(most).toBe(1);
  });

  it("a write that waits past its bound fails without running, and the writes behind it keep their places", async () => {
    const first = gate();
    const ran: string[] = [];
    const running = inAccountQueue("account-b", LONG, async () => {
      ran.push("first");
      await first.opened;
    });
    const impatient = inAccountQueue("account-b", 20, async () => {
      ran.push("impatient");
    });
    const patient = inAccountQueue("account-b", LONG, async () => {
      ran.push("patient");
    });
    await expect(impatient).rejects.toBeInstanceOf(AccountQueueTimeout);
    expect(ran).toEqual(["first"]);
    first.open();
    await Promise.all([running, patient]);
    expect(ran).toEqual(["first", "patient"]);
  });

  it("a write that fails frees the queue for the next, and other accounts never wait on it", async () => {
    const held = gate();
    const failing = inAccountQueue("account-c", LONG, async () => {
      await held.opened;
      throw new Error("refused");
    });
    // Another account's write runs while account-c's first is still under way.
    expect(await inAccountQueue("account-d", LONG, async () => "other account")).toBe("other account");
    const next = inAccountQueue("account-c", LONG, async () => "next");
    held.open();
    await expect(failing).rejects.toThrow("refused");
    expect(await next).toBe("next");
    // Nothing is left queued: a new write starts at once.
    expect(await inAccountQueue("account-c", 1, async () => "at once")).toBe("at once");
  });
});
