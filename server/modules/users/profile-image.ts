/**
 * Avatar images: the type is read from the first bytes (magic numbers), never from the
 * client's Content-Type header or file name.
 */
export type AvatarType = { mime: "image/png" | "image/jpeg" | "image/webp"; ext: "png" | "jpg" | "webp" };

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, sig: number[], offset = 0): boolean {
  if (bytes.length < offset + sig.length) return false;
  return sig.every((b, i) => bytes[offset + i] === b);
}

/** PNG, JPEG or WebP from the magic bytes; null for anything else. */
export function sniffImageType(bytes: Uint8Array): AvatarType | null {
  if (startsWith(bytes, PNG) && bytes.length >= 16) return { mime: "image/png", ext: "png" };
  if (startsWith(bytes, [0xff, 0xd8, 0xff]) && bytes.length >= 4) return { mime: "image/jpeg", ext: "jpg" };
  // RIFF <size> WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) {
    return bytes.length >= 16 ? { mime: "image/webp", ext: "webp" } : null;
  }
  return null;
}

/** The object key of a user's avatar: their private area. */
export function avatarKey(userId: string, ext: AvatarType["ext"]): string {
  return `private/${userId}/avatar.${ext}`;
}

/** The content type to serve a stored avatar key with (from its extension, which we chose). */
export function avatarMimeOfKey(key: string): AvatarType["mime"] | null {
  if (key.endsWith(".png")) return "image/png";
  if (key.endsWith(".jpg")) return "image/jpeg";
  if (key.endsWith(".webp")) return "image/webp";
  return null;
}
