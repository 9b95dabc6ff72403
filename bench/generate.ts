/**
 * Deterministic notes for the benchmark: a seeded generator over a fixed
 * vocabulary, so every run loads the same data. A few marker words have known
 * frequencies so scenarios can search a rare term, a common term and a pair.
 */

/** mulberry32: small, fast, good enough for test data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE_WORDS = (
  "the of and to in is for on that with as at by from this be are was it an or have not your can will all more " +
  "project plan review notes idea draft list task team client design code release bug fix test deploy data report " +
  "call email follow up weekly daily monthly agenda summary decision action owner deadline priority status update " +
  "customer feedback roadmap sprint backlog estimate risk issue question answer research reading book article link " +
  "recipe dinner lunch breakfast shopping grocery travel flight hotel trip booking health workout run walk sleep " +
  "garden house rent bills tax insurance doctor dentist school family friend birthday gift party music movie game " +
  "server database index query cache latency memory network storage backup security password token session user " +
  "account invoice payment contract legal hiring interview onboarding training salary office remote home morning"
).split(" ");

const SYLLABLES = "ka lo mi ne ru sa te vi zo pa qu ri xe yo wu ba ce di fo gu ha je ko lu ma no pe".split(" ");

/** Marker words and the share of notes that contain each. */
export const MARKERS = {
  /** In about 61% of notes, like a word most meeting notes share. */
  common: { word: "meeting", share: 0.61 },
  /** Paired with `common` in the two-term scenario. */
  second: { word: "budget", share: 0.35 },
  /** In about 0.05% of notes. */
  rare: { word: "zephyrine", share: 0.0005 },
} as const;

export type GeneratedNote = { title: string; contentText: string; createdAt: Date; updatedAt: Date };

export function buildVocabulary(random: () => number, size = 4000): string[] {
  const words = new Set(BASE_WORDS);
  while (words.size < size) {
    const length = 2 + Math.floor(random() * 3);
    let word = "";
    for (let i = 0; i < length; i += 1) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(word);
  }
  for (const marker of Object.values(MARKERS)) words.delete(marker.word);
  return [...words];
}

/** Zipf-like pick: low indexes (the common words) come up far more often. */
function pickWord(random: () => number, vocabulary: string[]): string {
  const index = Math.floor(vocabulary.length * Math.pow(random(), 3));
  return vocabulary[index]!;
}

function sentence(random: () => number, vocabulary: string[], words: number): string {
  const parts: string[] = [];
  for (let i = 0; i < words; i += 1) parts.push(pickWord(random, vocabulary));
  return parts.join(" ");
}

/** Notes with 200–2,000-character bodies, updated over the last two years. */
export function* generateNotes(options: { seed: number; count: number; now?: number }): Generator<GeneratedNote> {
  const random = seededRandom(options.seed);
  const vocabulary = buildVocabulary(seededRandom(1));
  const now = options.now ?? Date.UTC(2026, 0, 1);
  const twoYears = 2 * 365 * 24 * 3600 * 1000;
  for (let i = 0; i < options.count; i += 1) {
    const targetLength = 200 + Math.floor(random() * 1800);
    let body = "";
    while (body.length < targetLength) body += (body ? ". " : "") + sentence(random, vocabulary, 4 + Math.floor(random() * 10));
    const extras: string[] = [];
    for (const marker of Object.values(MARKERS)) if (random() < marker.share) extras.push(marker.word);
    if (extras.length > 0) {
      // Put markers at a random place in the body, not always at its end.
      const at = body.indexOf(" ", Math.floor(random() * body.length));
      body = at < 0 ? `${body} ${extras.join(" ")}` : `${body.slice(0, at)} ${extras.join(" ")}${body.slice(at)}`;
    }
    body = body.slice(0, 2000);
    const title = sentence(random, vocabulary, 3 + Math.floor(random() * 5));
    const createdAt = new Date(now - Math.floor(random() * twoYears));
    const updatedAt = new Date(Math.min(now, createdAt.getTime() + Math.floor(random() * 30 * 24 * 3600 * 1000)));
    yield { title: title[0]!.toUpperCase() + title.slice(1), contentText: body, createdAt, updatedAt };
  }
}

/** A plain paragraph block with the id given, as the editor stores one. */
export const paragraphBlock = (id: string, text: string) => ({
  id,
  type: "paragraph",
  props: { textColor: "default", backgroundColor: "default", textAlignment: "left" },
  content: [{ type: "text", text, styles: {} }],
  children: [],
});
