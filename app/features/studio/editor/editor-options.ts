/** The choices the editor form offers, read by the screens' loaders. */
export interface EditorOptions {
  sections: { slug: string; label: string }[];
  categories: { slug: string; label: string; section: string | null; defaultTier: string }[];
}
