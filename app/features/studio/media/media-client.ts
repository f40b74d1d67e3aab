/**
 * The media library's browser calls: the library list (the fetch helper) and uploads, which go
 * through XMLHttpRequest because only it reports upload progress. Errors come back as `ApiError`
 * with the server's message and field, as from every other call.
 */
import type { MediaItem } from "../../../../server/services.ts";
import {
  ApiError,
  api,
  fallbackMessage,
  NETWORK_ERROR_MESSAGE,
  parseRetryAfter,
  readErrorEnvelope,
} from "../../../lib/api.ts";

/** What a picker offers. */
export type PickableKind = "image" | "video" | "captions";

/** The file chooser's filter per kind (the server checks the bytes whatever is chosen). */
export const ACCEPT: Record<PickableKind, string> = {
  image: "image/png,image/jpeg,image/webp,image/gif,.png,.jpg,.jpeg,.webp,.gif",
  video: "video/mp4,video/webm,.mp4,.webm",
  captions: "text/vtt,.vtt",
};

/** Browsers often leave `File.type` empty for captions: the type from the name then. */
const BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  vtt: "text/vtt",
};

export function contentTypeOf(file: File): string {
  if (file.type) return file.type;
  const ext = file.name.split(".").pop()?.toLowerCase() ?? "";
  return BY_EXTENSION[ext] ?? "application/octet-stream";
}

export interface MediaPage {
  items: MediaItem[];
  nextCursor: string | null;
}

export function listMedia(
  query: { kind: PickableKind; q?: string; cursor?: string | null; limit?: number },
  signal?: AbortSignal,
): Promise<MediaPage> {
  const params = new URLSearchParams({ kind: query.kind, limit: String(query.limit ?? 24) });
  if (query.q) params.set("q", query.q);
  if (query.cursor) params.set("cursor", query.cursor);
  return api.get<MediaPage>(`/api/media?${params}`, { signal });
}

export async function getMedia(id: string, signal?: AbortSignal): Promise<MediaItem> {
  return (await api.get<{ media: MediaItem }>(`/api/media/${encodeURIComponent(id)}`, { signal })).media;
}

/**
 * Uploads `file` (streamed by the browser) and resolves with the stored item. `onProgress` gets
 * the bytes sent so far and the total; aborting `signal` cancels the upload (the server keeps
 * nothing of it) and rejects with an AbortError.
 */
export function uploadMedia(
  file: File,
  options: { alt?: string; onProgress?: (sent: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<MediaItem> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = options.alt ? `?alt=${encodeURIComponent(options.alt)}` : "";
    xhr.open("POST", `/api/media${query}`);
    xhr.setRequestHeader("Content-Type", contentTypeOf(file));
    xhr.setRequestHeader("X-File-Name", encodeURIComponent(file.name));
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      options.onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    };
    const onAbort = () => xhr.abort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const done = () => options.signal?.removeEventListener("abort", onAbort);
    xhr.onload = () => {
      done();
      let answer: unknown = null;
      try {
        answer = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        // not JSON: the status decides the message
      }
      if (xhr.status === 201 && answer && typeof answer === "object" && "media" in answer) {
        resolve((answer as { media: MediaItem }).media);
        return;
      }
      const { code, message, field } = readErrorEnvelope(answer);
      reject(
        new ApiError({
          status: xhr.status,
          message: message ?? fallbackMessage(xhr.status),
          code,
          field,
          retryAfterS: parseRetryAfter(xhr.getResponseHeader("retry-after")),
          body: answer,
        }),
      );
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError({ status: 0, message: NETWORK_ERROR_MESSAGE }));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException("The upload was cancelled.", "AbortError"));
    };
    if (options.signal?.aborted) {
      done();
      reject(new DOMException("The upload was cancelled.", "AbortError"));
      return;
    }
    xhr.send(file);
  });
}

/** "1.4 MB", "820 KB", "12 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The media id of a `media:<id>` reference, or null (https URLs and anything else). */
export function mediaIdOfRef(ref: unknown): string | null {
  return typeof ref === "string" ? (/^media:([0-9a-f-]{36})$/.exec(ref.trim())?.[1] ?? null) : null;
}

/** The Markdown that shows an image from the library: `![alt](media:<id>)`, its alt text escaped. */
export function markdownImage(media: Pick<MediaItem, "alt" | "ref">): string {
  const alt = (media.alt ?? "").replace(/[\\[\]]/g, (c) => `\\${c}`).replace(/\s+/g, " ");
  return `![${alt}](${media.ref})`;
}
