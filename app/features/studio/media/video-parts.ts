/**
 * A video item's parts as schema.org VideoObject JSON-LD (the shape the page's player reads:
 * contentUrl, thumbnailUrl, caption MediaObjects with inLanguage and name, hasPart Clips with
 * startOffset, duration "PT#H#M#S"). Reading keeps every other property, so an edit here never
 * drops what the structured-data editor added.
 */

export interface VideoCaption {
  contentUrl: string;
  inLanguage: string;
  name: string;
}

export interface VideoChapter {
  /** Seconds from the start. */
  startOffset: number;
  name: string;
}

export interface VideoParts {
  contentUrl: string | null;
  thumbnailUrl: string | null;
  captions: VideoCaption[];
  chapters: VideoChapter[];
  durationS: number | null;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

/** The VideoObject of structured data (an object or the first VideoObject of a list), or null. */
function videoObjectOf(data: unknown): Json | null {
  if (isObject(data)) return data["@type"] === "VideoObject" ? data : null;
  if (Array.isArray(data))
    return (data.find((d) => isObject(d) && d["@type"] === "VideoObject") as Json) ?? null;
  return null;
}

/** "PT1H2M3S" → 3723; null when it is not a duration of that form. */
export function parseIsoDuration(value: unknown): number | null {
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/.exec(String(value ?? ""));
  if (!m || (m[1] === undefined && m[2] === undefined && m[3] === undefined)) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

export function isoDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}${s || (!h && !m) ? `${s}S` : ""}`;
}

/** "1:05", "01:05", "1:02:03" or "65" → seconds; null when not a time. */
export function parseClock(value: string): number | null {
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{2})$/.exec(v);
  if (!m || Number(m[3]) > 59 || (m[1] !== undefined && Number(m[2]) > 59)) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/** 65 → "1:05", 3723 → "1:02:03". */
export function formatClock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

export function readVideoParts(data: unknown): VideoParts {
  const video = videoObjectOf(data) ?? {};
  const thumbnail = Array.isArray(video.thumbnailUrl) ? video.thumbnailUrl[0] : video.thumbnailUrl;
  const rawCaptions = Array.isArray(video.caption) ? video.caption : video.caption ? [video.caption] : [];
  const captions = rawCaptions.flatMap((c): VideoCaption[] => {
    const url = isObject(c) ? text(c.contentUrl) : null;
    if (!url || !isObject(c)) return [];
    const lang = text(c.inLanguage) ?? "en";
    return [{ contentUrl: url, inLanguage: lang, name: text(c.name) ?? lang }];
  });
  const parts = Array.isArray(video.hasPart) ? video.hasPart : [];
  const chapters = parts
    .filter(isObject)
    .map((p) => ({
      startOffset: Math.max(0, Math.round(Number(p.startOffset) || 0)),
      name: text(p.name) ?? "",
    }))
    .sort((a, b) => a.startOffset - b.startOffset);
  return {
    contentUrl: text(video.contentUrl),
    thumbnailUrl: text(thumbnail),
    captions,
    chapters,
    durationS: parseIsoDuration(video.duration),
  };
}

/**
 * `data` with its VideoObject's parts replaced by `parts` (a new VideoObject named `name` when
 * there is none). Chapters are written sorted, each ending where the next starts (or at the end).
 */
export function writeVideoParts(data: unknown, parts: VideoParts, name: string): unknown {
  const current = videoObjectOf(data);
  const next: Json = {
    ...(current ?? { "@context": "https://schema.org", "@type": "VideoObject", name }),
  };
  const set = (key: string, value: unknown) => {
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0))
      delete next[key];
    else next[key] = value;
  };
  set("contentUrl", parts.contentUrl);
  set("thumbnailUrl", parts.thumbnailUrl);
  set(
    "caption",
    parts.captions.map((c) => ({
      "@type": "MediaObject",
      contentUrl: c.contentUrl,
      encodingFormat: "text/vtt",
      inLanguage: c.inLanguage,
      name: c.name,
    })),
  );
  set("duration", parts.durationS === null ? null : isoDuration(parts.durationS));
  const sorted = [...parts.chapters].sort((a, b) => a.startOffset - b.startOffset);
  set(
    "hasPart",
    sorted.map((c, i) => {
      const end = sorted[i + 1]?.startOffset ?? parts.durationS;
      return {
        "@type": "Clip",
        name: c.name,
        startOffset: c.startOffset,
        ...(end !== null && end !== undefined && end > c.startOffset ? { endOffset: end } : {}),
      };
    }),
  );
  if (Array.isArray(data)) {
    const at = data.indexOf(current);
    return at >= 0 ? data.map((d, i) => (i === at ? next : d)) : [next, ...data];
  }
  return next;
}
