import { ImageUp, LoaderCircle, Trash2, UserRound } from "lucide-react";
import { type ChangeEvent, useEffect, useId, useState } from "react";
import { useRevalidator } from "react-router";
import { showToast } from "../../components/app-toaster.tsx";
import { Button } from "../../components/ui/button.tsx";
import { api, apiRequest, settle } from "../../lib/api.ts";

const MAX = 2 * 1024 * 1024;
const TYPES = ["image/png", "image/jpeg", "image/webp"];

/**
 * Avatar with a local preview before upload. The server reads the type from the bytes (PNG,
 * JPEG, WebP, ≤ 2 MiB), stores it under the user's private area and serves it to signed-in users.
 */
export function ProfileAvatar({ avatarUrl, name }: { avatarUrl: string | null; name: string }) {
  const { revalidate } = useRevalidator();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    setError(null);
    if (chosen && !TYPES.includes(chosen.type)) {
      setError("Choose a PNG, JPEG or WebP image.");
      setFile(null);
      return;
    }
    if (chosen && chosen.size > MAX) {
      setError("The image is larger than 2 MiB.");
      setFile(null);
      return;
    }
    setFile(chosen);
  }

  async function upload() {
    if (!file) return;
    setBusy(true);
    const result = await settle(apiRequest("/api/profile/avatar", { method: "PUT", raw: file }));
    setBusy(false);
    if (result.ok) {
      setFile(null);
      showToast("Avatar updated");
      void revalidate();
    } else {
      setError(result.error.field.avatar ?? result.error.message);
    }
  }

  async function remove() {
    setBusy(true);
    const result = await settle(api.delete("/api/profile/avatar"));
    setBusy(false);
    if (result.ok) void revalidate();
    else setError(result.error.message);
  }

  const shown = preview ?? avatarUrl;
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-full border border-line bg-sunken">
        {shown ? (
          <img
            src={shown}
            alt={preview ? "Preview of your new avatar" : `${name}'s avatar`}
            className="size-full object-cover"
          />
        ) : (
          <UserRound aria-hidden="true" className="size-9 text-ink-subtle" />
        )}
      </div>
      <div className="min-w-0 space-y-2">
        <label htmlFor={inputId} className="block text-sm font-medium text-ink">
          Choose an image
        </label>
        <input
          id={inputId}
          type="file"
          accept="image/png,image/jpeg,image/webp"
          onChange={onChange}
          disabled={busy}
          aria-describedby={`${inputId}-hint ${inputId}-error`}
          className="block w-full text-sm text-ink-muted file:mr-3 file:rounded-lg file:border file:border-line-strong file:bg-elevated file:px-3 file:py-1.5 file:text-sm file:text-ink"
        />
        <p id={`${inputId}-hint`} className="text-xs text-ink-subtle">
          PNG, JPEG or WebP, up to 2 MiB. Visible to signed-in members.
        </p>
        <p id={`${inputId}-error`} role="alert" className="text-xs text-danger-text">
          {error ?? ""}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => void upload()} disabled={!file || busy}>
            {busy ? (
              <LoaderCircle aria-hidden="true" className="spin size-4" />
            ) : (
              <ImageUp aria-hidden="true" className="size-4" />
            )}
            Upload
          </Button>
          {avatarUrl ? (
            <Button size="sm" variant="ghost" onClick={() => void remove()} disabled={busy}>
              <Trash2 aria-hidden="true" className="size-4" />
              Remove
            </Button>
          ) : null}
        </div>
      </div>
    </div>
  );
}
