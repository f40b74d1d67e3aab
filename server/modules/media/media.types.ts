/** Media as the studio's library and upload answers show it. */
export type MediaKind = "image" | "video" | "captions" | "audio";

export interface MediaItem {
  id: string;
  /** How content refers to it: `media:<id>`. */
  ref: string;
  /** A link the editor can display. */
  url: string;
  kind: MediaKind;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  alt: string | null;
  fileName: string | null;
  createdAt: string;
  ownerName: string | null;
}
