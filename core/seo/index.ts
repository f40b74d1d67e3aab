/** SEO builders shared by the pages (meta tags, JSON-LD) and the server (sitemap, robots.txt, RSS). Pure. */
export * from "./json-ld.ts";
export * from "./meta.ts";
export * from "./robots.ts";
export * from "./rss.ts";
export * from "./sitemap.ts";
export * from "./urls.ts";
export * from "./xml.ts";
