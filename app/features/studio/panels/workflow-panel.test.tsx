import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { StudioItem } from "./types.ts";
import { WorkflowPanel } from "./workflow-panel.tsx";

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ")
    .trim();

function item(overrides: Partial<StudioItem>): StudioItem {
  return {
    id: "c1",
    slug: "guide",
    title: "A guide",
    version: 4,
    state: "draft",
    actions: [],
    reviewerNotes: null,
    publishedAt: null,
    body: "",
    publicUrl: "/content/guide",
    ...overrides,
  } as StudioItem;
}

function render(overrides: Partial<StudioItem>) {
  return text(
    renderToString(
      <WorkflowPanel
        item={item(overrides)}
        onItemChange={() => {}}
        hasUnsavedChanges={false}
        saveNow={async () => null}
      />,
    ),
  );
}

describe("WorkflowPanel", () => {
  it("shows a writer without content:publish only 'Submit for review' (what the server allows)", () => {
    const out = render({ state: "draft", actions: ["submit"] });
    expect(out).toContain("Draft");
    expect(out).toContain("Submit for review");
    for (const other of ["Publish now", "Approve", "Schedule", "Request changes"])
      expect(out).not.toContain(other);
  });

  it("shows a reviewer the review actions of an item in review", () => {
    const out = render({
      state: "in_review",
      actions: ["request_changes", "approve", "schedule", "publish", "archive"],
    });
    for (const label of ["Request changes", "Approve", "Schedule", "Publish now", "Archive"])
      expect(out).toContain(label);
  });

  it("puts the reviewer's notes first when changes are requested", () => {
    const out = render({
      state: "changes_requested",
      actions: ["submit", "archive"],
      reviewerNotes: "Cite the benchmark's source.",
    });
    expect(out).toContain("Changes requested by the reviewer Cite the benchmark's source.");
    expect(out.indexOf("Cite the benchmark")).toBeLessThan(out.indexOf("Submit for review"));
  });

  it("tells a writer who submitted that a reviewer decides next", () => {
    const out = render({ state: "in_review", actions: ["archive"] });
    expect(out).toContain(
      "Waiting for a reviewer: approving and publishing need the content:publish permission.",
    );
    expect(out).toContain("Archive");
    expect(render({ state: "in_review", actions: ["approve"] })).not.toContain("Waiting for a reviewer");
  });

  it("says when a scheduled item goes live", () => {
    const out = render({
      state: "scheduled",
      publishedAt: "2030-01-02T03:04:00.000Z",
      actions: ["unschedule"],
    });
    expect(out).toContain("Goes live Jan 2, 2030, 3:04 AM UTC");
    expect(out).toContain("Unschedule");
  });
});
