/**
 * The comments section's calls to the comments REST API (server/http/comments-api.ts).
 */
import type {
  CommentSort,
  CommentThreadPage,
  CommentView,
} from "../../../server/modules/comments/comment-model.ts";
import { api } from "../../lib/api.ts";

export type { CommentSort, CommentThreadPage, CommentView };

export const COMMENT_BODY_LIMIT = 5000;
export const SORT_LABELS: Record<CommentSort, string> = {
  oldest: "Oldest first",
  newest: "Newest first",
  top: "Top",
};
export const REPORT_REASONS = [
  { value: "spam", label: "Spam or advertising" },
  { value: "abuse", label: "Abusive or hateful" },
  { value: "off-topic", label: "Off-topic" },
  { value: "other", label: "Something else" },
] as const;

const enc = encodeURIComponent;

function queryOf(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

export const commentsApi = {
  threads: (contentId: string, sort: CommentSort, cursor?: string) =>
    api.get<CommentThreadPage>(`/api/content/${enc(contentId)}/comments${queryOf({ sort, cursor })}`),
  replies: (commentId: string, cursor?: string) =>
    api.get<{ items: CommentView[]; nextCursor: string | null }>(
      `/api/comments/${enc(commentId)}/replies${queryOf({ cursor })}`,
    ),
  create: (contentId: string, input: { body: string; parentCommentId?: string; requestKey: string }) =>
    api.post<{ comment: CommentView }>(`/api/content/${enc(contentId)}/comments`, input),
  edit: (id: string, body: string) =>
    api.patch<{ comment: CommentView }>(`/api/comments/${enc(id)}`, { body }),
  remove: (id: string) => api.delete<{ id: string; tombstone: boolean }>(`/api/comments/${enc(id)}`),
  like: (id: string, liked: boolean) =>
    liked
      ? api.post<{ liked: boolean; likeCount: number }>(`/api/comments/${enc(id)}/like`, {})
      : api.delete<{ liked: boolean; likeCount: number }>(`/api/comments/${enc(id)}/like`),
  report: (id: string, reason: string, note: string) =>
    api.post<{ reported: true }>(`/api/comments/${enc(id)}/reports`, {
      reason,
      note: note.trim() || undefined,
    }),
};

/** A fresh idempotency key for one form submission round. */
export function newRequestKey(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
