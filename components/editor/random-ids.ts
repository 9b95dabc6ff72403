/**
 * `count` version 4 UUIDs from one call to getRandomValues, which, unlike
 * randomUUID, browsers also offer to pages served over plain HTTP. One call
 * for all: a call costs about 40 µs in Chromium, so the 2,000 ids of a long
 * note made one at a time took 80 ms of its opening.
 */
export function randomUuids(count: number): string[] {
  const bytes = crypto.getRandomValues(new Uint8Array(16 * count));
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = i * 16;
    bytes[at + 6] = (bytes[at + 6]! & 0x0f) | 0x40;
    bytes[at + 8] = (bytes[at + 8]! & 0x3f) | 0x80;
    let hex = "";
    for (let j = at; j < at + 16; j += 1) hex += HEX[bytes[j]!];
    ids.push(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
  }
  return ids;
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

type IdBlock = { id?: unknown; children?: unknown };

/**
 * The blocks, each without an id given a new one (children too), as the
 * editor would give them one by one on loading them; blocks with an id are
 * the very same objects.
 */
export function withBlockIds<T>(blocks: readonly T[]): T[] {
  let missing = 0;
  const count = (list: readonly unknown[]) => {
    for (const block of list as IdBlock[]) {
      if (typeof block.id !== "string" || !block.id) missing += 1;
      if (Array.isArray(block.children)) count(block.children);
    }
  };
  count(blocks);
  if (missing === 0) return [...blocks];
  const ids = randomUuids(missing);
  const give = (list: readonly unknown[]): readonly unknown[] => {
    let changed = false;
    const given = (list as IdBlock[]).map((block) => {
      const children = Array.isArray(block.children) ? give(block.children) : block.children;
      const id = typeof block.id === "string" && block.id ? block.id : ids.pop();
      if (id === block.id && children === block.children) return block;
      changed = true;
      return { ...block, id, ...(children === undefined ? {} : { children }) };
    });
    return changed ? given : list;
  };
  return [...give(blocks)] as T[];
}
