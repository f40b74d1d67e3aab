import { Link } from "react-router";

export interface FooterProps {
  productName: string;
  tagline: string;
  /** The year to show; defaults to the current year. */
  year?: number;
}

/** Footer: Documentation and Dashboard links, the current year and the brand line. */
export function Footer({ productName, tagline, year = new Date().getFullYear() }: FooterProps) {
  return (
    <footer className="mt-auto border-t border-line">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 pt-6 pb-14 text-sm text-ink-subtle sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-10">
        <p>{`© ${year} ${productName} — ${tagline}`}</p>
        <nav aria-label="Footer">
          <ul className="flex gap-5">
            <li>
              <Link to="/documentation" className="rounded hover:text-ink">
                Documentation
              </Link>
            </li>
            <li>
              <Link to="/dashboard" className="rounded hover:text-ink">
                Dashboard
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
