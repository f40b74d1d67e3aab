/**
 * What a search term becomes before it reaches SQL, and how highlighted text comes back.
 *
 * User text is never passed on as FTS5 or tsquery syntax: it is cut into words (runs of letters,
 * digits and combining marks; everything else, quotes, `*`, `-`, parentheses included, separates
 * words), lower-cased, and the query is built from those words only: FTS5 gets each word as a
 * double-quoted string (the last one as a prefix, for as-you-type), PostgreSQL gets each word
 * single-quoted (the last with `:*`). Operators typed by the user (`OR`, `NEAR`, `NOT`) are plain
 * words.
 *
 * Highlights come back from the database marked with two private-use characters, which the indexer
 * removes from the indexed text, and are split here into parts that the UI renders as text.
 */

/** Longest search term accepted (characters); the API refuses longer, pages cut it. */
export const MAX_QUERY_LENGTH = 200;
/** Words used from one term; the rest are ignored. */
export const MAX_QUERY_WORDS = 12;
/** Longest word kept (longer runs are cut: nothing indexed is that long in practice). */
const MAX_WORD_LENGTH = 64;

export const HIT_START = "\uE000";
export const HIT_END = "\uE001";

export interface ParsedQuery {
  /** The trimmed term as the user typed it (cut to MAX_QUERY_LENGTH). */
  text: string;
  /** Lower-cased words, in order, without repeats; empty → nothing to search. */
  words: string[];
}

/** One run of a highlighted text: `hit` is true where a search word matched. */
export interface SnippetPart {
  text: string;
  hit: boolean;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export function parseSearchQuery(raw: unknown): ParsedQuery {
  const text = (typeof raw === "string" ? raw : "").normalize("NFC").trim().slice(0, MAX_QUERY_LENGTH).trim();
  const words: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0].slice(0, MAX_WORD_LENGTH);
    if (!words.includes(word)) words.push(word);
    if (words.length >= MAX_QUERY_WORDS) break;
  }
  return { text, words };
}

/** An FTS5 string literal: double quotes, inner quotes doubled (words hold none, but be safe). */
function fts5String(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

/**
 * The FTS5 MATCH expression: every word must occur (implicit AND), the last one as a prefix
 * unless `prefix` is false (the words as typed, stemmed).
 */
export function toFts5Query(words: readonly string[], prefix = true): string {
  if (words.length === 0) throw new Error("no words to search for");
  return words
    .map((w, i) => (prefix && i === words.length - 1 ? `${fts5String(w)}*` : fts5String(w)))
    .join(" ");
}

/** The to_tsquery text: every word must occur, the last one as a prefix (`'a' & 'b':*`). */
export function toTsQuery(words: readonly string[]): string {
  if (words.length === 0) throw new Error("no words to search for");
  return words
    .map((w, i) => {
      const quoted = `'${w.replaceAll("'", "''").replaceAll("\\", "\\\\")}'`;
      return i === words.length - 1 ? `${quoted}:*` : quoted;
    })
    .join(" & ");
}

/** Removes the highlight sentinels (and other private-use characters) from text before indexing. */
export function stripSentinels(text: string): string {
  return text.replace(/[\uE000-\uF8FF]/g, " ");
}

/**
 * Splits text marked with HIT_START/HIT_END into parts; unbalanced markers are tolerated.
 * Adjacent parts of the same kind are merged; empty parts are dropped.
 */
export function splitHighlighted(marked: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let hit = false;
  let buffer = "";
  const flush = () => {
    if (buffer === "") return;
    const last = parts[parts.length - 1];
    if (last && last.hit === hit) last.text += buffer;
    else parts.push({ text: buffer, hit });
    buffer = "";
  };
  for (const ch of marked) {
    if (ch === HIT_START || ch === HIT_END) {
      flush();
      hit = ch === HIT_START;
    } else {
      buffer += ch;
    }
  }
  flush();
  return parts;
}

/** True when some part is a hit. */
export function hasHit(parts: readonly SnippetPart[]): boolean {
  return parts.some((p) => p.hit);
}
