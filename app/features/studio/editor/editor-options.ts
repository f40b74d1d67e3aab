/** The choices the editor form offers, read by the screens' loaders. */
export interface EditorOptions {
  /** `reviewDays`: the section's default review period (system settings; 0: none, decision 038). */
  sections: { slug: string; label: string; reviewDays: number }[];
  categories: { slug: string; label: string; section: string | null; defaultTier: string }[];
}
