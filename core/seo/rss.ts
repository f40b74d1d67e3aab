/** RSS 2.0 with an Atom self link (the AI News feed). Every value is escaped; only excerpts, never bodies. */
import { newest } from "./sitemap.ts";
import { escapeXml, XML_DECLARATION, xmlElement } from "./xml.ts";

export interface RssItem {
  title: string;
  /** Absolute permalink; also the guid. */
  link: string;
  /** The excerpt. */
  description: string | null;
  /** ISO 8601 publication time. */
  publishedAt: string | null;
  categories: readonly string[];
}

export interface RssChannel {
  title: string;
  /** The HTML page of the feed. */
  link: string;
  description: string;
  /** Absolute URL of the feed itself (atom:link rel="self"). */
  selfUrl: string;
  language?: string;
  items: readonly RssItem[];
}

/** ISO 8601 → RFC 822 date-time as RSS 2.0 wants it ("Wed, 04 Mar 2026 09:30:00 GMT"); null when invalid. */
export function rfc822(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : new Date(time).toUTCString();
}

function renderItem(item: RssItem): string {
  return [
    "<item>",
    xmlElement("title", item.title),
    xmlElement("link", item.link),
    `<guid isPermaLink="true">${escapeXml(item.link)}</guid>`,
    xmlElement("pubDate", rfc822(item.publishedAt)),
    xmlElement("description", item.description),
    ...item.categories.map((c) => xmlElement("category", c)),
    "</item>",
  ].join("");
}

export function renderRss(channel: RssChannel): string {
  const lastBuild = rfc822(newest(channel.items.map((i) => i.publishedAt)));
  return [
    XML_DECLARATION,
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    "<channel>",
    xmlElement("title", channel.title),
    xmlElement("link", channel.link),
    xmlElement("description", channel.description),
    xmlElement("language", channel.language ?? "en"),
    xmlElement("lastBuildDate", lastBuild),
    `<atom:link href="${escapeXml(channel.selfUrl)}" rel="self" type="application/rss+xml"/>`,
    ...channel.items.map(renderItem),
    "</channel>",
    "</rss>",
    "",
  ].join("\n");
}
