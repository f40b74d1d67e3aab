/**
 * Uploaded media (decision 011), the same operations as REST /api/media: `uploadMedia` (a file of
 * a multipart request, streamed into the media service's `upload`: type sniffed from the bytes,
 * limits per kind, alt text for images, dimensions recorded), `updateMediaAlt` and the
 * `mediaLibrary` query. `createMediaUpload` (a signed PUT link whose bytes are never read) is
 * deprecated. Content names media as `media:<id>` (never by key). Rules live in
 * `server/modules/media/media.service.ts`.
 */
import type { MediaObject } from "../../modules/media/media.service.ts";
import { mediaRef } from "../../modules/media/media.service.ts";
import type { MediaItem } from "../../modules/media/media.types.ts";
import { builder, connectionType, plainInput } from "../builder.ts";
import { GRAPHQL_LIMITS } from "../limits.ts";

interface MediaUploadShape {
  media: MediaObject;
  uploadUrl: string;
  expiresAt: Date;
}

const MediaObjectRef = builder.objectRef<MediaObject>("MediaObject").implement({
  description: "An uploaded media object; reference it in structured data as `ref` (media:<id>).",
  fields: (t) => ({
    id: t.exposeID("id"),
    ref: t.string({ description: "media:<id>, for structured data", resolve: (m) => mediaRef(m.id) }),
    contentType: t.exposeString("contentType"),
    size: t.exposeInt("size", { description: "Declared size in bytes" }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const MediaUploadRef = builder.objectRef<MediaUploadShape>("MediaUpload").implement({
  fields: (t) => ({
    media: t.field({ type: MediaObjectRef, resolve: (u) => u.media }),
    uploadUrl: t.exposeString("uploadUrl", {
      description: "PUT the file here with its Content-Type (signed, at most 1 hour).",
    }),
    expiresAt: t.field({ type: "DateTime", resolve: (u) => u.expiresAt.toISOString() }),
  }),
});

const CreateMediaUploadInput = builder.inputType("CreateMediaUploadInput", {
  fields: (t) => ({
    contentType: t.string({
      required: true,
      description:
        "video/mp4, video/webm, audio/mpeg, audio/mp4, text/vtt, image/png, image/jpeg or image/webp",
    }),
    size: t.int({ required: true, description: "Bytes, at most 25 MiB" }),
  }),
});

const MediaKindEnum = builder.enumType("MediaKind", {
  values: ["image", "video", "captions", "audio"] as const,
});

const MediaItemRef = builder.objectRef<MediaItem>("MediaItem").implement({
  description:
    "A file of the media library. Markdown shows an image as ![alt](media:<id>); structured data names it by `ref`.",
  fields: (t) => ({
    id: t.exposeID("id"),
    ref: t.exposeString("ref", { description: "media:<id>, how content names it" }),
    url: t.exposeString("url", {
      description: "The file's stable address (/api/media/<id>/file): redirects anyone to a signed link",
    }),
    kind: t.field({ type: MediaKindEnum, resolve: (m) => m.kind }),
    contentType: t.exposeString("contentType"),
    size: t.exposeInt("size", { description: "Bytes" }),
    width: t.exposeInt("width", { nullable: true, description: "Images: pixels, read from the file" }),
    height: t.exposeInt("height", { nullable: true }),
    alt: t.exposeString("alt", { nullable: true }),
    fileName: t.exposeString("fileName", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    ownerName: t.exposeString("ownerName", { nullable: true }),
  }),
});

const MediaItemConnection = connectionType("MediaItem", MediaItemRef);

builder.queryFields((t) => ({
  mediaLibrary: t.field({
    type: MediaItemConnection,
    description:
      "The media a content writer may use (their own uploads; everyone's for platform admins), newest first; `q` searches file names and alt text.",
    args: {
      kind: t.arg({ type: MediaKindEnum }),
      q: t.arg.string(),
      limit: t.arg.int({ description: "1 to 100, default 20" }),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.content.media.list(
        ctx.actor,
        plainInput({
          kind: args.kind ?? undefined,
          q: args.q ?? undefined,
          limit: args.limit ?? GRAPHQL_LIMITS.defaultPageSize,
          cursor: args.nextToken ?? undefined,
        }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  uploadMedia: t.field({
    type: MediaItemRef,
    description: `Uploads a file (content writers) as a multipart request: an image (PNG, JPEG, WebP, GIF; alt required), a video (MP4, WebM) or WebVTT captions. The type is read from the bytes and must match the part's Content-Type. Requests up to ${GRAPHQL_LIMITS.maxUploadBytes / 1024 / 1024} MiB; larger videos: POST /api/media.`,
    args: {
      file: t.arg({ type: "File", required: true }),
      alt: t.arg.string({ description: "What the image shows; required for images" }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.content.media.upload(ctx.actor, {
        contentType: args.file.type,
        fileName: args.file.name || null,
        alt: args.alt ?? null,
        declaredBytes: args.file.size,
        body: args.file.stream(),
      }),
  }),
  updateMediaAlt: t.field({
    type: MediaItemRef,
    description: "Changes a media item's alt text (its owner or a platform admin); images keep one.",
    args: { id: t.arg.id({ required: true }), alt: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.media.update(ctx.actor, args.id, { alt: args.alt }),
  }),
  createMediaUpload: t.field({
    type: MediaUploadRef,
    deprecationReason:
      "Use uploadMedia: its file's type is checked from its bytes, images get alt text and dimensions. This link's bytes are never read.",
    description:
      "Registers a media upload (content writers): the server picks the key; PUT the file to uploadUrl.",
    args: { input: t.arg({ type: CreateMediaUploadInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.media.createUpload(ctx.actor, plainInput(args.input)),
  }),
}));
