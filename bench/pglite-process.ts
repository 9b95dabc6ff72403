// node --import tsx bench/pglite-process.ts <dataDir>
// PGlite off the app's thread, for the benchmark's side-by-side of embedded
// databases: PGlite in a process of its own, reached over PostgreSQL's wire
// protocol on 127.0.0.1 (one connection at a time: PGlite is one session).
// Prints the port once it listens. Not used by the app.
import net from "node:net";
import { openPglite } from "@/lib/db/pglite";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: bench/pglite-process.ts <dataDir>");
const pglite = await openPglite(dataDir);

/** A backend message: type byte, then its length (counting itself) and body. */
function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
const cstring = (text: string) => Buffer.from(`${text}\0`, "utf8");
const int32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
};

/** What the server says after a startup message: no password, the settings a driver reads, then ready. */
const STARTED = Buffer.concat([
  message("R", int32(0)),
  ...[
    ["server_version", "17.5"],
    ["client_encoding", "UTF8"],
    ["server_encoding", "UTF8"],
    ["DateStyle", "ISO, MDY"],
    ["integer_datetimes", "on"],
    ["standard_conforming_strings", "on"],
    ["TimeZone", "UTC"],
  ].map(([name, value]) => message("S", Buffer.concat([cstring(name!), cstring(value!)]))),
  message("K", Buffer.concat([int32(process.pid), int32(0)])),
  message("Z", Buffer.from("I")),
]);

/** Everything sent to PGlite, one step after another in the order it came, across connections. */
let chain = Promise.resolve();
/** Runs `step` in turn; a failure of PGlite itself ends the process, loudly, rather than leave a client waiting. */
function inTurn(step: () => Promise<void>): void {
  chain = chain.then(step).catch((error: unknown) => {
    process.stderr.write(`pglite-process: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

let busy = false;
const server = net.createServer((socket) => {
  if (busy) {
    socket.end(message("E", Buffer.concat([cstring("SFATAL"), cstring("C53300"), cstring("Mone connection at a time"), Buffer.from([0])])));
    return;
  }
  busy = true;
  // Each answer goes out at once: the client waits for it before sending more.
  socket.setNoDelay(true);
  let pending = Buffer.alloc(0);
  let started = false;
  socket.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (!started) {
        if (pending.length < 4) return;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return;
        const code = pending.readInt32BE(4);
        pending = pending.subarray(length);
        // SSLRequest or GSSENCRequest: not offered.
        if (code === 80877103 || code === 80877104) socket.write("N");
        else {
          started = true;
          socket.write(STARTED);
        }
        continue;
      }
      if (pending.length < 5) return;
      const length = pending.readInt32BE(1);
      if (pending.length < length + 1) return;
      const frame = Buffer.from(pending.subarray(0, length + 1));
      pending = pending.subarray(length + 1);
      if (frame[0] === 0x58 /* Terminate */) {
        socket.end();
        return;
      }
      inTurn(async () => {
        const answer = await pglite.execProtocolRaw(new Uint8Array(frame));
        if (answer.length > 0 && !socket.destroyed) socket.write(answer);
      });
    }
  });
  // A client gone in the middle of a transaction leaves none open for the next one.
  socket.once("close", () =>
    inTurn(async () => {
      await pglite.query("ROLLBACK");
      busy = false;
    }),
  );
  socket.on("error", () => socket.destroy());
});

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${(server.address() as net.AddressInfo).port}\n`);
});

const stop = async () => {
  server.close();
  await pglite.close();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
