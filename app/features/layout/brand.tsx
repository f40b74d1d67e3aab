/** The Lumen Hub mark: an indigo tile with a beam and a point of light (same drawing as favicon.ico). */
export function BrandMark({ className = "size-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={`shrink-0 ${className}`}>
      <rect width="32" height="32" rx="7" fill="#4f46e5" />
      <path d="M9.6 7h4.8v13.2h8.6V25H9.6z" fill="#fff" />
      <circle cx="21.1" cy="10.9" r="3" fill="#fff" />
    </svg>
  );
}
