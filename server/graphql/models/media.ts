/**
 * Uploaded media (decision 011): `createMediaUpload` registers an upload for a content writer;
 * the server chooses the key under media/ and answers with a signed PUT link. Structured data
 * then references the object as `media:<id>` (never by key). Rules live in
 * `server/modules/media/media.service.ts`.
 */
import type { MediaObject } from "../../modules/media/media.service.ts";
import { mediaRef } from "../../modules/media/media.service.ts";
import { builder, plainInput } from "../builder.ts";

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

builder.mutationFields((t) => ({
  createMediaUpload: t.field({
    type: MediaUploadRef,
    description:
      "Registers a media upload (content writers): the server picks the key; PUT the file to uploadUrl.",
    args: { input: t.arg({ type: CreateMediaUploadInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.services.content.media.createUpload(ctx.actor, plainInput(args.input)),
  }),
}));
