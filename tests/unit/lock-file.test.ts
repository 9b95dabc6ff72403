import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tryLockFile } from "@/lib/files/lock-file";

describe("tryLockFile", () => {
  let dir: string;
  let lockPath: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "notes-lock-file-"));
    lockPath = path.join(dir, "test.lock");
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // The parent of this test process is alive for as long as the test runs.
  const writeLiveOwner = (text = `${process.ppid}\nother\n`) => fs.writeFileSync(lockPath, text);
  const age = (ms: number) => {
    const then = new Date(Date.now() - ms);
    fs.utimesSync(lockPath, then, then);
  };

  it("names the live holder and leaves its lock alone", () => {
    writeLiveOwner();
    expect(tryLockFile(lockPath)).toEqual({ acquired: false, owner: { pid: process.ppid, nonce: "other" } });
    expect(fs.readFileSync(lockPath, "utf8")).toBe(`${process.ppid}\nother\n`);
  });

  it("reads the JSON owner record older identity locks were written with", () => {
    writeLiveOwner(JSON.stringify({ pid: process.ppid, nonce: "legacy" }));
    expect(tryLockFile(lockPath, { staleMs: 60_000 })).toEqual({ acquired: false, owner: { pid: process.ppid, nonce: "legacy" } });
  });

  it("takes over a lock past its age limit even when its owner lives", () => {
    writeLiveOwner();
    age(120_000);
    expect(tryLockFile(lockPath).acquired).toBe(false);
    const attempt = tryLockFile(lockPath, { staleMs: 60_000 });
    expect(attempt.acquired).toBe(true);
    expect(fs.readFileSync(lockPath, "utf8").split("\n")[0]).toBe(String(process.pid));
  });

  it("gives an ownerless lock its age limit, and takes it at once without one", () => {
    fs.writeFileSync(lockPath, "");
    expect(tryLockFile(lockPath, { staleMs: 60_000 })).toEqual({ acquired: false, owner: null });
    expect(tryLockFile(lockPath).acquired).toBe(true);
  });

  it("releases only its own lock", () => {
    const first = tryLockFile(lockPath);
    if (!first.acquired) throw new Error("expected the lock");
    // Another process judged it abandoned and took it.
    writeLiveOwner();
    first.release();
    expect(fs.readFileSync(lockPath, "utf8")).toBe(`${process.ppid}\nother\n`);
  });

  it("keeps a second acquisition in the same process out unless told to adopt", () => {
    const first = tryLockFile(lockPath);
    if (!first.acquired) throw new Error("expected the lock");
    expect(tryLockFile(lockPath)).toMatchObject({ acquired: false, owner: { pid: process.pid } });
    const adopted = tryLockFile(lockPath, { adoptOwnPid: true });
    expect(adopted.acquired).toBe(true);
    if (adopted.acquired) adopted.release();
    expect(fs.existsSync(lockPath)).toBe(false);
  });
});
